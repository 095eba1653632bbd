package beampipe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init() // a no-op unless the process is a Beam worker
	os.Exit(m.Run())
}

// sharedDir is ../shared next to tenet's module root (this module's root
// is two levels below it), or $TENET_SHARED; the test skips without it
// unless TENET_REQUIRE_SHARED=1.
func sharedDir(t testing.TB) string {
	t.Helper()
	if os.Getenv("TENET_SHARED") == "" {
		abs, err := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("TENET_SHARED", abs)
	}
	return shared.Dir(t)
}

// contractOf is the contract compiled from dir, with its id.
func contractOf(t testing.TB, dir string) Contract {
	t.Helper()
	b, err := tenet.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Contract{Bundle: b.Bytes(), ID: b.ID()}
}

// banking is the AgentDojo banking contract, compiled.
func banking(t testing.TB) []Contract {
	return []Contract{contractOf(t, "../../contracts/agentdojo/banking")}
}

// runBeam runs the pipeline on Prism, in this process, as tenet-beam
// does: under a new run id (unless o has one), then Commit, or Abort
// after a failure.
func runBeam(t testing.TB, o Options) error {
	t.Helper()
	if o.RunID == "" {
		o.RunID = NewRunID()
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := prism.Execute(ctx, p); err != nil {
		if aerr := Abort(ctx, o); aerr != nil {
			t.Errorf("Abort: %v", aerr)
		}
		return err
	}
	_, err := Commit(ctx, o)
	return err
}

// tenetEval is tenet eval over files, in this process: the runs file's
// bytes and the JSON report, with the CLI's defaults for what o leaves
// unset (eval/assemble.Evaluate, as cmd/tenet calls it).
func tenetEval(t testing.TB, o Options, files []string, runsFile string) ([]byte, []byte) {
	t.Helper()
	var progs []*eval.Program
	for _, c := range o.Contracts {
		b, err := tenet.LoadBundle(c.Bundle)
		if err != nil {
			t.Fatal(err)
		}
		p, err := b.Program()
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	var out bytes.Buffer
	ev, err := assemble.Evaluate(assemble.EvalInput{
		Input: assemble.Input{Command: report.CommandEval, Version: compiler.Version, Inputs: files,
			Programs: progs, Metrics: o.metrics(), MaxListed: o.MaxListed, RunsFiles: []string{runsFile}},
		Files:   files,
		Options: pipeline.Options{Source: o.Source, Format: o.Format, Grant: o.Grant, SortBytes: 64 << 20, MaxErrors: 20},
		Runs:    func() (io.Writer, error) { return &out, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var rep bytes.Buffer
	if err := formats.Write(&rep, ev.Document, "json"); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), rep.Bytes()
}

// shardRuns is the pipeline's runs: every shard's lines, concatenated and
// sorted by run key (the shards of distinct conditions hold distinct keys).
func shardRuns(t testing.TB, o Options) ([]byte, []string) {
	t.Helper()
	paths, err := filepath.Glob(o.Out + "-*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no runs shards at %s-*.jsonl (%v)", o.Out, err)
	}
	type line struct {
		key  runs.Key
		text []byte
	}
	var lines []line
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := runs.Read(p, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		texts := bytes.SplitAfter(data, []byte("\n"))
		texts = texts[:len(texts)-1] // after the last newline
		if len(texts) != len(recs) {
			t.Fatalf("%s: %d lines, %d runs", p, len(texts), len(recs))
		}
		for i, r := range recs {
			lines = append(lines, line{r.Key, texts[i]})
		}
	}
	slices.SortFunc(lines, func(a, b line) int { return a.key.Compare(b.key) })
	var all []byte
	for _, l := range lines {
		all = append(all, l.text...)
	}
	return all, paths
}

// differing are the report members that differ by design: "inputs" names
// what was given, the files for tenet eval and the glob for the pipeline.
// Every other member of the JSON report must be byte-identical. (The
// runs files, tenet eval's one and the pipeline's shards, are in the
// Document but not in its JSON.)
var differing = []string{"inputs"}

// compareReports checks the two JSON reports member by member, the
// differing ones against what each must say.
func compareReports(t *testing.T, evalRep, beamRep []byte, files []string, o Options) {
	t.Helper()
	var e, b map[string]json.RawMessage
	if err := json.Unmarshal(evalRep, &e); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(beamRep, &b); err != nil {
		t.Fatal(err)
	}
	want := func(m map[string]json.RawMessage, name, key string, v any) {
		t.Helper()
		got, _ := json.Marshal(json.RawMessage(m[key]))
		exp, _ := json.Marshal(v)
		if !bytes.Equal(got, exp) {
			t.Errorf("%s report %s = %s, want %s", name, key, got, exp)
		}
	}
	want(e, "tenet eval", "inputs", files)
	want(b, "beam", "inputs", []string{o.Input})
	for _, k := range differing {
		delete(e, k)
		delete(b, k)
	}
	for k := range e {
		if _, ok := b[k]; !ok {
			t.Errorf("report member %q: tenet eval's, not the pipeline's", k)
		}
	}
	for k, v := range b {
		if !bytes.Equal(v, e[k]) {
			t.Errorf("report member %q differs:\n tenet eval: %.400s\n beam:       %.400s", k, e[k], v)
		}
	}
}

// agentdojoTraces are the Invariant exports of the 12 AgentDojo agents.
func agentdojoTraces(t *testing.T) (glob string, files []string) {
	t.Helper()
	glob = filepath.Join(sharedDir(t), "agentdojo", "traces", "*.jsonl")
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no AgentDojo traces at %s (%v)", glob, err)
	}
	return glob, files
}

// TestIdentityBanking is the acceptance test of the pipeline: on Prism,
// over the shared AgentDojo traces, with the banking contract and --cases
// observed, the runs (the shards concatenated and sorted by key) are
// tenet eval's runs file byte for byte, and the JSON report is tenet
// eval's but for its inputs.
func TestIdentityBanking(t *testing.T) {
	glob, files := agentdojoTraces(t)
	dir := t.TempDir()
	o := Options{Contracts: banking(t), Input: glob,
		Out: filepath.Join(dir, "runs"), Report: filepath.Join(dir, "report.json"),
		Cases: metrics.CasesObserved, MaxListed: report.DefaultMaxListed}
	if err := runBeam(t, o); err != nil {
		t.Fatal(err)
	}
	wantRuns, wantRep := tenetEval(t, o, files, filepath.Join(dir, "eval.jsonl"))
	gotRuns, shards := shardRuns(t, o)
	if n := bytes.Count(wantRuns, []byte("\n")); n != 384 {
		t.Fatalf("tenet eval judged %d banking runs, want 384 (12 agents × 16 user tasks × 2)", n)
	}
	if len(shards) != 12 {
		t.Errorf("%d shards, want one per agent (12)", len(shards))
	}
	if !bytes.Equal(gotRuns, wantRuns) {
		t.Errorf("the shards' runs (%d bytes) are not tenet eval's runs file (%d bytes)", len(gotRuns), len(wantRuns))
	}
	gotRep, err := os.ReadFile(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	compareReports(t, wantRep, gotRep, files, o)
	if !strings.Contains(string(gotRep), `"command": "eval"`) {
		t.Errorf("the report is not an eval report:\n%.300s", gotRep)
	}
}

// TestIdentityBankingRunFiles is TestIdentityBanking over AgentDojo's own
// run files (format agentdojo-run, one record per file: the whole-file
// path of the pipeline), the banking suite of the 12 agents (heavy tier).
func TestIdentityBankingRunFiles(t *testing.T) {
	testtier.Heavy(t, "the banking run files of 12 agents")
	glob := filepath.Join(sharedDir(t), "agentdojo", "runs", "*", "banking", "*", "*", "*.json")
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no AgentDojo run files at %s (%v)", glob, err)
	}
	dir := t.TempDir()
	o := Options{Contracts: banking(t), Input: glob,
		Out: filepath.Join(dir, "runs"), Report: filepath.Join(dir, "report.json"),
		Cases: metrics.CasesObserved, MaxListed: report.DefaultMaxListed}
	if err := runBeam(t, o); err != nil {
		t.Fatal(err)
	}
	wantRuns, wantRep := tenetEval(t, o, files, filepath.Join(dir, "eval.jsonl"))
	gotRuns, _ := shardRuns(t, o)
	if n := bytes.Count(wantRuns, []byte("\n")); n != len(files) {
		t.Errorf("tenet eval judged %d runs of %d run files", n, len(files))
	}
	if !bytes.Equal(gotRuns, wantRuns) {
		t.Errorf("the shards' runs (%d bytes) are not tenet eval's runs file (%d bytes)", len(gotRuns), len(wantRuns))
	}
	gotRep, err := os.ReadFile(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	compareReports(t, wantRep, gotRep, files, o)
}

// TestBadRecords: a record that is not JSON and a duplicate run fail the
// pipeline as they fail tenet eval, each named by tenet eval's words, and
// no report is written.
func TestBadRecords(t *testing.T) {
	_, files := agentdojoTraces(t)
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var line []byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"suite_name": "banking"`)) || bytes.Contains(l, []byte(`"suite_name":"banking"`)) {
			line = l
			break
		}
	}
	if line == nil {
		t.Fatalf("no banking record in %s", files[0])
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(a, append(append([]byte{}, line...), "\n{not json\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, append(append([]byte{}, line...), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	// Both bad records named, then only the first (tenet eval's bound,
	// pipeline.Options.MaxErrors, and the pipeline's MaxBadRecords set
	// alike) and a count.
	for _, max := range []int{0, 1} {
		o := Options{Contracts: banking(t), Input: filepath.Join(dir, "*.jsonl"), MaxBadRecords: max,
			Out: filepath.Join(dir, "runs"), Report: filepath.Join(dir, "report.json"), Cases: metrics.CasesObserved}
		berr := runBeam(t, o)
		if berr == nil {
			t.Fatal("the pipeline accepted a record that is not JSON and a duplicate run")
		}
		bn, _ := tenet.LoadBundle(o.Contracts[0].Bundle)
		p, _ := bn.Program()
		_, err = assemble.Evaluate(assemble.EvalInput{Input: assemble.Input{Command: report.CommandEval, Programs: []*eval.Program{p}, Metrics: o.metrics()},
			Files: []string{a, b}, Options: pipeline.Options{MaxErrors: max}})
		var bad *assemble.BadRecordsError
		if !errors.As(err, &bad) || bad.N != 2 || len(bad.Lines) != 2 {
			t.Fatalf("tenet eval (max %d): %v, want 2 bad records in 2 lines", max, err)
		}
		want := (&BadRecordsError{N: bad.N, Lines: bad.Lines}).Error()
		if !strings.Contains(berr.Error(), want) {
			t.Errorf("max %d: the pipeline's error does not hold tenet eval's bad records\n%s\ngot: %v", max, want, berr)
		}
		if _, err := os.Stat(o.Report); !os.IsNotExist(err) {
			t.Errorf("a report was written despite bad records (%v)", err)
		}
	}
}

// TestIdentityCollection is TestIdentityBanking with the four AgentDojo
// contracts (contracts/agentdojo: banking, slack, travel, workspace) as
// one collection, as tenet eval judges a directory of contracts: each
// record judged by every contract, the report's leaderboard over them,
// the records no contract selects counted once.
func TestIdentityCollection(t *testing.T) {
	glob, files := agentdojoTraces(t)
	identityCollection(t, glob, files, 4*12)
}

// TestIdentityCollectionRunFiles is TestIdentityCollection over every
// AgentDojo run file of the 12 agents (four suites; heavy tier).
func TestIdentityCollectionRunFiles(t *testing.T) {
	testtier.Heavy(t, "every AgentDojo run file of 12 agents, four contracts")
	glob := filepath.Join(sharedDir(t), "agentdojo", "runs", "*", "*", "*", "*", "*.json")
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no AgentDojo run files at %s (%v)", glob, err)
	}
	identityCollection(t, glob, files, 4*12)
}

func identityCollection(t *testing.T, glob string, files []string, nshards int) {
	t.Helper()
	var cs []Contract
	for _, name := range []string{"banking", "slack", "travel", "workspace"} {
		cs = append(cs, contractOf(t, "../../contracts/agentdojo/"+name))
	}
	dir := t.TempDir()
	o := Options{Contracts: cs, Input: glob, Out: filepath.Join(dir, "runs"), Report: filepath.Join(dir, "report.json"),
		Cases: metrics.CasesObserved, MaxListed: report.DefaultMaxListed}
	if err := runBeam(t, o); err != nil {
		t.Fatal(err)
	}
	wantRuns, wantRep := tenetEval(t, o, files, filepath.Join(dir, "eval.jsonl"))
	gotRuns, shards := shardRuns(t, o)
	if len(shards) != nshards {
		t.Errorf("%d shards, want one per contract and agent (%d)", len(shards), nshards)
	}
	if !bytes.Equal(gotRuns, wantRuns) {
		t.Errorf("the shards' runs (%d bytes) are not tenet eval's runs file (%d bytes)", len(gotRuns), len(wantRuns))
	}
	gotRep, err := os.ReadFile(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	compareReports(t, wantRep, gotRep, files, o)
	var d struct {
		Contracts   []struct{ Judged int }
		Leaderboard []json.RawMessage
	}
	if err := json.Unmarshal(gotRep, &d); err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, c := range d.Contracts {
		judged += c.Judged
	}
	if len(d.Contracts) != 4 || judged != bytes.Count(wantRuns, []byte("\n")) || len(d.Leaderboard) == 0 {
		t.Errorf("report: %d contracts, %d runs judged (runs file: %d), %d leaderboard rows", len(d.Contracts), judged, bytes.Count(wantRuns, []byte("\n")), len(d.Leaderboard))
	}
}
