package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// cutRecords returns n benign runs under each condition, each violating
// invariant "inv": one run reference each (its hit_runs entry, with its
// violation's witness).
func cutRecords(n int, conditions ...string) []runs.Record {
	var out []runs.Record
	for _, c := range conditions {
		for i := range n {
			r := fixtureRecord("", c, fmt.Sprintf("T%d", i+1), "", true, false)
			r.Invariants = map[string]runs.Label{"inv": runs.Bool(false)}
			r.Witnesses = map[string]map[string]string{"invariants.inv": {"s": "event:0"}}
			out = append(out, r)
		}
	}
	return out
}

func cutDocument(t *testing.T, recs []runs.Record, max int) *Document {
	t.Helper()
	return testBuild(testInput{Command: CommandReport, Version: "v", Records: recs, MaxListed: max})
}

// sameCounts checks the counts, failures and exit code of a cut Document
// are those of the whole one, and that each list plus its More field makes
// its count.
func sameCounts(t *testing.T, cut, whole *Document) {
	t.Helper()
	if !reflect.DeepEqual(cut.Failures, whole.Failures) || cut.ExitCode != whole.ExitCode || cut.Runs != whole.Runs {
		t.Errorf("failures or exit code differ: %q %d, want %q %d", cut.Failures, cut.ExitCode, whole.Failures, whole.ExitCode)
	}
	if !reflect.DeepEqual(cut.Conditions, whole.Conditions) {
		t.Error("conditions differ")
	}
	if len(cut.Violations)+cut.MoreViolations != len(whole.Violations) {
		t.Errorf("violations %d + %d more, want %d", len(cut.Violations), cut.MoreViolations, len(whole.Violations))
	}
	for i, c := range cut.Checks {
		w := whole.Checks[i]
		if c.Runs != w.Runs || c.ViolatingRuns != w.ViolatingRuns || c.UndecidedRuns != w.UndecidedRuns {
			t.Errorf("%s: checks counts differ", c.Name())
		}
		for j, n := range c.Invariants {
			if n.Hits != w.Invariants[j].Hits || n.Unknown != w.Invariants[j].Unknown ||
				len(n.HitRuns)+n.MoreHitRuns != n.Hits || len(n.UnknownRuns)+n.MoreUnknownRuns != n.Unknown {
				t.Errorf("%s %s: %+v, whole %+v", c.Name(), n.Name, n, w.Invariants[j])
			}
		}
	}
}

// TestCutExactlyAtBudget: a budget equal to the first condition's runs
// lists that condition whole (no cut there) and of the second only its
// floor (summary.MinListedPerCondition).
func TestCutExactlyAtBudget(t *testing.T) {
	recs := cutRecords(15, "a", "b")
	whole := cutDocument(t, recs, 0)
	d := cutDocument(t, recs, 15)
	sameCounts(t, d, whole)
	a, b := d.Checks[0].Invariants[0], d.Checks[1].Invariants[0]
	if len(a.HitRuns) != 15 || a.MoreHitRuns != 0 || len(b.HitRuns) != 3 || b.MoreHitRuns != 12 {
		t.Errorf("a: %d listed, %d more; b: %d listed, %d more", len(a.HitRuns), a.MoreHitRuns, len(b.HitRuns), b.MoreHitRuns)
	}
	if len(d.Violations) != 18 || d.MoreViolations != 12 || d.MaxListed != 15 {
		t.Errorf("violations %d, more %d, max %d", len(d.Violations), d.MoreViolations, d.MaxListed)
	}
	var bTasks []string
	for _, v := range d.Violations {
		if len(v.Witness) != 1 {
			t.Errorf("violation listed: %+v", v)
		}
		if v.Key.Condition == "b" {
			bTasks = append(bTasks, v.Key.Task)
		}
	}
	// b's first 3 runs in key order (tasks sort as strings).
	if want := []string{"T1", "T10", "T11"}; !reflect.DeepEqual(bTasks, want) {
		t.Errorf("violations of b listed %v, want %v", bTasks, want)
	}
	// Budget 30: everything fits, the Document is the whole one but for
	// MaxListed.
	d = cutDocument(t, recs, 30)
	d.MaxListed = 0
	if !reflect.DeepEqual(d, whole) {
		t.Error("a budget that fits every list changes the Document")
	}
}

// TestCutZeroIsUnlimited: MaxListed 0 (or less) lists everything, as the
// whole-slice functions do.
func TestCutZeroIsUnlimited(t *testing.T) {
	recs := cutRecords(50, "a", "b", "c")
	whole := reference(testInput{Command: CommandReport, Version: "v", Records: recs})
	for _, max := range []int{0, -1} {
		if d := cutDocument(t, recs, max); !reflect.DeepEqual(d, whole) {
			t.Errorf("MaxListed %d: the Document differs from the uncut one", max)
		}
	}
}

// TestCutSpansConditions: a kind's budget is shared in key order across
// conditions, each condition keeps its floor of 3 runs per check, and the cut
// shows in every format with the exact number left out.
func TestCutSpansConditions(t *testing.T) {
	recs := cutRecords(15, "a", "b", "c")
	whole := cutDocument(t, recs, 0)
	d := cutDocument(t, recs, 20)
	sameCounts(t, d, whole)
	d.RunsFiles = RunsFiles{"out/runs.jsonl"} // tenet eval --out out/runs.jsonl
	var listed, more []int
	for _, c := range d.Checks {
		listed = append(listed, len(c.Invariants[0].HitRuns))
		more = append(more, c.Invariants[0].MoreHitRuns)
	}
	// a: 15 of the budget; b: the other 5 of it (past its floor); c: its floor.
	if !reflect.DeepEqual(listed, []int{15, 5, 3}) || !reflect.DeepEqual(more, []int{0, 10, 12}) {
		t.Errorf("listed %v, more %v; want [15 5 3], [0 10 12]", listed, more)
	}
	if d.MoreViolations != 22 {
		t.Errorf("MoreViolations %d, want 22", d.MoreViolations)
	}
	out := renderAll(t, d)
	for _, f := range testFormatNames() {
		s := string(out[f])
		if f == "json" || !listsRuns(f) {
			continue
		}
		// b: 5 listed, 10 cut (the table names 3 runs per group,
		// MaxNamedRuns, and counts the other 2 with the cut); c: 3
		// listed, 12 cut.
		b := "… and 10 more violations"
		if f == "table" || f == "table-full" {
			b = "… and 12 more violations"
		}
		for _, want := range []string{b + ": out/runs.jsonl names every run; tenet explain out/runs.jsonl KEY explains one",
			"… and 12 more violations: out/runs.jsonl names every run; tenet explain out/runs.jsonl KEY explains one"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q in\n%s", f, want, s)
			}
		}
	}
	if err := reportSchema(t).Validate(decodeJSON(t, out["json"])); err != nil {
		t.Fatalf("%v\n%s", err, out["json"])
	}
	var v struct {
		MaxListed      int `json:"max_listed"`
		MoreViolations int `json:"more_violations"`
		Violations     []any
		Checks         []struct {
			Invariants []struct {
				Hits        int   `json:"hits"`
				HitRuns     []any `json:"hit_runs"`
				MoreHitRuns int   `json:"more_hit_runs"`
			} `json:"invariants"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(out["json"], &v); err != nil {
		t.Fatal(err)
	}
	if v.MaxListed != 20 || v.MoreViolations != 22 || len(v.Violations) != 23 {
		t.Errorf("json: max_listed %d, more_violations %d, %d violations", v.MaxListed, v.MoreViolations, len(v.Violations))
	}
	for i, c := range v.Checks {
		n := c.Invariants[0]
		if n.Hits != 15 || len(n.HitRuns) != listed[i] || n.MoreHitRuns != more[i] {
			t.Errorf("json checks %d: %+v", i, n)
		}
	}
}

// TestCutKindsApart: each kind of list has its own budget, so a run can be
// named in some of its lists and only counted in others, and each check
// has its floor of min(max, 3) runs: with max 1 the invariant lists T1
// alone, yet the failure class, another check, still lists T2 (checks
// are taken in name order: T2's failures.slow before its invariants.inv,
// so with max 2 the budget is spent and T2's violation is listed by the
// floor of 2).
func TestCutKindsApart(t *testing.T) {
	recs := cutRecords(3, "a")
	// T2 and T3 also disagree with their given utility and have a denied
	// call; T2 is undecided on a failure class too: 2 checks entries.
	given := false
	for i := 1; i < 3; i++ {
		r := &recs[i]
		r.Given.Utility = &given
		r.Grant = "g"
		r.Audit = []runs.AuditEntry{{Call: 0, Tool: "send", Decision: runs.Decisions[0], Detail: "x"}}
	}
	recs[1].Failures = map[string]runs.Label{"slow": runs.Unknown("no clock")}
	if n := metrics.Listed(recs[1]); n != 4 {
		t.Fatalf("metrics.Listed = %d, want 4", n)
	}
	whole := cutDocument(t, recs, 0)
	for _, c := range []struct {
		max, hits int  // invariant hit runs listed
		failure   bool // T2's failure class listed
		disagreed int  // disagreements (and denied runs) listed
	}{{1, 1, true, 1}, {2, 2, true, 2}, {3, 3, true, 2}, {4, 3, true, 2}} {
		d := cutDocument(t, recs, c.max)
		sameCounts(t, d, whole)
		inv := d.Checks[0].Invariants[0]
		if len(inv.HitRuns) != c.hits || len(d.Violations) != c.hits {
			t.Errorf("max %d: %d hit runs, %d violations listed, want %d", c.max, len(inv.HitRuns), len(d.Violations), c.hits)
		}
		fc := d.Checks[0].Failures[0]
		ag := d.Agreement[0].BenignUtility
		au := d.Audit[0]
		if (len(fc.UnknownRuns) == 1) != c.failure || (fc.MoreUnknownRuns == 1) == c.failure ||
			len(ag.Disagreements) != c.disagreed || ag.MoreDisagreements != 2-c.disagreed ||
			len(au.Denied) != c.disagreed || au.MoreDenied != 2-c.disagreed {
			t.Errorf("max %d: failure %+v, agreement %+v, denied %d+%d", c.max, fc, ag, len(au.Denied), au.MoreDenied)
		}
		if c.max == 1 {
			// T3 cut: every format that lists disagreements and
			// denied calls says so (JUnit lists neither).
			for f, out := range renderAll(t, d) {
				if !listsRuns(f) {
					continue
				}
				if f != "json" && f != "junit" && !strings.Contains(string(out), "… and 1 more disagreement") {
					t.Errorf("%s: the cut disagreement is not said", f)
				}
				if f != "json" && f != "junit" && !strings.Contains(string(out), "… and 1 more run with calls not authorized: write every run with --out runs.jsonl; then tenet explain runs.jsonl KEY explains one") {
					t.Errorf("%s: the cut denied call is not said", f)
				}
			}
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 374454: "374,454", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestCutComparison: ids are cut in document order, counts kept.
func TestCutComparison(t *testing.T) {
	c := metrics.Comparison{Transitions: []metrics.Transition{
		{Name: "x", Lost: 2, Gained: 3, LostIDs: []string{"a", "b"}, GainedIDs: []string{"c", "d", "e"}},
		{Name: "y", Lost: 1, LostIDs: []string{"f"}},
	}}
	if got := CutComparison(&c, 3); got != 3 {
		t.Fatalf("CutComparison = %d", got)
	}
	x, y := c.Transitions[0], c.Transitions[1]
	if len(x.LostIDs) != 2 || x.MoreLostIDs != 0 || len(x.GainedIDs) != 1 || x.MoreGainedIDs != 2 || len(y.LostIDs) != 0 || y.MoreLostIDs != 1 {
		t.Errorf("%+v %+v", x, y)
	}
	d := BuildComparison("v", []string{"a.jsonl", "b.jsonl"}, 6, &c, 3)
	for f, out := range renderAll(t, d) {
		if f != "json" && listsRuns(f) && !bytes.Contains(out, []byte("… and 2 more ids: the runs files name every run; tenet explain a.jsonl b.jsonl KEY explains one")) {
			t.Errorf("%s: the cut is not said:\n%s", f, out)
		}
	}
}

// TestUnknownLabelsGrouped: in the table format a reason more than
// MaxNamedRuns runs of a condition share is written once, with its count
// and first runs; a rarer reason keeps a line per run, in key order.
func TestUnknownLabelsGrouped(t *testing.T) {
	var recs []runs.Record
	given := true
	for i := range 6 {
		r := fixtureRecord("", "a", fmt.Sprintf("T%d", i+1), "", true, false)
		r.Utility = runs.Unknown("the transcript has no messages")
		if i == 1 {
			r.Utility = runs.Unknown("no clock")
		}
		r.Given.Utility = &given
		recs = append(recs, r)
	}
	out := string(renderAll(t, cutDocument(t, recs, 0))["table"])
	want := `
unknown labels in benign_utility:
  5 runs: the transcript has no messages
    a/T1
    a/T3
    a/T4
    … and 2 more
  a/T2: no clock
`
	if !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
}

// TestCutNoteWhere: the note under a cut list points at the runs files the
// report really has — none without tenet eval --out (then it says how to
// write one), the --out file, or the runs files tenet report and compare
// read — and never at a runs file that was not written.
func TestCutNoteWhere(t *testing.T) {
	for _, c := range []struct {
		files RunsFiles
		want  string
	}{
		{nil, "… and 1,500 more violations: write every run with --out runs.jsonl; then tenet explain runs.jsonl KEY explains one"},
		{RunsFiles{"out.jsonl"}, "… and 1,500 more violations: out.jsonl names every run; tenet explain out.jsonl KEY explains one"},
		{RunsFiles{"my runs.jsonl"}, "… and 1,500 more violations: my runs.jsonl names every run; tenet explain 'my runs.jsonl' KEY explains one"},
		{RunsFiles{"a.jsonl", "it's.jsonl"}, `… and 1,500 more violations: the runs files name every run; tenet explain a.jsonl 'it'\''s.jsonl' KEY explains one`},
		{RunsFiles{"a", "b", "c", "d"}, "… and 1,500 more violations: the 4 runs files name every run; tenet explain RUNSFILE... KEY explains one"},
	} {
		if got := c.files.CutNote(1500, "violations"); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.files, got, c.want)
		}
	}
	if got, want := RunsFiles(nil).CutNote(1, "runs with calls not authorized"), "… and 1 more run with calls not authorized: "; !strings.HasPrefix(got, want) {
		t.Errorf("got %s, want it to start with %s", got, want)
	}
}
