package historycmd

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/history/regress"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/cliflags"
)

// Gate applies --no-case-lost (f.NoCaseLost) to d, the report of recs,
// against the database f names (NoCaseLost); a database that does not
// exist yet holds nothing to compare with: a warning, and the gate passes.
// Without the flag it does nothing.
func Gate(f *cliflags.History, d *report.Document, recs []runs.Record) error {
	if !f.NoCaseLost {
		return nil
	}
	path, err := f.Path()
	if err != nil {
		return err
	}
	db, err := history.OpenExisting(path)
	if errors.Is(err, fs.ErrNotExist) {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no history database at %s: nothing to compare with, the gate passes", GateName, path))
		return nil
	} else if err != nil {
		return err
	}
	defer db.Close()
	return NoCaseLost(db, d, recs)
}

// GateName is the gate --no-case-lost adds to a report.
const GateName = "no_case_lost"

// NoCaseLost is the --no-case-lost gate of tenet eval and tenet report:
// for each contract of recs (this evaluation's judged runs), the runs of
// the last evaluation of that contract recorded in db are diffed with
// them (regress.Compute, A the recorded one, B this one), and d gets one
// gate result per condition in both: passed when the condition lost no
// task and no case (regress.Classify), failed naming the lost ones. It
// must run before this evaluation is recorded (--record), which would
// otherwise be the last one.
//
// A contract with no recorded evaluation has nothing to lose: a warning
// says so and the gate passes (the first recorded evaluation is the
// baseline). A diff that cannot be made (regress.Compute refuses: unknown
// labels, task or case ids that differ, …) fails the gate with the
// reason, since no case lost cannot be shown. Conditions in only one of
// the two evaluations are named in a warning.
func NoCaseLost(db *history.DB, d *report.Document, recs []runs.Record) error {
	var contracts []string
	for _, r := range recs {
		contracts = append(contracts, r.Key.Contract)
	}
	slices.Sort(contracts)
	for _, c := range slices.Compact(contracts) {
		last, ok, err := db.Last(history.Filter{Contract: c})
		if err != nil {
			return err
		}
		if !ok {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no evaluation of contract %s recorded in %s: nothing to compare with, the gate passes",
				GateName, runs.Safe(c), db.Path()))
			continue
		}
		before, err := db.Runs(last.ID)
		if err != nil {
			return err
		}
		a := regress.Side{Name: fmt.Sprintf("evaluation %d", last.ID), ID: last.ID, Runs: ofContract(before, c)}
		b := regress.Side{Name: "this evaluation", Runs: ofContract(recs, c)}
		requirement := fmt.Sprintf("no task or case lost against evaluation %d", last.ID)
		diff, err := regress.Compute(a, b, regress.Options{})
		if err != nil {
			addGate(d, report.GateResult{Contract: c, Gate: GateName, Condition: runs.Safe(c), Requirement: requirement,
				Reason: "cannot compare: " + strings.ReplaceAll(err.Error(), "\n", "; ")})
			continue
		}
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
				g.Reason = strings.Join(parts, "; ")
			}
			addGate(d, g)
		}
		for _, o := range []struct {
			where string
			names []string
		}{{"only in evaluation " + fmt.Sprint(last.ID), diff.OnlyA}, {"only in this evaluation", diff.OnlyB}} {
			if len(o.names) > 0 {
				d.Warnings = append(d.Warnings, fmt.Sprintf("%s: not compared, %s: %s", GateName, o.where, strings.Join(o.names, ", ")))
			}
		}
	}
	return nil
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
