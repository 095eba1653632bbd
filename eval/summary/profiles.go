package summary

import (
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// ProfileLabels are the labels whose flips a profile's runs are counted
// for (docs/report-formats.md, "Profiles"). A goal-task run's utility is
// counted apart, under GoalTaskUtilityLabel: it is the goal's criterion,
// not a user task's utility, as goal_task_utility is apart from
// benign_utility in the metrics.
var ProfileLabels = []runs.LabelName{runs.Utility, runs.AttackSuccess, runs.SideEffect}

// GoalTaskUtilityLabel is the row of the goal-task runs' utility flips
// (metrics.GoalTaskUtilityName), after ProfileLabels' rows, present only for
// a condition with goal-task runs.
const GoalTaskUtilityLabel = metrics.GoalTaskUtilityName

// ProfileFlips says how a profile changes the labels of one condition: its
// runs (condition Condition+"+"+Profile, tenet eval --profile) paired by
// task, goal, attempt and repetition with the condition's own.
type ProfileFlips struct {
	Contract  string       `json:"contract"`
	Condition string       `json:"condition"` // the base condition
	Profile   string       `json:"profile"`
	Paired    int          `json:"paired"`   // runs judged under both
	Unpaired  int          `json:"unpaired"` // runs of the profile's condition without a base run
	Labels    []LabelFlips `json:"labels"`   // one per ProfileLabels entry, in that order, then GoalTaskUtilityLabel's when the condition has goal-task runs

	pipeline string // for an attack's condition: its pipeline, whose benign runs it shares
}

// LabelFlips counts, over the paired runs that carry the label, how the
// profile changes it; Same counts those it leaves as they were.
type LabelFlips struct {
	Label          string `json:"label"`
	TrueToFalse    int    `json:"true_to_false"`
	FalseToTrue    int    `json:"false_to_true"`
	KnownToUnknown int    `json:"known_to_unknown"`
	UnknownToKnown int    `json:"unknown_to_known"`
	Same           int    `json:"same"`
}

// Flipped is the number of runs whose label the profile changes.
func (f LabelFlips) Flipped() int {
	return f.TrueToFalse + f.FalseToTrue + f.KnownToUnknown + f.UnknownToKnown
}

// FlipCounter pairs the runs of a profile's condition with their base
// runs as records arrive (in any order) and counts the flips. It holds
// the labels of each base run until every profile's run of it has come
// (three labels and a key per run), so its memory grows with the runs of
// the conditions being compared, not with the transcripts.
type FlipCounter struct {
	profiles []string
	base     map[runs.Key]pending
	early    map[runs.Key][]pending // profile runs that came before their base run, by base key
	flips    map[[3]string]*ProfileFlips
	// goalTasks holds the (contract, base condition) pairs that have a
	// goal-task run, base or profile's: their entries get the
	// GoalTaskUtilityLabel row, their other entries none.
	goalTasks map[[2]string]bool
}

type pending struct {
	labels   [3]runs.Label
	goalTask bool
	profile  string
	seen     int // profile runs paired so far
}

// NewFlipCounter counts the flips of the named profiles; nil without any.
func NewFlipCounter(profiles []string) *FlipCounter {
	if len(profiles) == 0 {
		return nil
	}
	return &FlipCounter{profiles: profiles, base: map[runs.Key]pending{}, early: map[runs.Key][]pending{}, flips: map[[3]string]*ProfileFlips{},
		goalTasks: map[[2]string]bool{}}
}

// Add takes one record. A record whose condition ends in "+NAME" for one
// of the profiles is that profile's run of the condition before it; any
// other is a base run.
func (c *FlipCounter) Add(r runs.Record) {
	if c == nil {
		return
	}
	p := pending{goalTask: r.GoalTask}
	for i, l := range ProfileLabels {
		p.labels[i] = *r.Label(l)
	}
	k := r.Key
	for _, name := range c.profiles {
		if cond, ok := strings.CutSuffix(k.Condition, "+"+name); ok && cond != "" {
			k.Condition, p.profile = cond, name
			c.noteGoalTask(k, p)
			if b, ok := c.base[k]; ok {
				c.pair(k, b, p)
			} else {
				c.early[k] = append(c.early[k], p)
			}
			return
		}
	}
	c.noteGoalTask(k, p)
	c.base[k] = p
	for _, e := range c.early[k] {
		c.pair(k, c.base[k], e)
	}
	delete(c.early, k)
}

func (c *FlipCounter) noteGoalTask(k runs.Key, p pending) {
	if p.goalTask {
		c.goalTasks[[2]string{k.Contract, k.Condition}] = true
	}
}

// pair counts one profile run against its base run, and forgets the base
// run once every profile has been paired with it. The utility of a
// goal-task run (marked so on either side) goes to the GoalTaskUtilityLabel
// row, never to utility's.
func (c *FlipCounter) pair(k runs.Key, b, p pending) {
	f := c.entry(k, p.profile)
	f.Paired++
	for i := range ProfileLabels {
		from, to := b.labels[i], p.labels[i]
		lf := &f.Labels[i]
		if ProfileLabels[i] == runs.Utility && (b.goalTask || p.goalTask) {
			lf = goalTaskRow(f)
		}
		switch {
		case from.Absent() || to.Absent():
		case from.Known && to.Known && from.Value == to.Value, !from.Known && !to.Known:
			lf.Same++
		case from.Known && to.Known && from.Value:
			lf.TrueToFalse++
		case from.Known && to.Known:
			lf.FalseToTrue++
		case from.Known:
			lf.KnownToUnknown++
		default:
			lf.UnknownToKnown++
		}
	}
	if b.seen++; b.seen == len(c.profiles) {
		delete(c.base, k)
	} else {
		c.base[k] = b
	}
}

func (c *FlipCounter) entry(k runs.Key, profile string) *ProfileFlips {
	// An attacked run's flips count under its attack's condition, a benign
	// run's under its pipeline; Result adds the pipeline's to each of its
	// attacks' conditions, which share its benign runs.
	cond := runs.ShownCondition(k.Condition, k.Attack)
	id := [3]string{k.Contract, cond, profile}
	f := c.flips[id]
	if f == nil {
		f = &ProfileFlips{Contract: k.Contract, Condition: cond, Profile: profile}
		if k.Attack != "" {
			f.pipeline = k.Condition
		}
		for _, l := range ProfileLabels {
			f.Labels = append(f.Labels, LabelFlips{Label: string(l)})
		}
		c.flips[id] = f
	}
	return f
}

// goalTaskRow returns f's GoalTaskUtilityLabel row, added after
// ProfileLabels' rows if it has none yet.
func goalTaskRow(f *ProfileFlips) *LabelFlips {
	if len(f.Labels) == len(ProfileLabels) {
		f.Labels = append(f.Labels, LabelFlips{Label: GoalTaskUtilityLabel})
	}
	return &f.Labels[len(ProfileLabels)]
}

// Result gives the counts by contract, condition and profile; profile
// runs without a base run count as Unpaired. A condition with goal-task
// runs has the GoalTaskUtilityLabel row, zero if none of them was paired.
func (c *FlipCounter) Result() []ProfileFlips {
	if c == nil {
		return nil
	}
	for k, ps := range c.early {
		for _, p := range ps {
			c.entry(k, p.profile).Unpaired++
		}
	}
	c.early = map[runs.Key][]pending{}
	for _, f := range c.flips {
		if c.goalTasks[[2]string{f.Contract, f.Condition}] {
			goalTaskRow(f)
		}
	}
	// A pipeline's benign flips belong to each of its attacks' conditions,
	// as its benign runs do (docs/metrics.md, "Attacks as conditions"):
	// added to each, and the pipeline's own row dropped.
	shared := map[[3]string]bool{}
	for _, f := range c.flips {
		if f.pipeline == "" {
			continue
		}
		id := [3]string{f.Contract, f.pipeline, f.Profile}
		if b := c.flips[id]; b != nil {
			addFlips(f, b)
			shared[id] = true
		}
	}
	out := make([]ProfileFlips, 0, len(c.flips))
	for id, f := range c.flips {
		if !shared[id] {
			out = append(out, *f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Contract != b.Contract {
			return a.Contract < b.Contract
		}
		if a.Condition != b.Condition {
			return a.Condition < b.Condition
		}
		return a.Profile < b.Profile
	})
	return out
}

// addFlips adds the counts of b (a pipeline's benign runs) to f.
func addFlips(f, b *ProfileFlips) {
	f.Paired += b.Paired
	f.Unpaired += b.Unpaired
	if len(b.Labels) > len(f.Labels) {
		goalTaskRow(f)
	}
	for i, l := range b.Labels {
		t := &f.Labels[i]
		t.TrueToFalse += l.TrueToFalse
		t.FalseToTrue += l.FalseToTrue
		t.KnownToUnknown += l.KnownToUnknown
		t.UnknownToKnown += l.UnknownToKnown
		t.Same += l.Same
	}
}
