package transcript

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// oneShot is stdin as a reader sees it: read once, no seeking, and short
// reads.
type oneShot struct{ r io.Reader }

func (o *oneShot) Read(p []byte) (int, error) {
	if len(p) > 1000 {
		p = p[:1000]
	}
	return o.r.Read(p)
}

// readAll reads every run of format over r; it returns the runs and the
// error messages, in order.
func readAll(t *testing.T, format string, r io.Reader) (runs int, errs []string) {
	t.Helper()
	rd, err := Open(format, "in", r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return runs, errs
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		runs++
	}
}

const chatLine = `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}` + "\n"

// TestHintPeekKeepsEveryByte: the peek at a file's start (64 KiB) loses
// nothing of a stream read once: a file of 2,000 records (about 170 KiB)
// read through a reader that gives 1,000 bytes a call yields 2,000 runs.
func TestHintPeekKeepsEveryByte(t *testing.T) {
	in := strings.Repeat(chatLine, 2000)
	runs, errs := readAll(t, "openai-messages", &oneShot{strings.NewReader(in)})
	if runs != 2000 || len(errs) != 0 {
		t.Errorf("%d runs, errors %v; want 2000, none", runs, errs)
	}
}

// TestHintFileStart: a JSON document over many lines given to a JSONL
// reader through a one-shot stream is refused once, at line 1 (the JSONL
// framer), and the refusal is judged by the file's start: it names a
// whole-file format that claims it (tau-bench), but not a JSONL format
// whose sniffer claims the start (tenet), whose reader cannot read such a
// file either. Before the framer refused it, each line was an error.
func TestHintFileStart(t *testing.T) {
	const refusal = `in:1: the file is one pretty-printed JSON document (an object over many lines), not JSONL (one record per line): a whole-file format's log, or a record to write on one line, e.g. jq -c . FILE > FILE.jsonl`
	for _, tc := range []struct{ doc, want string }{
		{"{\n  \"tenet_run\": 1,\n  \"events\": []\n}\n", refusal},
		{"{\n  \"info\": {},\n  \"tasks\": [],\n  \"simulations\": []\n}\n",
			refusal + ` (this looks like format "tau-bench": read it with --transcript-format tau-bench, or format = "tau-bench" in the source)`},
	} {
		_, errs := readAll(t, "openai-responses", &oneShot{strings.NewReader(tc.doc)})
		if len(errs) != 1 || errs[0] != tc.want {
			t.Errorf("errors %q\nwant one:\n%s", errs, tc.want)
		}
	}
}

// TestHintNamedOnce: a refusal whose message names the format already
// gains no hint; one that does not gains it once.
func TestHintNamedOnce(t *testing.T) {
	_, _, err := Decode("openai-messages", run.Origin{File: "f", Line: 3}, []byte(`{"tenet_run":1,"events":[]}`))
	if got, want := fmt.Sprint(err), `f:3: no "messages" member, but "tenet_run": a run in tenet's own format (format "tenet")`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_, _, err = Decode("inspect", run.Origin{File: "f", Line: 1}, []byte(`{"tenet_run":1,"events":[]}`))
	if got := fmt.Sprint(err); strings.Count(got, `"tenet"`) != 2 || !strings.HasSuffix(got, `(this looks like format "tenet": read it with --transcript-format tenet, or format = "tenet" in the source)`) {
		t.Errorf("got %s", got)
	}
}

// TestHintHeaderClaimed: a line another format claims is refused with the
// hint rather than skipped as a header line; a header line no format
// claims is skipped as before.
func TestHintHeaderClaimed(t *testing.T) {
	_, skip, err := Decode("anthropic-messages", run.Origin{File: "f", Line: 1}, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	want := `f:1: format anthropic-messages finds no transcript in this record (it would skip it as a header line) (this looks like format "mcp": read it with --transcript-format mcp, or format = "mcp" in the source)`
	if skip || fmt.Sprint(err) != want {
		t.Errorf("skip %v, error %v\nwant %s", skip, err, want)
	}
	_, skip, err = Decode("anthropic-messages", run.Origin{File: "f", Line: 1}, []byte(`{"task":"pay_rent","model":"demo-agent"}`))
	if !skip || err != nil {
		t.Errorf("a header line: skip %v, error %v; want skipped", skip, err)
	}
}

// TestHintOnlyAReader: a record the sniffers give to another format that
// refuses it too is not hinted at it. openai-messages claims this record
// (messages, no Anthropic block type), but it reads no message without a
// role either, so anthropic-messages' refusal stands alone.
func TestHintOnlyAReader(t *testing.T) {
	rec := []byte(`{"messages":[{"content":"x"}]}`)
	if got := foreign("anthropic-messages", rec); len(got) != 1 || got[0] != "openai-messages" {
		t.Fatalf("sniffers claim %v, want openai-messages (the case no longer tests the rule)", got)
	}
	_, _, err := Decode("anthropic-messages", run.Origin{File: "f", Line: 1}, rec)
	if got := fmt.Sprint(err); got != "f:1: message 0: role: missing" {
		t.Errorf("got %v, want a refusal without a hint", err)
	}
}

// TestHintFits: a message of the error limit's length is cut so that the
// hint is read whole; namesFormat reads format names as words.
func TestHintFits(t *testing.T) {
	msg := hinted(strings.Repeat("é", maxErrorMsg), []string{"mcp"})
	e := (&Error{File: "f", Line: 1, Msg: msg}).Error()
	if !strings.HasSuffix(e, `… (this looks like format "mcp": read it with --transcript-format mcp, or format = "mcp" in the source)`) || len(msg) > maxErrorMsg {
		t.Errorf("%d bytes, ends %q", len(msg), e[len(e)-120:])
	}
	if got := hinted("x", []string{"inspect", "tenet"}); got != `x (this looks like format "inspect" or "tenet": name the right one with --transcript-format, or format = "..." in the source)` {
		t.Errorf("two formats: %s", got)
	}
	for msg, want := range map[string]bool{`tenet_run: missing`: false, `format "tenet"`: true, `tenet`: true, `(tenet)`: true, `openai-messages-x`: false, `xmcp`: false} {
		f := "tenet"
		if strings.Contains(msg, "openai") {
			f = "openai-messages"
		} else if strings.Contains(msg, "mcp") {
			f = "mcp"
		}
		if namesFormat(msg, f) != want {
			t.Errorf("namesFormat(%q, %q) = %v", msg, f, !want)
		}
	}
}

// FuzzForeignHint: any file read with any format — framed, decoded, each
// refusal hinted — panics never, reads the same on every call (the hint
// is deterministic), and keeps each error within the limit (a hint
// included).
func FuzzForeignHint(f *testing.F) {
	f.Add([]byte(chatLine), uint8(0))
	f.Add([]byte("{\n  \"tenet_run\": 1,\n  \"events\": []\n}\n"), uint8(4))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"+`{"task":"x"}`), uint8(0))
	f.Add([]byte(`{"resourceSpans":[]}`+"\n"+`{"messages":[{"content":"x"}]}`), uint8(2))
	f.Add([]byte(`[{"traj":[{"role":"user","content":"x"}]}]`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		names := Formats()
		format := names[int(pick)%len(names)]
		read := func() string {
			rd, err := Open(format, "f", strings.NewReader(string(data)), Options{MaxRecordBytes: 1 << 16})
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			for range 10000 {
				_, err := rd.Next()
				if errors.Is(err, io.EOF) {
					return sb.String()
				}
				if err != nil {
					var e *Error
					if !errors.As(err, &e) {
						t.Fatalf("%s: not an *Error: %v", format, err)
					}
					if n := len(err.Error()); n > maxErrorMsg+64 {
						t.Fatalf("%s: an error of %d bytes", format, n)
					}
					sb.WriteString(err.Error() + "\n")
					continue
				}
				sb.WriteString("run\n")
			}
			t.Fatalf("%s: more than 10,000 records from %d bytes", format, len(data))
			return ""
		}
		if a, b := read(), read(); a != b {
			t.Fatalf("%s: two readings differ:\n%s\n---\n%s", format, a, b)
		}
	})
}
