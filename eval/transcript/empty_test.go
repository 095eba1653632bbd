package transcript

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// compressed is a reader that says it was decompressed, as
// inputs.Decompress's does.
type compressed struct{ io.Reader }

func (compressed) Compression() string { return "gzip" }

// Under auto an empty or blank file is refused as such, with what each
// format makes of it, and content that was decompressed is said to be so
// (review 15: both said only "looks like none of the formats tried").
func TestResolveFormatEmptyAndDecompressed(t *testing.T) {
	const formats = "; anthropic-messages, mcp, openai-messages, openai-responses, otel-genai, tenet read it as no run; agentdojo-run, inspect, tau-bench refuse it: leave it out, or name the format with format = \"...\" in the source or --transcript-format"
	for _, c := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"e.jsonl", strings.NewReader(""), "e.jsonl:1: format auto: the file is empty, so its format cannot be recognised" + formats},
		{"b.jsonl", strings.NewReader("\n \r\n\t\n"), "b.jsonl:1: format auto: the file is blank (white space only), so its format cannot be recognised" + formats},
		{"g.jsonl.gz", compressed{strings.NewReader("\x01\x02 not a transcript")}, `g.jsonl.gz:1: format auto: the file's start, once gzip-decompressed, looks like none of the formats tried (agentdojo-run, anthropic-messages, inspect, mcp, openai-messages, openai-responses, otel-genai, tau-bench, tenet); name the format with format = "..." in the source or --transcript-format`},
	} {
		_, _, err := ResolveFormat(Auto, c.name, c.r)
		if err == nil || err.Error() != c.want || !errors.Is(err, ErrNotRecognised) {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
	// White space before a record is not an empty file.
	if f, _, err := ResolveFormat(Auto, "m.jsonl", strings.NewReader("\n\n"+`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); f != "mcp" || err != nil {
		t.Errorf("leading blank lines: %q, %v", f, err)
	}
}

// A record nested past the JSON decoder's own limit names the limit and
// the flag (review 15: it said "invalid character '{' exceeded max
// depth"), in every reader that decodes with build.DecodeJSON.
func TestDepthLimitNamed(t *testing.T) {
	deep := `{"messages":[],"metadata":` + strings.Repeat(`{"a":`, DefaultMaxDepth) + "1" + strings.Repeat("}", DefaultMaxDepth) + "}"
	_, _, err := Decode("openai-messages", run.Origin{File: "d.jsonl", Line: 2}, []byte(deep))
	want := "d.jsonl:2: record nested deeper than the limit of 10000 levels at offset 50022 (the JSON decoder's own: --max-depth can lower it, not raise it)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// One level less is read.
	ok := `{"messages":[],"metadata":` + strings.Repeat(`{"a":`, DefaultMaxDepth-2) + "1" + strings.Repeat("}", DefaultMaxDepth-2) + "}"
	if _, _, err := Decode("openai-messages", run.Origin{File: "d.jsonl", Line: 2}, []byte(ok)); err != nil {
		t.Errorf("within the limit: %v", err)
	}
}
