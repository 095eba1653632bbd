package otelgenai

import (
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// tspan is a span of trace tr with an id, a parent (may be ""), a kind and
// flags (JSON text, "" for none), and an execute_tool of tool when tool is
// not "".
func tspan(tr, id, parent, kind, flags, tool string) string {
	s := `{"traceId":"` + tr + `","spanId":"` + id + `","name":"` + id + `","startTimeUnixNano":"1","endTimeUnixNano":"2"`
	if parent != "" {
		s += `,"parentSpanId":"` + parent + `"`
	}
	if kind != "" {
		s += `,"kind":` + kind
	}
	if flags != "" {
		s += `,"flags":` + flags
	}
	if tool != "" {
		s += `,"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"` + tool + `"}}]`
	}
	return s + "}"
}

func line(spans ...string) string {
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}`
}

const cutMsg = `which is not among the spans of trace "t": the trace is cut (the exporter rotated the file, or its batches went to different files), and judging part of a run as the whole could read a call as never made. otel-genai groups spans by trace within one file, not across files: give all of a trace's spans in one file (concatenate the files: cat a.jsonl b.jsonl > all.jsonl). A parent exported by another service is accepted when the span's flags mark it remote (0x300) or its kind is SERVER or CONSUMER`

// TestMissingParent: the tool spans of a trace whose root is not in the
// file are not a run: the error is at the line of the first span whose
// parent is missing (line 2 here, not the run's first line), naming it,
// its parent and the cause. Before this rule the file was judged as a run
// with one call.
func TestMissingParent(t *testing.T) {
	data := line(tspan("t", "r", "", "1", "", ""), tspan("t", "c1", "r", "1", "", "get_balance")) + "\n" +
		line(tspan("t", "c2", "gone", "1", "1", "send_money")) + "\n"
	got := readAll(t, "f.jsonl", data, frame.Options{})
	want := `error f.jsonl:2: span "c2" ("c2") names parent span "gone", ` + cutMsg + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Decode, given the record on its own, refuses it too.
	if msg := decodeOne(t, line(tspan("t", "c2", "gone", "1", "1", "send_money"))); msg != `span "c2" ("c2") names parent span "gone", `+cutMsg {
		t.Errorf("decode: %s", msg)
	}
}

// TestCanonicalCut: the canonical transcript without its last line (the
// root invoke_agent span and the last chat span) is refused at line 1.
func TestCanonicalCut(t *testing.T) {
	data, err := os.ReadFile("../../../examples/formats/otel-genai/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	got := readAll(t, "transcript.jsonl", lines[0]+lines[1], frame.Options{})
	want := `error transcript.jsonl:1: span "c000000000000001" ("chat demo-agent") names parent span "a000000000000001", which is not among the spans of trace "4bf92f3577b34da6a3ce929d0e0e4736"`
	if !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("got\n%s\nwant prefix\n%s", got, want)
	}
}

// TestRemoteParent: a missing parent is accepted only when the flags mark
// it remote, or (flags silent on it) the span is SERVER or CONSUMER.
func TestRemoteParent(t *testing.T) {
	for _, tc := range []struct {
		name, kind, flags string
		ok                bool
	}{
		{"flags: remote", "1", "769", true}, // 0x301
		{"flags: remote, as a string", "1", `"769"`, true},
		{"server, flags silent", "2", "1", true},
		{"consumer, flags silent", "5", "", true},
		{"server as the enum name", `"SPAN_KIND_SERVER"`, "", true},
		{"server, flags: local", "2", "257", false}, // 0x101: parent known local
		{"internal, flags silent", "1", "1", false},
		{"client, no flags", "3", "", false},
		{"no kind, no flags", "", "", false},
		{"remote bit without has-is-remote", "1", "513", false}, // 0x201
	} {
		msg := decodeOne(t, line(tspan("t", "s", "p", tc.kind, tc.flags, "send_money"), tspan("t", "k", "s", "1", "", "x")))
		want := ""
		if !tc.ok {
			want = `span "s" ("s") names parent span "p", ` + cutMsg
		}
		if msg != want {
			t.Errorf("%s: got %q, want %q", tc.name, msg, want)
		}
	}
}

// TestTreeShapes: two roots, a reused span id, a cycle are refused; ids
// are compared case-insensitively (OTLP/JSON hex), also by the framer's
// grouping by trace.
func TestTreeShapes(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"two roots", line(tspan("t", "a", "", "1", "", "x"), tspan("t", "b", "", "1", "", "y")),
			`span "b" ("b") is a second root span (no parentSpanId) of trace "t", beside "a" ("a"): a trace has one root; spans of different runs may share a trace id`},
		{"span twice", line(tspan("t", "r", "", "1", "", ""), tspan("t", "a", "r", "1", "", "x"), tspan("t", "a", "r", "1", "", "x")),
			`span "a" ("a") has the id of span "a" ("a") of the same trace: the span was exported twice (an export concatenated with itself?) or span ids are reused; a trace's span ids are unique`},
		{"cycle", line(tspan("t", "r", "", "1", "", ""), tspan("t", "a", "b", "1", "", "x"), tspan("t", "b", "a", "1", "", "y")),
			`span "a" ("a") is its own ancestor (its parents form a cycle): the spans do not form a trace`},
		{"own parent", line(tspan("t", "r", "", "1", "", ""), tspan("t", "a", "a", "2", "", "x")),
			`span "a" ("a") is its own ancestor (its parents form a cycle): the spans do not form a trace`},
		{"case", line(tspan("T", "AB", "", "1", "", ""), tspan("t", "c", "ab", "1", "", "x")), ""},
		{"zero parent is none", line(tspan("t", "r", "0000000000000000", "1", "", ""), tspan("t", "c", "r", "1", "", "x")), ""},
		{"two roots, one with a zero parent", line(tspan("t", "a", "0000000000000000", "1", "", ""), tspan("t", "b", "", "1", "", "x")),
			`span "b" ("b") is a second root span (no parentSpanId) of trace "t", beside "a" ("a"): a trace has one root; spans of different runs may share a trace id`},
	} {
		if got := decodeOne(t, tc.line); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	data := line(tspan("ABC", "c", "r", "1", "", "x")) + "\n" + line(tspan("abc", "r", "", "1", "", "")) + "\n"
	got := readAll(t, "f.jsonl", data, frame.Options{})
	if !strings.HasPrefix(got, "run at line 1\n") || !strings.Contains(got, `"trace_ids":["abc"]`) || strings.Count(got, "\ncall ") != 1 {
		t.Errorf("upper and lower case trace ids:\n%s", got)
	}
}

// TestConversationTraceCut: a conversation joins traces into one run, and
// each must be whole: the conversation sample without the root span of its
// first trace (the HTTP server span, the last of the file) is refused at line 1.
func TestConversationTraceCut(t *testing.T) {
	data, err := os.ReadFile("testdata/conversation.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, `,{"scope":{"name":"opentelemetry.instrumentation.fastapi"`)
	if i < 0 {
		t.Fatal("sample changed: no HTTP server span on line 3")
	}
	got := readAll(t, "c.jsonl", s[:i]+"]}]}\n", frame.Options{})
	want := `error c.jsonl:1: span "3000000000000001" ("chat claude-sonnet-4") names parent span "3000000000000000", which is not among the spans of trace "5b8efff798038103d269b633813fc60c"`
	if !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 1 {
		t.Errorf("got\n%s\nwant prefix\n%s", got, want)
	}
}

// TestNotEnded: a span without an end time was exported in progress; its
// run is refused, not judged as it stood.
func TestNotEnded(t *testing.T) {
	span := tspan("t", "r", "", "1", "", "send_money")
	for _, tc := range []struct{ name, span, want string }{
		{"missing", strings.Replace(span, `,"endTimeUnixNano":"2"`, "", 1),
			`resourceSpans[0].scopeSpans[0].spans[0]: endTimeUnixNano: missing: the span had not ended when it was exported, so its run may not be over; tenet judges whole runs only`},
		{"zero", strings.Replace(span, `"endTimeUnixNano":"2"`, `"endTimeUnixNano":"0"`, 1),
			`resourceSpans[0].scopeSpans[0].spans[0]: endTimeUnixNano: 0: the span had not ended when it was exported, so its run may not be over; tenet judges whole runs only`},
		{"bad", strings.Replace(span, `"endTimeUnixNano":"2"`, `"endTimeUnixNano":"x"`, 1),
			`resourceSpans[0].scopeSpans[0].spans[0]: endTimeUnixNano: want a decimal string of nanoseconds, got "x"`},
	} {
		if got := decodeOne(t, line(tc.span)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
