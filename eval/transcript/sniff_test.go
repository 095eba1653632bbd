package transcript

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/agentdojo"
	"github.com/tenetlang/tenet/eval/transcript/anthropic"
	"github.com/tenetlang/tenet/eval/transcript/frame"
	"github.com/tenetlang/tenet/eval/transcript/inspect"
	"github.com/tenetlang/tenet/eval/transcript/mcp"
	"github.com/tenetlang/tenet/eval/transcript/native"
	"github.com/tenetlang/tenet/eval/transcript/openai"
	"github.com/tenetlang/tenet/eval/transcript/otelgenai"
	"github.com/tenetlang/tenet/eval/transcript/responses"
	"github.com/tenetlang/tenet/eval/transcript/taubench"
)

// head is the first frame.SniffBytes of path, as auto sees it.
func head(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b[:min(len(b), frame.SniffBytes)]
}

// TestSniffClaimsItsOwnSample: every registered format has a sample in
// examples/formats/<format>/, and exactly its own sniffer claims it.
func TestSniffClaimsItsOwnSample(t *testing.T) {
	for _, name := range Formats() {
		files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "formats", name, "transcript.*"))
		if len(files) == 0 {
			t.Errorf("format %s has no sample examples/formats/%s/transcript.*", name, name)
			continue
		}
		for _, f := range files {
			if got := Sniff(head(t, f)); !slices.Equal(got, []string{name}) {
				t.Errorf("%s: claimed by %v, want [%s]", f, got, name)
			}
		}
	}
}

// TestSniffCutHead: a head cut inside the first record is still claimed
// by its format.
func TestSniffCutHead(t *testing.T) {
	for _, name := range Formats() {
		files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "formats", name, "transcript.*"))
		for _, f := range files {
			h := head(t, f)
			cut := h[:min(len(h), 900)]
			if got := Sniff(cut); !slices.Equal(got, []string{name}) {
				t.Errorf("%s cut at %d bytes: claimed by %v, want [%s]", f, len(cut), got, name)
			}
		}
	}
}

func TestSniffEachFormat(t *testing.T) {
	cases := []struct {
		head string
		want []string
	}{
		{"PK\x03\x04rest", []string{"inspect"}},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, []string{"mcp"}},
		{`{"resourceSpans":[`, []string{"otel-genai"}},
		{`{"tenet_run": 1, "events": [`, []string{"tenet"}},
		{`[{"task_id": 1, "reward": 1.0, "traj": [{"role": "user"`, []string{"tau-bench"}},
		{`{"info": {}, "simulations": [`, []string{"tau-bench"}},
		{`{"request": {"messages": []}, "response": {"content": []}}`, []string{"anthropic-messages"}},
		{`{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]}]}`, []string{"anthropic-messages"}},
		{`{"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "type": "function"`, []string{"openai-messages"}},
		{`{"object": "response", "output": [`, []string{"openai-responses"}},
		{`{"input": [{"type": "function_call_output", "call_id": "c", "output": "x"}]}`, []string{"openai-responses"}},
		{`{"eval": {"task": "t"}, "version": 2, "samples": [`, []string{"inspect"}},
		// A string that mentions a member is not that member.
		{`{"messages": [{"role": "user", "content": "\"jsonrpc\": \"tenet_run\""}]}`, []string{"openai-messages"}},
		{``, nil},
		{`not json at all`, nil},
		{`{"task": "t", "score": 1}`, nil},
		{`{"jsonrpc": "2.0", "tenet_run": 1}`, []string{"mcp", "tenet"}},
	}
	for _, c := range cases {
		if got := Sniff([]byte(c.head)); !slices.Equal(got, c.want) {
			t.Errorf("Sniff(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}

func TestResolveFormat(t *testing.T) {
	// A named format is kept and nothing is read.
	if f, _, err := ResolveFormat("mcp", "x", strings.NewReader("junk")); f != "mcp" || err != nil {
		t.Errorf("named: %q, %v", f, err)
	}
	// Under auto the reader returned still yields the whole input.
	in := `{"tenet_run": 1, "events": []}` + "\n"
	f, r, err := ResolveFormat("", "t.jsonl", strings.NewReader(in))
	if f != "tenet" || err != nil {
		t.Fatalf("auto: %q, %v", f, err)
	}
	if b, _ := io.ReadAll(r); string(b) != in {
		t.Errorf("auto lost bytes: %q", b)
	}
	// A long file: the head is cut at SniffBytes and all bytes still come through.
	long := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("a", 2*frame.SniffBytes) + `"}}` + "\n"
	f, r, err = ResolveFormat(Auto, "m.jsonl", strings.NewReader(long))
	if f != "mcp" || err != nil {
		t.Fatalf("long: %q, %v", f, err)
	}
	if b, _ := io.ReadAll(r); !bytes.Equal(b, []byte(long)) {
		t.Errorf("long: %d bytes back, want %d", len(b), len(long))
	}
	_, _, err = ResolveFormat(Auto, "n.jsonl", strings.NewReader(`{"task": "t"}`))
	want := `n.jsonl:1: format auto: the file's start looks like none of the formats tried (agentdojo-run, anthropic-messages, inspect, mcp, openai-messages, openai-responses, otel-genai, tau-bench, tenet); name the format with format = "..." in the source or --transcript-format`
	if err == nil || err.Error() != want || !errors.Is(err, ErrNotRecognised) {
		t.Errorf("none: %v\nwant %s", err, want)
	}
	_, _, err = ResolveFormat(Auto, "a.jsonl", strings.NewReader(`{"jsonrpc": "2.0", "resourceSpans": [], "tenet_run": 1}`))
	want = `a.jsonl:1: format auto: ambiguous: mcp, otel-genai or tenet; name the format with format = "..." in the source or --transcript-format`
	if err == nil || err.Error() != want {
		t.Errorf("ambiguous: %v\nwant %s", err, want)
	}
}

func TestCheckFormatAuto(t *testing.T) {
	if err := CheckFormat(Auto); err != nil {
		t.Errorf("CheckFormat(auto) = %v", err)
	}
}

// TestSniffReaderTestdata: the readers' own test samples are claimed by
// exactly their reader too.
func TestSniffReaderTestdata(t *testing.T) {
	dirs := map[string]string{"anthropic": "anthropic-messages", "inspect": "inspect", "native": "tenet",
		"otelgenai": "otel-genai", "responses": "openai-responses", "taubench": "tau-bench",
		"agentdojo": "agentdojo-run"}
	for dir, name := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "testdata", "*"))
		if len(files) == 0 {
			t.Errorf("%s: no testdata", dir)
		}
		for _, f := range files {
			if got := Sniff(head(t, f)); !slices.Equal(got, []string{name}) {
				t.Errorf("%s: claimed by %v, want [%s]", f, got, name)
			}
		}
	}
}

// TestSniffPerPackage: each reader package's Sniff over raw bytes claims
// its own sample and no other format's.
func TestSniffPerPackage(t *testing.T) {
	sniff := map[string]func([]byte) bool{
		"anthropic-messages": anthropic.Sniff, "inspect": inspect.Sniff, "mcp": mcp.Sniff,
		"openai-messages": openai.Sniff, "openai-responses": responses.Sniff, "otel-genai": otelgenai.Sniff,
		"tau-bench": taubench.Sniff, "tenet": native.Sniff,
		"agentdojo-run": agentdojo.Sniff,
	}
	if len(sniff) != len(Formats()) {
		t.Fatalf("%d sniffers here, %d formats registered", len(sniff), len(Formats()))
	}
	for _, sample := range Formats() {
		files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "formats", sample, "transcript.*"))
		for _, f := range files {
			h := head(t, f)
			for name, fn := range sniff {
				if got := fn(h); got != (name == sample) {
					t.Errorf("%s.Sniff(%s) = %v", name, f, got)
				}
			}
		}
	}
}

// FuzzSniff: sniffing never panics and is deterministic, on any head.
func FuzzSniff(f *testing.F) {
	f.Add([]byte(`{"jsonrpc": "2.0", "tenet_run": 1}`))
	f.Add([]byte(`[{"traj": [{"role": "user"}]}]`))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte(`{"request": {"messages": [], "input": [`))
	f.Fuzz(func(t *testing.T, head []byte) {
		if a, b := Sniff(head), Sniff(head); !slices.Equal(a, b) {
			t.Fatalf("%v then %v", a, b)
		}
	})
}
