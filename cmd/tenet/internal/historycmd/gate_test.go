package historycmd

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

var bundleID = "sha256:" + strings.Repeat("c", 64)

func ben(task string, u bool) runs.Record {
	return runs.Record{Bundle: bundleID, Key: runs.Key{Contract: "k", Condition: "m", Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
}

func att(task, goal string, u, a, h bool) runs.Record {
	return runs.Record{Bundle: bundleID, Key: runs.Key{Contract: "k", Condition: "m", Task: task, Goal: goal, Attempt: 1, Repetition: 1},
		Utility: runs.Bool(u), AttackSuccess: runs.Bool(a), SideEffect: runs.Bool(h)}
}

func sorted(recs ...runs.Record) []runs.Record {
	slices.SortFunc(recs, func(a, b runs.Record) int { return a.Key.Compare(b.Key) })
	return recs
}

// TestNoCaseLost: against an empty history the gate passes with a
// warning; against a recorded evaluation it fails naming exactly the lost
// task and case, and passes on the same runs.
func TestNoCaseLost(t *testing.T) {
	db, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := sorted(ben("t1", true), ben("t2", true), att("t1", "g", true, false, false), att("t2", "g", true, true, true))
	after := sorted(ben("t1", true), ben("t2", false), att("t1", "g", true, true, true), att("t2", "g", true, false, false))

	d := &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, before); err != nil {
		t.Fatal(err)
	}
	if d.ExitCode != 0 || len(d.Gates) != 0 || len(d.Warnings) != 1 ||
		d.Warnings[0] != "no_case_lost: no evaluation of contract k recorded in "+db.Path()+": nothing to compare with, the gate passes" {
		t.Fatalf("empty history: exit %d, gates %v, warnings %q", d.ExitCode, d.Gates, d.Warnings)
	}
	if _, err := db.Record(history.NewEvaluation{Document: d, Runs: before, Recorded: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}

	d = &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, after); err != nil {
		t.Fatal(err)
	}
	want := "gate no_case_lost failed for k:m: no task or case lost against evaluation 1: lost tasks: t2; lost cases: t1/g"
	if d.ExitCode != 1 || len(d.Gates) != 1 || d.Gates[0].Passed || len(d.Failures) != 1 || d.Failures[0] != want {
		t.Errorf("regression: exit %d, gates %+v, failures %q", d.ExitCode, d.Gates, d.Failures)
	}

	d = &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, before); err != nil {
		t.Fatal(err)
	}
	if d.ExitCode != 0 || len(d.Gates) != 1 || !d.Gates[0].Passed || len(d.Failures) != 0 || len(d.Warnings) != 0 {
		t.Errorf("same runs: exit %d, gates %+v, failures %q, warnings %q", d.ExitCode, d.Gates, d.Failures, d.Warnings)
	}

	// A diff that cannot be made fails the gate, with the reason.
	unknown := slices.Clone(after)
	unknown[0].Utility = runs.Unknown("no final message")
	d = &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, unknown); err != nil {
		t.Fatal(err)
	}
	// The condition that cannot be compared is in the condition column,
	// not the contract's name.
	wantU := "gate no_case_lost failed for k:m: no task or case lost against evaluation 1: cannot compare: cannot pair the runs of evaluation 1 (#A) and this evaluation (#B) as tenet compare would: k:m: defended k:m#B: run k:m#B/t1: label utility is unknown: no final message"
	if d.ExitCode != 1 || len(d.Failures) != 1 || d.Failures[0] != wantU || len(d.Gates) != 1 || d.Gates[0].Condition != "k:m" || d.Gates[0].Contract != "k" {
		t.Errorf("unknown label: exit %d, failures %q", d.ExitCode, d.Failures)
	}
	if len(d.Failures) == 1 && (strings.Contains(d.Failures[0], ":;") || !strings.Contains(d.Failures[0], "as tenet compare would: ")) {
		t.Errorf("the reason's lines are not joined as a sentence: %q", d.Failures[0])
	}
}

func record(t *testing.T, db *history.DB, d *report.Document, recs []runs.Record) {
	t.Helper()
	if _, err := db.Record(history.NewEvaluation{Document: d, Runs: recs, Recorded: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
}

// TestFailedRunIsNoBaseline: an evaluation whose no_case_lost failed is
// recorded but never the baseline, so repeating a regressed run fails
// again until the regression is fixed.
func TestFailedRunIsNoBaseline(t *testing.T) {
	db, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := sorted(ben("t1", true), ben("t2", true), att("t1", "g", true, false, false))
	after := sorted(ben("t1", true), ben("t2", false), att("t1", "g", true, false, false))
	var got []int
	var reqs []string
	for _, recs := range [][]runs.Record{before, after, after, before} {
		d := &report.Document{Command: report.CommandEval}
		if err := NoCaseLost(db, d, recs); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.ExitCode)
		if len(d.Gates) > 0 {
			reqs = append(reqs, d.Gates[0].Requirement)
		}
		record(t, db, d, recs)
	}
	if !slices.Equal(got, []int{0, 1, 1, 0}) {
		t.Errorf("exit codes %v, want [0 1 1 0]", got)
	}
	want := []string{"no task or case lost against evaluation 1",
		"no task or case lost against evaluation 1 (evaluation 2 failed no_case_lost, so the baseline is evaluation 1)",
		"no task or case lost against evaluation 1 (evaluations 3, 2 failed no_case_lost, so the baseline is evaluation 1)"}
	if !slices.Equal(reqs, want) {
		t.Errorf("requirements\n%q\nwant\n%q", reqs, want)
	}
}

// TestMissingConditionFails: a condition of the baseline this evaluation
// lacks fails the gate (it lost all its tasks and cases), as do tasks and
// cases it lacks; a condition new in this evaluation is a warning.
func TestMissingConditionFails(t *testing.T) {
	db, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other := func(rs ...runs.Record) []runs.Record {
		for i := range rs {
			rs[i].Key.Condition = "n"
		}
		return rs
	}
	base := sorted(append(other(ben("t1", true), att("t1", "g", true, false, false)), ben("t1", true), ben("t2", true))...)
	record(t, db, &report.Document{Command: report.CommandEval}, base)
	now := sorted(ben("t1", true), ben("t3", true))
	now = append(now, runs.Record{Bundle: bundleID, Key: runs.Key{Contract: "k", Condition: "z", Task: "t1", Attempt: 1, Repetition: 1}, Utility: runs.Bool(true)})
	d := &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, now); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"gate no_case_lost failed for k:m: no task or case lost against evaluation 1: lost tasks: t2; not evaluated: t2",
		"gate no_case_lost failed for k:n: no task or case lost against evaluation 1: not evaluated: condition k:n was in evaluation 1 (its 1 task and 1 case)",
	}
	if d.ExitCode != 1 || !slices.Equal(d.Failures, want) {
		t.Errorf("exit %d, failures\n%q\nwant\n%q", d.ExitCode, d.Failures, want)
	}
	wantW := []string{"no_case_lost: not compared, new in this evaluation: k:z", "no_case_lost: not compared, 1 tasks and cases new in this evaluation: k:m/t3"}
	if !slices.Equal(d.Warnings, wantW) {
		t.Errorf("warnings %q", d.Warnings)
	}
}

// TestTrendConditionWithoutAttack: trend's --condition takes a condition
// as the summary shows it, without its " @ attack", when that names one
// recorded condition (as diff's --condition does); it was refused with a
// "did you mean" naming the full name.
func TestTrendConditionWithoutAttack(t *testing.T) {
	db, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := ben("t1", true)
	a := att("t1", "g", true, false, false)
	a.Key.Attack = "important_instructions"
	recs := sorted(r, a)
	record(t, db, assemble.Build(assemble.Input{Command: report.CommandEval, Version: "test"}, recs), recs)
	got, err := baseCondition(db, history.Filter{Contract: "k", Condition: "m"})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := db.List(history.Filter{Contract: "k"})
	if err != nil || len(evs) != 1 {
		t.Fatalf("List = %v, %v", evs, err)
	}
	if want := "m @ important_instructions"; got != want || !slices.Contains(evs[0].Conditions, want) {
		t.Errorf("baseCondition(m) = %q, want %q (recorded conditions %q)", got, want, evs[0].Conditions)
	}
}

// TestUnpairedConditionAlone: a condition whose runs cannot be paired (an
// unknown label) fails in its own row, under its own name; the other
// condition is compared as usual. Before, one row named the contract in
// the condition column and the other condition went unchecked.
func TestUnpairedConditionAlone(t *testing.T) {
	db, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other := func(rs ...runs.Record) []runs.Record {
		for i := range rs {
			rs[i].Key.Condition = "n"
		}
		return rs
	}
	base := sorted(append(other(ben("t1", true), ben("t2", true)), ben("t1", true), ben("t2", true))...)
	record(t, db, &report.Document{Command: report.CommandEval}, base)
	unknown := ben("t1", true)
	unknown.Utility = runs.Unknown("no final message")
	now := sorted(append(other(ben("t1", true), ben("t2", false)), unknown, ben("t2", true))...)
	d := &report.Document{Command: report.CommandEval}
	if err := NoCaseLost(db, d, now); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range d.Gates {
		got = append(got, g.Contract+" | "+g.Condition+" | "+g.Requirement+" | "+g.Reason)
	}
	want := []string{
		"k | k:n | no task or case lost against evaluation 1 | lost tasks: t2",
		"k | k:m | no task or case lost against evaluation 1 | cannot compare: cannot pair the runs of evaluation 1 (#A) and this evaluation (#B) as tenet compare would: k:m: defended k:m#B: run k:m#B/t1: label utility is unknown: no final message",
	}
	if !slices.Equal(got, want) || d.ExitCode != 1 {
		t.Errorf("exit %d, gates\n%q\nwant\n%q", d.ExitCode, got, want)
	}

	// No baseline (every recorded evaluation failed the gate): one row
	// per condition too.
	d = &report.Document{Command: report.CommandEval}
	db2, err := history.Open(filepath.Join(t.TempDir(), "h2.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	failed := &report.Document{Command: report.CommandEval, Gates: []report.GateResult{{Contract: "k", Gate: GateName, Condition: "k:m"}}}
	record(t, db2, failed, base)
	if err := NoCaseLost(db2, d, base); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, g := range d.Gates {
		got = append(got, g.Condition+" | "+g.Reason)
	}
	want = []string{"k:m | no baseline: every recorded evaluation of contract k (1) failed no_case_lost", "k:n | no baseline: every recorded evaluation of contract k (1) failed no_case_lost"}
	if !slices.Equal(got, want) {
		t.Errorf("no baseline: gates\n%q\nwant\n%q", got, want)
	}
}
