package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// evalOutputs is everything one tenet eval run produced.
type evalOutputs struct {
	code                  int
	stdout, stderr        string
	runsFile, reportBytes []byte
	runsErr, reportErr    error
}

// runEval runs tenet eval with args, writing the runs file and a report of
// format to dir, and reads them back.
func runEval(t *testing.T, dir, format string, args ...string) evalOutputs {
	t.Helper()
	runsPath, reportPath := filepath.Join(dir, "runs.jsonl"), filepath.Join(dir, "report."+format)
	os.Remove(runsPath)
	os.Remove(reportPath)
	var stdout, stderr bytes.Buffer
	args = append(append([]string{"eval"}, args...), "--out", runsPath, "--format", format, "--report-out", reportPath)
	o := evalOutputs{code: Main(args, &stdout, &stderr), stdout: stdout.String(), stderr: stderr.String()}
	o.runsFile, o.runsErr = os.ReadFile(runsPath)
	o.reportBytes, o.reportErr = os.ReadFile(reportPath)
	return o
}

// TestEvalWorkersDeterministicAgentDojo is the determinism property of the
// parallel evaluation on real data: the AgentDojo contracts (banking; the
// four in the heavy tier, one pass over the 12 agents' transcripts) give
// byte-identical runs files, JSON
// reports (with every metric, violation and the metric errors of the
// declared cases the traces lack), stdout and stderr for 1 to 8 workers, each with the files in a
// different shuffled order (with -short: 1, 2 and 8 workers).
func TestEvalWorkersDeterministicAgentDojo(t *testing.T) {
	traces := filepath.Join(shared.Dir(t), "agentdojo", "traces")
	// The default tier judges with the banking contract; the heavy tier
	// with the four (a collection: one pass, four contracts' runs).
	suite := filepath.Join("..", "..", "contracts", "agentdojo", "banking")
	if testtier.HeavyOn() {
		suite = filepath.Dir(suite)
	}
	contracts, err := filepath.Abs(suite)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	t.Chdir(traces) // the report names the files as given
	files, err := filepath.Glob("*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", traces, err)
	}
	workers := []int{1, 2, 3, 4, 5, 6, 7, 8}
	if testing.Short() || !testtier.HeavyOn() { // the whole sweep is the heavy tier's
		workers = []int{1, 2, 8}
	}
	var base evalOutputs
	for i, w := range workers {
		order := slices.Clone(files)
		if i > 0 {
			rand.New(rand.NewSource(int64(w))).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		args := append([]string{contracts}, order...)
		got := runEval(t, out, "json", append(args, "--workers", strconv.Itoa(w))...)
		if got.runsErr != nil || got.reportErr != nil {
			t.Fatalf("%d workers: exit %d, %v, %v; stderr:\n%s", w, got.code, got.runsErr, got.reportErr, got.stderr)
		}
		if i == 0 {
			// Exit 2: declared security cases lack runs (the traces hold
			// injection_task_3 only: a metric error); the runs file and
			// the report are written all the same.
			if got.code != exitBad || len(got.runsFile) == 0 || !strings.Contains(got.stderr, "violated") {
				t.Fatalf("exit %d, want 2 (a metric error; invariant violations named on stderr); stderr:\n%s", got.code, got.stderr)
			}
			base = got
			continue
		}
		switch {
		case got.code != base.code:
			t.Errorf("%d workers: exit %d, with 1 worker %d", w, got.code, base.code)
		case !bytes.Equal(got.runsFile, base.runsFile):
			t.Errorf("%d workers, files %q: the runs file differs from 1 worker's", w, order)
		case !bytes.Equal(got.reportBytes, base.reportBytes):
			t.Errorf("%d workers, files %q: the JSON report differs from 1 worker's", w, order)
		case got.stdout != base.stdout || got.stderr != base.stderr:
			t.Errorf("%d workers: stdout or stderr differs:\n%s\n%s", w, got.stdout, got.stderr)
		}
	}
}

const tinyContract = `contract "tiny" {}

threat_model {}

task "answer" {
  utility = "output.contains('42')"
}

source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
`

// TestEvalUnopenableFileLeavesNoOut: a transcript that exists but cannot be
// opened (a Unix socket: it passes the input checks, and open fails even as
// root) in the middle of the list ends tenet eval with os.Open's error,
// exit 2, whatever the number of workers; the runs file is not written (an
// old one is left as it was) and no temporary file is left behind.
func TestEvalUnopenableFileLeavesNoOut(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	contract := filepath.Join(in, "tiny")
	if err := os.Mkdir(contract, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(contract, "main.tenet.hcl"), tinyContract)
	var files []string
	for i := range 3 {
		path := filepath.Join(in, fmt.Sprintf("t%d.jsonl", i))
		var b strings.Builder
		for j := range 50 {
			fmt.Fprintf(&b, `{"messages":[{"role":"assistant","content":"42"}],"metadata":{"task":"answer","agent":"a%d-%d"}}`+"\n", i, j)
		}
		write(path, b.String())
		files = append(files, path)
	}
	sock := filepath.Join(in, "sock.jsonl")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("cannot make a Unix socket: %v", err)
	}
	defer l.Close()
	_, openErr := os.Open(sock)
	if openErr == nil {
		t.Skip("a Unix socket can be opened here")
	}
	withSock := []string{files[0], files[1], sock, files[2]}
	for _, w := range []string{"1", "2", "8"} {
		// The good files alone: a runs file.
		got := runEval(t, out, "json", append([]string{contract, "--workers", w}, files...)...)
		if got.code != exitOK || got.runsErr != nil {
			t.Fatalf("%s workers, good files: exit %d, %v; stderr:\n%s", w, got.code, got.runsErr, got.stderr)
		}
		old := filepath.Join(out, "old.jsonl")
		write(old, "old\n")
		for _, runsOut := range []string{filepath.Join(out, "runs.jsonl"), old} {
			os.Remove(filepath.Join(out, "runs.jsonl"))
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"eval", contract}, withSock...), "--workers", w, "--out", runsOut)
			code := Main(args, &stdout, &stderr)
			if code != exitBad || stdout.Len() != 0 || stderr.String() != "tenet eval: "+openErr.Error()+"\n" {
				t.Fatalf("%s workers: exit %d, stdout %q, stderr %q; want exit 2 and %q", w, code, stdout.String(), stderr.String(), openErr)
			}
			if b, err := os.ReadFile(old); err != nil || string(b) != "old\n" {
				t.Fatalf("%s workers: the old runs file now holds %q (%v)", w, b, err)
			}
			entries, _ := os.ReadDir(out)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{"old.jsonl", "report.json"}) {
				t.Fatalf("%s workers: %s holds %q, want only old.jsonl and the earlier report", w, out, names)
			}
		}
	}
}

// TestEvalWorkersFlag: --workers takes 0 (one per CPU) to 1024.
func TestEvalWorkersFlag(t *testing.T) {
	for _, n := range []string{"-1", "1025", "99999999999"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"eval", ".", "x.jsonl", "--workers", n}, &stdout, &stderr)
		if code != exitBad || !strings.HasPrefix(stderr.String(), "tenet eval: --workers "+n+": want 0 (one per CPU) to 1024\n") {
			t.Errorf("--workers %s: exit %d, stderr %q", n, code, stderr.String())
		}
	}
}
