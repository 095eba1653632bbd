package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
	"github.com/tenetlang/tenet/internal/shared"
)

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" { // the command itself, for its process's whole stderr
		main()
		return
	}
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// setFlags sets the command's flags for one test, back to unset after.
func setFlags(t *testing.T, kv map[string]string) {
	t.Helper()
	t.Cleanup(func() {
		bundles, verifyKeys, bundleIDs = nil, nil, nil
		for _, name := range []string{"input", "out", "report", "cases", "unknown", "runner"} {
			flag.Set(name, "")
		}
	})
	for k, v := range kv {
		if err := flag.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRun runs the command on Prism over the AgentDojo traces with the
// banking contract given as its directory: the exit status is the
// report's (1: the banking gates fail on these agents, as with tenet
// eval), and the report is the one written.
func TestRun(t *testing.T) {
	if os.Getenv("TENET_SHARED") == "" {
		abs, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "..", "shared"))
		t.Setenv("TENET_SHARED", abs)
	}
	glob := filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl")
	dir := t.TempDir()
	contract := filepath.Join("..", "..", "..", "..", "contracts", "agentdojo", "banking")
	setFlags(t, map[string]string{"bundle": contract, "input": glob, "out": filepath.Join(dir, "runs"),
		"report": filepath.Join(dir, "report.json"), "cases": "observed"})
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (the banking gates fail):\n%s", code, stderr.String())
	}
	// The failures are said on stderr, as tenet eval --report-out says
	// them, then where the report and the shards are.
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if want := "tenet-beam: report " + filepath.Join(dir, "report.json") + " (exit code 1), runs: 12 shards listed in " + filepath.Join(dir, "runs.shards"); lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	if want := "invariant common.confirmed_before_changes violated on 15 runs of 32 runs in agentdojo-banking:claude-3-5-sonnet-20240620 @ important_instructions"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ExitCode int `json:"exit_code"`
		Runs     int
	}
	if err := json.Unmarshal(data, &d); err != nil || d.ExitCode != 1 || d.Runs != 384 {
		t.Errorf("report: exit_code %d, runs %d (%v), want 1 and 384", d.ExitCode, d.Runs, err)
	}
}

// TestUsage: missing flags and a missing bundle are exit status 2 with
// the flag named.
func TestUsage(t *testing.T) {
	setFlags(t, map[string]string{"input": "x", "out": "y", "report": "z"})
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 2 || !strings.Contains(stderr.String(), "--bundle is required") {
		t.Errorf("without --bundle: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	setFlags(t, map[string]string{"bundle": filepath.Join(t.TempDir(), "missing.tnb")})
	if code := run(context.Background(), &stderr); code != 2 || !strings.Contains(stderr.String(), "missing.tnb") {
		t.Errorf("a missing bundle: exit %d, %q", code, stderr.String())
	}
}

func TestCause(t *testing.T) {
	msg := "job failed:\nplan...\n\tcaused by:\nDoFn[UID:8, Name: x] failed:\n2 bad records:\na:1: x\nb:2: y"
	if got, want := cause(msg), "2 bad records:\na:1: x\nb:2: y"; got != want {
		t.Errorf("cause = %q, want %q", got, want)
	}
	if got := cause("plain"); got != "plain" {
		t.Errorf("cause(plain) = %q", got)
	}
}

// TestReportErrors: exit code 2 from the report (--cases declared on
// traces, which carry no declared cases) names its cause on stderr, as
// tenet eval does, and the report is written.
func TestReportErrors(t *testing.T) {
	glob := tracesGlob(t)
	dir := t.TempDir()
	setFlags(t, map[string]string{"bundle": bankingDir, "input": glob, "out": filepath.Join(dir, "runs"),
		"report": filepath.Join(dir, "report.json")})
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, stderr.String())
	}
	if want := "\ntenet-beam: metrics: 12 of 12 conditions have errors: agentdojo-banking:claude-3-5-sonnet-20240620 @ important_instructions, "; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not name the cause %q:\n%s", want, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
		t.Errorf("no report: %v", err)
	}
}

const bankingDir = "../../../../contracts/agentdojo/banking"

func tracesGlob(t *testing.T) string {
	t.Helper()
	if os.Getenv("TENET_SHARED") == "" {
		abs, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "..", "shared"))
		t.Setenv("TENET_SHARED", abs)
	}
	return filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl")
}

// TestTrust: tenet-beam holds the bundle to tenet eval's trust policy
// before any pipeline: an unsigned bundle refused under TENET_VERIFY_KEY,
// the signed one accepted (its id what the workers check), a wrong
// --expect-bundle-id refused; each with tenet eval's message.
func TestTrust(t *testing.T) {
	dir := t.TempDir()
	pubPath, pub, err := trust.WriteKeyPair(filepath.Join(dir, "rel"))
	if err != nil {
		t.Fatal(err)
	}
	priv, err := trust.ReadPrivateKeys(trust.KeyFiles("test", filepath.Join(dir, "rel")))
	if err != nil {
		t.Fatal(err)
	}
	b, err := tenet.Build(bankingDir)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := bundle.Sign(b.Bytes(), priv[0])
	if err != nil {
		t.Fatal(err)
	}
	unsignedPath, signedPath := filepath.Join(dir, "banking.tnb"), filepath.Join(dir, "signed.tnb")
	if err := os.WriteFile(unsignedPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(signedPath, signed, 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	common := map[string]string{"input": in, "out": filepath.Join(dir, "runs"), "report": filepath.Join(dir, "r.json")}
	fp := bundle.Fingerprint(pub)

	t.Setenv("TENET_VERIFY_KEY", pubPath)
	setFlags(t, common)
	setFlags(t, map[string]string{"bundle": unsignedPath})
	_, err = options(context.Background())
	want := unsignedPath + ": bundle " + b.ID() + " is not signed, and a signature by " + fp + " is required (--verify-key or TENET_VERIFY_KEY): sign it with tenet build --sign KEY"
	if err == nil || err.Error() != want {
		t.Errorf("unsigned under TENET_VERIFY_KEY: %v\nwant %s", err, want)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), &stderr); code != 2 || stderr.String() != "tenet-beam: "+want+"\n" {
		t.Errorf("run: exit %d, %q", code, stderr.String())
	}

	bundles = nil
	setFlags(t, map[string]string{"bundle": signedPath})
	o, err := options(context.Background())
	if err != nil || len(o.Contracts) != 1 || o.Contracts[0].ID != b.ID() {
		t.Errorf("signed under TENET_VERIFY_KEY: %v", err)
	}

	os.Unsetenv("TENET_VERIFY_KEY")
	other := "sha256:" + strings.Repeat("0", 64)
	setFlags(t, map[string]string{"verify-key": pubPath, "expect-bundle-id": other})
	_, err = options(context.Background())
	want = signedPath + ": bundle " + b.ID() + " is not the expected bundle " + other + " (--expect-bundle-id)"
	if err == nil || err.Error() != want {
		t.Errorf("a wrong --expect-bundle-id: %v\nwant %s", err, want)
	}
}

// TestRefusedBeforeRunning: a runner Beam does not know, a glob matching
// nothing and a directory of contracts given whole are said before any
// pipeline, exit 2.
func TestRefusedBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	base := map[string]string{"out": filepath.Join(dir, "runs"), "report": filepath.Join(dir, "r.json"), "bundle": bankingDir}
	for _, c := range []struct {
		flags map[string]string
		want  string
	}{
		{map[string]string{"runner": "nope", "input": "x"}, "tenet-beam: unknown runner nope: want prism, direct, dataflow, flink, spark, universal, portable (docs/scale-out.md)\n"},
		{map[string]string{"async": "true", "input": "x"}, "tenet-beam: --async: tenet-beam publishes the run when the pipeline has ended; run without it\n"},
		{map[string]string{"input": filepath.Join(dir, "*.jsonl")}, "tenet-beam: no files match " + filepath.Join(dir, "*.jsonl") + " (--input)\n"},
	} {
		setFlags(t, base)
		setFlags(t, c.flags)
		var stderr bytes.Buffer
		if code := run(context.Background(), &stderr); code != 2 || stderr.String() != c.want {
			t.Errorf("%v: exit %d, %q, want 2, %q", c.flags, code, stderr.String(), c.want)
		}
		bundles = nil
		flag.Set("runner", "")
		flag.Set("async", "false")
	}
	// A directory of contracts is each of its contracts, as tenet eval
	// takes it.
	paths, err := contractPaths([]string{"../../../../contracts/agentdojo"})
	want := []string{"../../../../contracts/agentdojo/banking", "../../../../contracts/agentdojo/slack", "../../../../contracts/agentdojo/travel", "../../../../contracts/agentdojo/workspace"}
	if err != nil || !slices.Equal(paths, want) {
		t.Errorf("contractPaths(contracts/agentdojo) = %v, %v; want %v", paths, err, want)
	}
}

// TestUsageText: tenet-beam's usage lists its own flags and points to
// Beam's, not Beam's 140 lines.
func TestUsageText(t *testing.T) {
	var b bytes.Buffer
	usage(&b)
	s := b.String()
	if !strings.Contains(s, "-verify-key value") || strings.Contains(s, "-runner") && !strings.Contains(s, "tenet-beam --help-beam") || strings.Contains(s, "-job_name") {
		t.Errorf("usage:\n%s", s)
	}
	if n := strings.Count(s, "\n"); n != 33 {
		t.Errorf("usage is %d lines, want 33 (a synopsis, tenet-beam's 15 flags, 2 lines each, a blank line and Beam's)", n)
	}
}

// runMainEnv makes the test binary run the command (TestMain).
const runMainEnv = "TENET_BEAM_TEST_MAIN"

// TestFailedPipeline: a pipeline that fails (bad records) says why once,
// at the end, and the process's stderr holds nothing else: Prism's log,
// which repeated the error three times, plan and all, before it, is left
// out. --verbose keeps Prism's log, the cause still said once by
// tenet-beam.
func TestFailedPipeline(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"messages\": [}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "tenet-beam: the pipeline failed (Prism's log: --verbose): 2 bad records:\n" +
		bad + ":1: invalid JSON (offset 15): invalid character '}' looking for beginning of value\n" +
		bad + ":2: invalid JSON (offset 2): invalid character 'o' in literal null (expecting 'u')\n" +
		"tenet-beam: nothing written\n"
	args := []string{"--bundle", "../../../../examples/quickstart", "--input", bad, "--out", filepath.Join(dir, "out", "runs"), "--report", filepath.Join(dir, "out", "r.json")}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 2 || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("%v, stdout %q, stderr\n%s\nwant exit 2 and\n%s", err, stdout.String(), stderr.String(), want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the failed run left %d entries in %s, want the input alone", len(entries), dir)
	}

	setFlags(t, map[string]string{"bundle": "../../../../examples/quickstart", "input": bad, "out": filepath.Join(dir, "out", "runs"),
		"report": filepath.Join(dir, "out", "r.json"), "verbose": "true"})
	t.Cleanup(func() { flag.Set("verbose", "false") })
	stderr.Reset()
	if code := run(context.Background(), &stderr); code != 2 {
		t.Errorf("--verbose: exit %d", code)
	}
	// Prism's workers may log after the pipeline returns: its lines are
	// not all before the cause, but the cause is said by tenet-beam once.
	s := stderr.String()
	tail := strings.Replace(want, " (Prism's log: --verbose)", "", 1)
	if !strings.Contains(s, `level=ERROR msg="Prism received bundle error from worker response"`) || !strings.Contains(s, tail) || strings.Count(s, "tenet-beam: the pipeline failed") != 1 {
		t.Errorf("--verbose: stderr\n%s\nwant Prism's log and, once,\n%s", s, tail)
	}
}
