package openai

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestMaxDepth: with Options.MaxDepth below the decoder's limit, a record
// nested deeper is an *Error for that record, and the reader carries on.
// Brackets inside strings, escaped quotes included, do not count.
func TestMaxDepth(t *testing.T) {
	msgs := func(content string) string {
		return `{"messages": [{"role": "user", "content": ` + content + `}]}`
	}
	// Each record nests 3 levels: object, messages list, message object;
	// the fourth line one more (a list as content).
	lines := []string{
		msgs(`"[[[[{{{{"`),                      // brackets inside a string
		msgs(`"a \" [[[[ \\"`),                  // an escaped quote, then an escaped backslash before the closing quote
		msgs(`"\\\" [[[ {{ \" ]]"`),             // escapes next to each other
		msgs(`[{"type": "text", "text": "x"}]`), // 5 levels
		msgs(`"ok"`),
	}
	input := strings.Join(lines, "\n") + "\n"
	read := func(max int) []string {
		rd, err := Open("openai-messages", "t.jsonl", strings.NewReader(input), Options{MaxDepth: max})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for {
			_, err := rd.Next()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				out = append(out, err.Error())
				continue
			}
			out = append(out, "ok")
		}
	}
	want := []string{"ok", "ok", "ok", "t.jsonl:4: record nested deeper than the limit of 3 levels (raise it with --max-depth)", "ok"}
	if got := read(3); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("MaxDepth 3:\ngot  %q\nwant %q", got, want)
	}
	for _, max := range []int{0, 5, DefaultMaxDepth, DefaultMaxDepth + 1} {
		for i, got := range read(max) {
			if got != "ok" {
				t.Errorf("MaxDepth %d: record %d: %s", max, i+1, got)
			}
		}
	}
}

// TestNestedTooDeep: calls nested down to depth 16 are extracted; a call at
// depth 16 that still carries a call gets an ArgsError saying so, so that
// the audit does not pass over it. One at depth 16 that carries none keeps
// an empty ArgsError.
func TestNestedTooDeep(t *testing.T) {
	nest := func(levels int) string {
		args := `{"body": "x"}`
		for i := 0; i < levels; i++ {
			args = `{"body": {"function": "send", "args": ` + args + `}}`
		}
		return `{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "search", "arguments": ` + args + `}}]}]}`
	}
	for _, c := range []struct {
		levels  int
		argsErr string // of the deepest extracted call
	}{
		{16, ""},
		{17, "nested calls deeper than 16 levels are not followed"},
		{20, "nested calls deeper than 16 levels are not followed"},
	} {
		rd, err := Open("openai-messages", "t.jsonl", strings.NewReader(nest(c.levels)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rn, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(rn.Calls) != 17 {
			t.Fatalf("%d levels: %d calls, want 17", c.levels, len(rn.Calls))
		}
		for _, call := range rn.Calls {
			want := ""
			if call.Depth == 16 {
				want = c.argsErr
			}
			if call.ArgsError != want {
				t.Errorf("%d levels: call %d (depth %d): ArgsError %q, want %q", c.levels, call.Index, call.Depth, call.ArgsError, want)
			}
		}
	}
}
