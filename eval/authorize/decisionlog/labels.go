package decisionlog

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// The statuses an Invariant of a log entry carries.
const (
	statusViolated = "violated"
	statusUnknown  = "unknown"
)

// checkedNames is, per bundle, the invariants some entry of the log names:
// invariants the bundle's session check is known to check (docs/runs-format.md,
// "Decision logs read as runs").
func checkedNames(entries []Entry) map[string][]string {
	out := map[string][]string{}
	for _, e := range entries {
		for _, inv := range e.Invariants {
			if !slices.Contains(out[e.Bundle], inv.Name) {
				out[e.Bundle] = append(out[e.Bundle], inv.Name)
			}
		}
	}
	return out
}

// labelRun sets the labels a run's entries (idx, in run order; lines
// their lines) carry: its invariants and witnesses, and the utility's
// reason when some lines were not decided. names is checkedNames of the
// run's bundle. rec.Audit is already built: entry j's calls are numbered
// from the sum of the earlier entries' decision entries, as records does.
func labelRun(rec *runs.Record, entries []Entry, idx, lines []int, names []string) {
	var undecided []int // lines of entries without a decision
	checkedAll, checked := true, false
	inv := map[string]runs.Label{}
	wit := map[string]map[string]string{}
	var session []int // audit index of each call of the gateway session's history
	base := 0
	for _, i := range idx {
		e := entries[i]
		if e.Decision == nil {
			undecided = append(undecided, lines[i])
			continue
		}
		n := len(e.Decision.Entries())
		if e.OnUnknown != "" {
			checked = true
		} else if e.Decision.Allowed {
			checkedAll = false // a call the grant let through, not checked: nothing to infer from
		}
		for _, v := range e.Invariants {
			switch {
			case v.Status == statusViolated:
				if l, ok := inv[v.Name]; ok && l.Known {
					continue // the first violation's witness stands
				}
				inv[v.Name] = runs.False()
				if w := renumber(e, v.Witness, session, base, n); w != nil {
					wit["invariants."+v.Name] = w
				}
			case v.Status == statusUnknown:
				if _, ok := inv[v.Name]; !ok {
					inv[v.Name] = runs.Unknown(fmt.Sprintf("call:%d %s: %s", base, runs.Printable(e.Call.Tool), cmp.Or(v.Reason, "the check could not decide it")))
				}
			}
		}
		if e.Allowed {
			for k := range n {
				session = append(session, base+k)
			}
		}
		base += n
	}
	if checked && checkedAll {
		for _, name := range names {
			if _, ok := inv[name]; !ok {
				inv[name] = runs.True()
			}
		}
	}
	if len(inv) > 0 {
		rec.Invariants = inv
	}
	if len(wit) > 0 {
		rec.Witnesses = wit
	}
	if len(undecided) > 0 {
		rec.Utility = runs.Unknown(NoOutcome + fmt.Sprintf(undecidedFormat, len(undecided), runs.Plural(len(undecided), "line", "lines"), undecided[0]))
	}
}

// renumber maps a witness of entry e, whose items index the session's run
// at the check (its history, then the pending call and its nested calls),
// into the run's call indexes: history is the audit index of each call of
// the history, base the pending call's, n the pending call's audit
// entries. Only tenet gateway's history is the log's allowed calls in
// order; tenet serve's is the messages its host reported, which the log
// does not hold. A witness with an item that cannot be mapped (an event,
// a call of a serve history) is dropped: nil.
func renumber(e Entry, w map[string]string, history []int, base, n int) map[string]string {
	if e.Origin != FromGateway || len(w) == 0 {
		return nil
	}
	out := make(map[string]string, len(w))
	for step, item := range w {
		num, ok := strings.CutPrefix(item, "call:")
		k, err := strconv.Atoi(num)
		switch {
		case !ok || err != nil || k < 0:
			return nil
		case k < len(history):
			out[step] = "call:" + strconv.Itoa(history[k])
		case k-len(history) < n:
			out[step] = "call:" + strconv.Itoa(base+k-len(history))
		default:
			return nil
		}
	}
	return out
}

// undecidedFormat follows NoOutcome in the utility reason of a run with
// lines that decided nothing; Undecided reads it back.
const undecidedFormat = "; %d %s of this run not decided (an entry with an error and no decision, first at line %d): its calls are not in the audit"

// Undecided counts the lines of decision logs that decided no call (an
// entry with an error) among recs, and the runs holding them: the audit
// cannot count them, so a report says so (tenet report warns).
func Undecided(recs []runs.Record) (lines, nruns int) {
	for _, r := range recs {
		rest, ok := strings.CutPrefix(r.Utility.Reason, NoOutcome+"; ")
		var n int
		if ok && !r.Utility.Known {
			if _, err := fmt.Sscanf(rest, "%d ", &n); err == nil && n > 0 {
				lines += n
				nruns++
			}
		}
	}
	return lines, nruns
}
