package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// outputsGolden holds the digests TestAgentDojoOutputsUnchanged compares
// with.
const outputsGolden = "testdata/agentdojo-outputs.txt"

// bundleID is how a bundle id appears in every output: the runs file's
// "bundle" of each run, the report's contract header and the table's,
// whole, and the summary's header, its first 12 hex digits.
var bundleID = regexp.MustCompile(`sha256:[0-9a-f]{12}(?:[0-9a-f]{52})?`)

// TestAgentDojoOutputsUnchanged pins every output of tenet eval of the four
// AgentDojo contracts on the shared data — the traces (JSON report and
// runs file; the table on stdout) and AgentDojo's run files — to sha256
// digests in testdata/agentdojo-outputs.txt, taken before issue 17's
// performance work: that work must not change a byte (issue 17, "every
// output byte-identical to today's"). Bundle ids are masked (each replaced
// by its rank of first appearance in that output), so that a legitimate
// change of the bundle format or of a contract's compiled form does not
// break it; a change of a contract's labels does, as it should (then
// -update, after checking the change against an old binary as
// docs/performance.md's "End to end (issue 17)" says). Heavy tier: the run
// files take about 15 s.
func TestAgentDojoOutputsUnchanged(t *testing.T) {
	testtier.Heavy(t, "tenet eval over the shared AgentDojo traces and 9,036 run files")
	data := filepath.Join(shared.Dir(t), "agentdojo")
	contracts, err := filepath.Abs(filepath.Join("..", "..", "contracts", "agentdojo"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := filepath.Abs(outputsGolden)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// Run from the data folder, the inputs named relative to it, so that
	// the outputs (which name the files as given) do not depend on where
	// the data is.
	t.Chdir(filepath.Join(data, "traces"))
	traces, err := filepath.Glob("*.jsonl")
	if err != nil || len(traces) == 0 {
		t.Fatalf("no transcripts in %s: %v", data, err)
	}
	var got []string
	record := func(name string, b []byte) {
		got = append(got, name+" sha256:"+digest(b))
	}
	evalCase := func(name string, files []string, args ...string) {
		runsPath, reportPath := filepath.Join(out, name+".runs.jsonl"), filepath.Join(out, name+".report.json")
		full := append(append([]string{"eval", contracts}, files...), args...)
		json := slices.Contains(args, "--format") // the JSON cases: a runs file and a report
		if json {
			full = append(full, "--out", runsPath, "--report-out", reportPath)
		}
		var stdout, stderr bytes.Buffer
		code := Main(full, &stdout, &stderr)
		got = append(got, name+" exit "+strconv.Itoa(code))
		if json {
			for _, f := range []struct{ name, path string }{{"runs.jsonl", runsPath}, {"report.json", reportPath}} {
				b, err := os.ReadFile(f.path)
				if err != nil {
					t.Fatalf("%s: exit %d, %v; stderr:\n%s", name, code, err, stderr.String())
				}
				record(name+" "+f.name, b)
			}
		}
		record(name+" stdout", stdout.Bytes())
		record(name+" stderr", stderr.Bytes())
	}
	evalCase("traces", traces, "--unknown=bounds", "--cases", "observed", "--format", "json")
	// --detail is the table the default was before the summary: the same
	// digest.
	evalCase("traces-table", traces, "--unknown=bounds", "--cases", "observed", "--detail")
	evalCase("traces-summary", traces, "--unknown=bounds", "--cases", "observed")
	t.Chdir(data)
	evalCase("runs", []string{"runs"}, "--unknown=bounds", "--format", "json")

	text := "# sha256 of tenet eval's outputs (bundle ids masked) on the shared AgentDojo data:\n" +
		"# go test ./cmd/tenet -run TestAgentDojoOutputsUnchanged -update (with TENET_HEAVY=1)\n" +
		strings.Join(got, "\n") + "\n"
	if *updateScripts {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
	var wantData []string
	for _, l := range wantLines {
		if !strings.HasPrefix(l, "#") {
			wantData = append(wantData, l)
		}
	}
	if len(wantData) != len(got) {
		t.Fatalf("%s has %d entries, the outputs %d:\n%s", outputsGolden, len(wantData), len(got), text)
	}
	for i := range got {
		if got[i] != wantData[i] {
			t.Errorf("changed: %s (was %s)", got[i], wantData[i])
		}
	}
}

// digest is the sha256 of b with every bundle id replaced by its rank of
// first appearance in b ("sha256:<bundle 1>", …).
func digest(b []byte) string {
	rank := map[string]int{}
	masked := bundleID.ReplaceAllFunc(b, func(id []byte) []byte {
		n, ok := rank[string(id)]
		if !ok {
			n = len(rank) + 1
			rank[string(id)] = n
		}
		return []byte(fmt.Sprintf("sha256:<bundle %d>", n))
	})
	sum := sha256.Sum256(masked)
	return hex.EncodeToString(sum[:])
}
