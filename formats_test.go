package tenet_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
)

// formatsDir holds one conversation written in every transcript format
// (examples/formats/<format>/transcript.*) and the contract that judges
// them (examples/formats/contract, one source per format).
const formatsDir = "examples/formats"

// partial are the formats that cannot carry the whole conversation, with
// what they lose: their runs are compared on the calls alone.
var partial = map[string]string{
	"mcp": "an MCP session log holds tool calls and results, no system, user or assistant text",
}

// TestOneConversationEveryFormat: the same conversation, written in each
// transcript format, judges to the same run under the same contract —
// labels, invariants and the audit of every call (tool, decision, order).
// Every registered format must have its sample, so a new reader cannot
// skip this check.
func TestOneConversationEveryFormat(t *testing.T) {
	b, err := tenet.Build(filepath.Join(formatsDir, "contract"))
	if err != nil {
		t.Fatal(err)
	}
	var want, wantCalls string
	for _, format := range transcript.Formats() {
		matches, err := filepath.Glob(filepath.Join(formatsDir, format, "transcript.*"))
		if err != nil || len(matches) != 1 {
			t.Errorf("%s: want one %s/%s/transcript.* (the conversation in this format), found %v", format, formatsDir, format, matches)
			continue
		}
		ev, err := b.Evaluate(matches, tenet.EvalOptions{Source: format})
		if err != nil {
			t.Errorf("%s: %v", format, err)
			continue
		}
		if len(ev.Runs) != 1 {
			t.Errorf("%s: %d runs, want 1", format, len(ev.Runs))
			continue
		}
		r := ev.Runs[0]
		got, calls := judged(t, r)
		// What the conversation must judge to, whatever its format: the
		// rent paid (utility, unless the format loses the final answer),
		// the failed read seen as failed, the balance read before the
		// payment, three calls in order, all authorized.
		var tools []string
		for _, a := range r.Audit {
			if a.Decision == runs.Authorized {
				tools = append(tools, a.Tool)
			}
		}
		if !slices.Equal(tools, []string{"get_balance", "read_file", "send_money"}) {
			t.Errorf("%s: authorized calls %v, want get_balance, read_file, send_money", format, tools)
		}
		for _, inv := range []string{"failed_read_seen", "balance_before_send"} {
			if l := r.Invariants[inv]; !l.Known || !l.Value {
				t.Errorf("%s: invariant %s is %+v, want held", format, inv, l)
			}
		}
		if _, ok := partial[format]; !ok && (!r.Utility.Known || !r.Utility.Value) {
			t.Errorf("%s: utility %+v, want true", format, r.Utility)
		}
		if wantCalls == "" {
			wantCalls = calls
		} else if calls != wantCalls {
			t.Errorf("%s: calls\n%s\nwant (as the other formats)\n%s", format, calls, wantCalls)
		}
		if _, ok := partial[format]; ok {
			continue
		}
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s: judged\n%s\nwant (as the other formats)\n%s", format, got, want)
		}
	}
	for format := range partial {
		if !slices.Contains(transcript.Formats(), format) {
			t.Errorf("partial names %s, which is not a transcript format", format)
		}
	}
	entries, err := os.ReadDir(formatsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "contract" && !slices.Contains(transcript.Formats(), e.Name()) {
			t.Errorf("%s/%s names no transcript format", formatsDir, e.Name())
		}
	}
}

// judged renders what a run was judged to, without where it was read:
// its labels and invariants, and separately the audit of its calls.
func judged(t *testing.T, r runs.Record) (labels, calls string) {
	t.Helper()
	l, err := json.Marshal(struct {
		Key        runs.Key
		Utility    runs.Label
		Invariants any
	}{r.Key, r.Utility, r.Invariants})
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.MarshalIndent(r.Audit, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(l), string(c)
}
