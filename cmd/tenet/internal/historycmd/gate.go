package historycmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/history/regress"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// Gate applies --no-case-lost to d, the report of recs, against the
// database of s (NoCaseLost); a database --record has just created holds
// nothing to compare with: a warning, and the gate passes. Without the
// flag it does nothing.
func (s *Session) Gate(d *report.Document, recs []runs.Record) error {
	if !s.f.NoCaseLost {
		return nil
	}
	if s.fresh {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no history database at %s: nothing to compare with, the gate passes (this evaluation starts the history)", GateName, s.path))
		return nil
	}
	return NoCaseLost(s.db, d, recs)
}

// GateName is the gate --no-case-lost adds to a report.
const GateName = "no_case_lost"

// NoCaseLost is the --no-case-lost gate of tenet eval and tenet report:
// for each contract of recs (this evaluation's judged runs), the runs of
// its baseline in db (Baseline) are diffed with them (regress.Compute, A
// the recorded one, B this one), and d gets one gate result per condition
// of the baseline: passed when the condition lost no task and no case,
// failed naming the lost ones (regress.Classify: a task or case this
// evaluation lacks is lost, and a condition it lacks fails with "not
// evaluated"). It must run before this evaluation is recorded (--record).
//
// A contract with no recorded evaluation has nothing to lose: a warning
// says so and the gate passes (the first recorded evaluation is the
// baseline). A diff that cannot be made (regress.Compute refuses: unknown
// labels, …) fails the gate with the reason, since no case lost cannot be
// shown. Conditions new in this evaluation are named in a warning.
func NoCaseLost(db *history.DB, d *report.Document, recs []runs.Record) error {
	var contracts []string
	for _, r := range recs {
		contracts = append(contracts, r.Key.Contract)
	}
	slices.Sort(contracts)
	for _, c := range slices.Compact(contracts) {
		base, why, ok, err := Baseline(db, c)
		if err != nil {
			return err
		}
		if !ok && why == "" {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no evaluation of contract %s recorded in %s: nothing to compare with, the gate passes",
				GateName, runs.Safe(c), db.Path()))
			continue
		}
		mine := ofContract(recs, c)
		// A failure that concerns every condition of c is one row per
		// condition, each in the condition column, as other gates' are.
		failEach := func(requirement, reason string) {
			for _, name := range regress.ConditionNames(mine) {
				addGate(d, report.GateResult{Contract: c, Gate: GateName, Condition: name, Requirement: requirement, Reason: reason})
			}
		}
		if !ok {
			failEach("no task or case lost against the baseline", why)
			continue
		}
		before, err := db.Runs(base.ID)
		if err != nil {
			return err
		}
		a := regress.Side{Name: fmt.Sprintf("evaluation %d", base.ID), ID: base.ID, Runs: ofContract(before, c)}
		b := regress.Side{Name: "this evaluation", Runs: mine}
		requirement := fmt.Sprintf("no task or case lost against evaluation %d", base.ID)
		if why != "" {
			requirement += " (" + why + ")"
		}
		diff, err := regress.Compute(a, b, regress.Options{KeepUnpaired: true})
		if err != nil {
			failEach(requirement, "cannot compare: "+oneLine(err.Error()))
			continue
		}
		first := len(d.Gates)
		for _, cond := range diff.Conditions {
			g := report.GateResult{Contract: c, Gate: GateName, Condition: cond.Name, Requirement: requirement,
				Passed: len(cond.LostTasks)+len(cond.LostCases) == 0}
			if !g.Passed {
				var parts []string
				if len(cond.LostTasks) > 0 {
					parts = append(parts, "lost tasks: "+ids(cond.LostTasks))
				}
				if len(cond.LostCases) > 0 {
					parts = append(parts, "lost cases: "+ids(cond.LostCases))
				}
				if len(cond.Missing) > 0 {
					parts = append(parts, "not evaluated: "+ids(cond.Missing))
				}
				g.Reason = strings.Join(parts, "; ")
			}
			addGate(d, g)
		}
		for _, u := range diff.Unpaired { // no case lost cannot be shown
			addGate(d, report.GateResult{Contract: c, Gate: GateName, Condition: u.Name, Requirement: requirement, Reason: "cannot compare: " + oneLine(u.Reason)})
		}
		for _, v := range diff.Vanished {
			addGate(d, report.GateResult{Contract: c, Gate: GateName, Condition: v.Name, Requirement: requirement, Reason: v.Reason(a.Name)})
		}
		if len(diff.OnlyB) > 0 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: not compared, new in this evaluation: %s", GateName, strings.Join(diff.OnlyB, ", ")))
		}
		var added []string
		for _, cond := range diff.Conditions {
			for _, id := range cond.New {
				added = append(added, cond.Name+"/"+runs.Printable(id))
			}
		}
		if len(added) > 0 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: not compared, %d tasks and cases new in this evaluation: %s", GateName, len(added), firstOf(added, 10)))
		}
		// A passing gate names its baseline in the summary too, so that a
		// CI log shows what it was compared with (a failing one's lines
		// name it already).
		if !slices.ContainsFunc(d.Gates[first:], func(g report.GateResult) bool { return !g.Passed }) {
			// The contract and the baseline first: a summary cuts a long
			// line at its end.
			d.Notes = append(d.Notes, fmt.Sprintf("%s passed for %s against evaluation %d (recorded %s): no task or case lost",
				GateName, runs.Safe(c), base.ID, base.Recorded.Format(time.RFC3339)))
		}
	}
	return nil
}

// Baseline is the evaluation of contract c that --no-case-lost compares
// with: the last recorded one whose no_case_lost gate did not fail for c
// (one recorded without the gate counts), so that a regressed evaluation,
// recorded all the same, does not become the reference that hides its
// losses. why says which newer evaluations were skipped ("" when none);
// ok is false when none is recorded (why "") or every one failed the gate
// (why says so).
func Baseline(db *history.DB, c string) (base history.Evaluation, why string, ok bool, err error) {
	evs, err := db.List(history.Filter{Contract: c})
	if err != nil {
		return history.Evaluation{}, "", false, err
	}
	var skipped []string
	for _, e := range evs {
		gs, err := db.Gates(e.ID)
		if err != nil {
			return history.Evaluation{}, "", false, err
		}
		failed := slices.ContainsFunc(gs, func(g history.Gate) bool { return g.Gate == GateName && g.Contract == c && !g.Passed })
		if !failed {
			if len(skipped) > 0 {
				why = fmt.Sprintf("%s failed %s, so the baseline is evaluation %d", joinEvaluations(skipped), GateName, e.ID)
			}
			return e, why, true, nil
		}
		skipped = append(skipped, fmt.Sprint(e.ID))
	}
	if len(skipped) > 0 {
		return history.Evaluation{}, fmt.Sprintf("no baseline: every recorded evaluation of contract %s (%s) failed %s", runs.Safe(c), strings.Join(skipped, ", "), GateName), false, nil
	}
	return history.Evaluation{}, "", false, nil
}

// joinEvaluations is "evaluation 3" or "evaluations 3, 2".
func joinEvaluations(ids []string) string {
	if len(ids) == 1 {
		return "evaluation " + ids[0]
	}
	return "evaluations " + strings.Join(ids, ", ")
}

// firstOf joins the first n of s, then says how many more.
func firstOf(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("%s, … and %d more", strings.Join(s[:n], ", "), len(s)-n)
}

// addGate adds g to d as report.Build would have: a failed requirement is
// a failure of kind gates, counted in the exit code unless d's policy
// (--fail-on) leaves gates out.
func addGate(d *report.Document, g report.GateResult) {
	d.Gates = append(d.Gates, g)
	if g.Passed {
		return
	}
	line := report.GateFailure(g)
	if fails, note := d.Fails(failpolicy.Gates, g.Contract, ""); !fails {
		d.NotFailing = append(d.NotFailing, line+" "+note)
		return
	}
	d.Failures = append(d.Failures, line)
	if d.ExitCode == 0 {
		d.ExitCode = 1
	}
}

func ofContract(recs []runs.Record, c string) []runs.Record {
	var out []runs.Record
	for _, r := range recs {
		if r.Key.Contract == c {
			out = append(out, r)
		}
	}
	return out
}

func ids(s []string) string {
	out := make([]string, len(s))
	for i, id := range s {
		out[i] = runs.Printable(id)
	}
	return strings.Join(out, ", ")
}

// oneLine joins an error's lines for a gate's reason: a line ending in a
// colon introduces the next ("would: a; b"), the others are separated.
func oneLine(msg string) string {
	return strings.ReplaceAll(strings.ReplaceAll(msg, ":\n", ": "), "\n", "; ")
}
