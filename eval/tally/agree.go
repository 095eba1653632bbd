package tally

import "github.com/tenetlang/tenet/eval/runs"

// Agreement compares tenet's labels with the labels another harness gave
// (runs.Record.Given) for one (contract, condition): three rows, for the
// three labels AgentDojo (Debenedetti et al., 2024) reports per run —
// benign utility, utility under attack and attack success.
type Agreement struct {
	Contract  string
	Condition string
	AttackOf  // an attack's condition: its pipeline and attack
	// BenignUtility compares utility with given utility on benign runs.
	BenignUtility AgreementRow
	// AttackedUtility compares utility with given utility on attacked runs.
	AttackedUtility AgreementRow
	// AttackSuccess compares attack_success with given attack_success on
	// attacked runs.
	AttackSuccess AgreementRow
	// GoalTaskUtility compares utility with given utility on goal-task
	// runs (runs.Record.GoalTask): a goal run directly as a user task,
	// whose given utility is the goal's check (AgentDojo's injection task
	// run as a user task), kept apart from benign utility.
	GoalTaskUtility AgreementRow
}

// Name is the condition as "contract:condition" (runs.ConditionName).
func (a Agreement) Name() string { return a.name(a.Contract, a.Condition) }

// Rows returns the rows in order: benign utility, utility under attack,
// attack success, and goal-task utility when the condition has goal-task
// runs.
func (a Agreement) Rows() []AgreementRow {
	rows := []AgreementRow{a.BenignUtility, a.AttackedUtility, a.AttackSuccess}
	if a.GoalTaskUtility.runs() > 0 {
		rows = append(rows, a.GoalTaskUtility)
	}
	return rows
}

// Columns returns the row labels a table of as shows, one column each:
// the three rows every condition has, and goal_task_utility when one of as
// has goal-task runs. Row(i) is a condition's row in column i.
func Columns(as []Agreement) []string {
	cols := []string{"benign_utility", "utility_under_attack", string(runs.AttackSuccess)}
	for _, a := range as {
		if a.GoalTaskUtility.runs() > 0 {
			return append(cols, a.GoalTaskUtility.Label)
		}
	}
	return cols
}

// Row returns the row in column i of Columns: 0 to 2 as Rows, 3 the
// goal-task utility row (empty when the condition has no goal-task run).
func (a Agreement) Row(i int) AgreementRow {
	return [...]AgreementRow{a.BenignUtility, a.AttackedUtility, a.AttackSuccess, a.GoalTaskUtility}[i]
}

func (r AgreementRow) runs() int { return r.Agree + r.Disagree + r.OursUnknown + r.NotGiven }

// AgreementRow counts the runs of one kind by how our label compares with
// the given one. Every run lands in exactly one count, checked in this
// order: OursUnknown (our label is unknown, whether or not one was given),
// NotGiven (the other harness gave no label), Agree, Disagree; so
// Agree+Disagree+OursUnknown+NotGiven is the number of runs.
type AgreementRow struct {
	// Label names the row: "benign_utility", "utility_under_attack" or
	// the attack-success label's name (runs.AttackSuccess).
	Label       string
	Agree       int
	Disagree    int
	OursUnknown int
	NotGiven    int
	// Disagreements and Unknowns list the runs behind Disagree and
	// OursUnknown, sorted by key. A report bounds the runs it names
	// (metrics.Group.AddUnlisted): MoreDisagreements and MoreUnknowns count those
	// left out, so that Disagree = len(Disagreements) + MoreDisagreements
	// and OursUnknown = len(Unknowns) + MoreUnknowns.
	Disagreements     []Disagreement
	Unknowns          []UnknownLabel
	MoreDisagreements int
	MoreUnknowns      int
}

// Compared is Agree+Disagree: the runs where both labels are known.
func (r AgreementRow) Compared() int { return r.Agree + r.Disagree }

// Disagreement is a run where our label and the given one differ.
type Disagreement struct {
	Key        runs.Key
	Ours       bool
	Given      bool
	OriginFile string // where the transcript came from, when known
	OriginLine int
	// Excerpt is the run's excerpt (runs.Record.Excerpt): its calls and
	// last message rendered short, by item; nil when the runs file has none.
	Excerpt map[string]string
}

// UnknownLabel is a run whose label we could not decide, with the reason.
type UnknownLabel struct {
	Key    runs.Key
	Reason string
}

// Agree compares labels with given labels per (contract, condition), sorted
// by (contract, condition). It does not validate the records (runs.Read and
// runs.Check do); labels a benign run should not carry are ignored.
func Agree(recs []runs.Record) []Agreement {
	var out []Agreement
	for _, g := range ConditionGroups(recs) {
		a := NewAttackAgreement(groupName(g))
		for _, r := range g {
			a.Add(r, true)
		}
		out = append(out, a)
	}
	return out
}

// NewAgreement returns an empty Agreement for (contract, condition).
func NewAgreement(contract, condition string) Agreement {
	return Agreement{
		Contract:        contract,
		Condition:       condition,
		BenignUtility:   AgreementRow{Label: "benign_utility"},
		AttackedUtility: AgreementRow{Label: "utility_under_attack"},
		AttackSuccess:   AgreementRow{Label: string(runs.AttackSuccess)},
		GoalTaskUtility: AgreementRow{Label: "goal_task_utility"},
	}
}

// Add compares one run's labels (runs added in key order); list says
// whether the run is named in the lists or only counted in the More fields.
func (a *Agreement) Add(r runs.Record, list bool) {
	switch {
	case r.Key.Attacked():
		a.AttackedUtility.add(r, r.Utility, r.Given.Utility, list)
		a.AttackSuccess.add(r, r.AttackSuccess, r.Given.AttackSuccess, list)
	case r.GoalTask:
		a.GoalTaskUtility.add(r, r.Utility, r.Given.Utility, list)
	default:
		a.BenignUtility.add(r, r.Utility, r.Given.Utility, list)
	}
}

func (row *AgreementRow) add(r runs.Record, ours runs.Label, given *bool, list bool) {
	switch {
	case !ours.Known:
		row.OursUnknown++
		if !list {
			row.MoreUnknowns++
			return
		}
		row.Unknowns = append(row.Unknowns, UnknownLabel{Key: r.Key, Reason: ours.Reason})
	case given == nil:
		row.NotGiven++
	case ours.Value == *given:
		row.Agree++
	default:
		row.Disagree++
		if !list {
			row.MoreDisagreements++
			return
		}
		row.Disagreements = append(row.Disagreements, Disagreement{
			Key: r.Key, Ours: ours.Value, Given: *given, OriginFile: r.OriginFile, OriginLine: r.OriginLine, Excerpt: r.Excerpt,
		})
	}
}
