package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestAuthorizeAgreesWithEval decides the calls of a real transcript both
// ways — recorded, by tenet eval's offline audit (--out), and pending, by
// tenet authorize, fed each tool call of the transcript as the agent
// emitted it — and checks that the runs agree call by call and that tenet
// report shows the same authorization-audit table for the runs file and
// for the decision log. The seed fixtures hold a call of every decision
// and a nested call.
func TestAuthorizeAgreesWithEval(t *testing.T) {
	tenet, err := exec.LookPath("tenet") // the test binary, installed by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	seed, err := filepath.Abs(filepath.Join("..", "..", "examples", "seed-fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	transcripts := filepath.Join(seed, "transcripts.jsonl")
	dir := t.TempDir()
	run := func(stdin []byte, wantCode int, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(tenet, args...)
		cmd.Dir, cmd.Stdin = dir, bytes.NewReader(stdin)
		cmd.Env = append(os.Environ(), "TENET_TIME=2026-01-02T03:04:05Z")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("tenet %v: exit %d, want %d\n%s", args, code, wantCode, stderr.String())
		}
		return stdout.Bytes()
	}
	// Exit 1: the transcript violates the contract's invariant read_only.
	run(nil, 1, "eval", seed, transcripts, "--out", "runs.jsonl")

	// The pending calls: each tool call of the transcript, in order.
	data, err := os.ReadFile(transcripts)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Messages []struct {
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	var calls bytes.Buffer
	for _, m := range rec.Messages {
		for _, c := range m.ToolCalls {
			calls.Write(c)
			calls.WriteByte('\n')
		}
	}
	// Exit 1: some calls are refused. The condition and session are the
	// transcript's agent and task, so that both give the same run key.
	log := run(calls.Bytes(), 1, "authorize", seed, "--condition", "fixture-agent", "--session", "inspect")
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(log, []byte("\n")); n != 7 {
		t.Fatalf("%d decisions for 7 calls:\n%s", n, log)
	}

	offline, err := runs.ReadFiles(filepath.Join(dir, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	online, err := runs.ReadFilesWith(runs.ReadOptions{Foreign: decisionlog.Foreign}, filepath.Join(dir, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(offline) != 1 || len(online) != 1 {
		t.Fatalf("%d runs offline, %d from the log; want 1 each", len(offline), len(online))
	}
	off, on := offline[0], online[0]
	if on.Key != off.Key || on.Bundle != off.Bundle || on.Grant != off.Grant {
		t.Errorf("run %s bundle %s grant %s from the log; eval's: %s %s %s", on.Key, on.Bundle, on.Grant, off.Key, off.Bundle, off.Grant)
	}
	byCall := func(a []runs.AuditEntry) []runs.AuditEntry {
		a = slices.Clone(a)
		slices.SortFunc(a, func(x, y runs.AuditEntry) int { return x.Call - y.Call })
		return a
	}
	if got, want := byCall(on.Audit), byCall(off.Audit); !reflect.DeepEqual(got, want) {
		t.Errorf("audit from the log:\n%+v\noffline audit:\n%+v", got, want)
	}
	if len(off.Audit) != 8 {
		t.Errorf("offline audit has %d entries, want 8 (7 calls and one nested)", len(off.Audit))
	}

	audit := func(report []byte) string {
		var doc struct{ Audit json.RawMessage }
		if err := json.Unmarshal(report, &doc); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, doc.Audit); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// Exit 1: the runs file records the violated invariant; the log holds no invariants.
	fromRuns := audit(run(nil, 1, "report", "--format", "json", "runs.jsonl"))
	fromLog := audit(run(nil, 0, "report", "--format", "json", "log.jsonl"))
	if fromRuns != fromLog {
		t.Errorf("audit of the runs file:\n%s\naudit of the decision log:\n%s", fromRuns, fromLog)
	}
	if want := `"calls":8,"decisions":{"authorized":1,"missing_resource_capability":3,"schema_fields":1,"schema_types":2,"unregistered_tool":1},"hazards":1`; !bytes.Contains([]byte(fromLog), []byte(want)) {
		t.Errorf("audit of the decision log:\n%s\nwant it to hold %s", fromLog, want)
	}
}
