// Package agentdojo_test checks the shipped AgentDojo contracts against
// AgentDojo's own labels on the real transcripts in ../shared/agentdojo
// (read at test time, never copied into the repository).
package agentdojo_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func traces(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 12 {
		t.Fatalf("found %d trace files, want the 12 AgentDojo agents", len(files))
	}
	sort.Strings(files)
	return files
}

// suite describes the expected shape of one AgentDojo suite's runs.
type suite struct {
	name  string // directory under contracts/agentdojo and metadata.suite_name
	tasks int    // user tasks: benign runs and attacked runs per agent
	// unknown is how many runs have an empty transcript: every label of
	// theirs must be unknown (never guessed), and they are the only unknowns.
	unknown int
}

// checkSuite evaluates a suite's contract on the 12 agents' transcripts and
// requires every label of every run with a non-empty transcript to agree
// with AgentDojo's (benign utility, utility under attack, attack success),
// and the runs with empty transcripts to be unknown. It pins the metrics
// table in testdata/<suite>-metrics.golden and returns the judged records.
func checkSuite(t *testing.T, s suite) []runs.Record {
	t.Helper()
	p := evaltest.Program(t, s.name)
	res, err := pipeline.EvalFiles(p, traces(t), pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("bad records: %v", res.Errors)
	}
	want := 12 * 2 * s.tasks
	if got := len(res.Records); got != want {
		t.Errorf("judged %d %s runs, want %d (12 agents × %d tasks × 2)", got, s.name, want, s.tasks)
	}
	if got := res.Skipped[eval.NotSelected]; got != 2328-want {
		t.Errorf("%d records of other suites not selected, want %d", got, 2328-want)
	}
	if res.Headers != 12 {
		t.Errorf("%d header lines, want 12", res.Headers)
	}
	agree, unknown := 0, 0
	for _, a := range tally.Agree(res.Records) {
		for _, row := range a.Rows() {
			agree += row.Agree
			unknown += row.OursUnknown
			if row.Disagree != 0 || row.NotGiven != 0 {
				t.Errorf("%s %s: agree %d, disagree %d, unknown %d, not given %d",
					a.Name(), row.Label, row.Agree, row.Disagree, row.OursUnknown, row.NotGiven)
			}
			for _, d := range row.Disagreements {
				t.Errorf("  %s: ours %v, AgentDojo %v (%s:%d)", d.Key, d.Ours, d.Given, d.OriginFile, d.OriginLine)
			}
			for _, u := range row.Unknowns {
				if !strings.Contains(u.Reason, "the transcript has no messages") {
					t.Errorf("  %s unknown: %s", u.Key, u.Reason)
				}
			}
		}
	}
	labels := 12 * 3 * s.tasks // benign utility, utility under attack, attack success
	unknownLabels := 0
	for _, r := range res.Records {
		if !r.Utility.Known {
			unknownLabels++
		}
		if r.Key.Attacked() && !r.AttackSuccess.Known {
			unknownLabels++
		}
	}
	if unknown != unknownLabels {
		t.Errorf("agreement counts %d unknown labels, the records %d", unknown, unknownLabels)
	}
	emptyRuns := 0
	for _, r := range res.Records {
		if !r.Utility.Known {
			emptyRuns++
		}
	}
	if emptyRuns != s.unknown {
		t.Errorf("%d runs with unknown labels, want %d (the empty transcripts)", emptyRuns, s.unknown)
	}
	if agree+unknown != labels {
		t.Errorf("%d labels agree and %d are unknown, of %d", agree, unknown, labels)
	}
	t.Logf("%s: %d of %d labels agree with AgentDojo, %d unknown (empty transcripts)", s.name, agree, labels, unknown)

	// The metrics themselves are pinned too, so a change in any label or
	// rate shows up as a diff of the golden. Empty transcripts make their
	// labels unknown, so metrics are computed with bounds. The traces hold
	// one injection task of the suite's every goal declared: metrics are
	// over the observed cases (docs/metrics.md, "Observed cases").
	opt := metrics.Options{Cases: metrics.CasesObserved}
	if s.unknown > 0 {
		opt.Unknown = metrics.UnknownBounds
	}
	cs, _ := metrics.Compute(res.Records, map[string]metrics.Declared{p.Bundle.Manifest.Contract: summary.Declared(p.Bundle)}, opt)
	var buf bytes.Buffer
	if err := report.WriteMetrics(&buf, cs); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/"+s.name+"-metrics.golden", buf.Bytes())
	return res.Records
}

// TestBankingConformance: 16 benign utility, 16 utility-under-attack and
// 16 attack-success labels per agent, 576 in all, every one equal.
func TestBankingConformance(t *testing.T) {
	checkSuite(t, suite{name: "banking", tasks: 16})
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
