package build

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// marked are Terms whose every field is a marker, so that a refusal shows
// which field it took its words from.
var marked = Terms{
	Transcript: "<transcript>", Header: "<header>", Wants: "<wants>", Convert: "<convert>",
	Response: "<response>", ResponsesItem: "<responses-item>", TopLevel: "<top-level>", Event: "<event %d>",
}

// TestTermsWords: each refusal build writes takes the reader's words from
// its Terms, and the package-level functions (and zero Terms) speak
// openai-messages' words, as they did before Terms.
func TestTermsWords(t *testing.T) {
	call := map[string]any{"name": "f", "args": map[string]any{}}
	cases := []struct {
		name       string
		got        func(Terms) string
		want       string // in marked's words
		wantOpenAI string
	}{
		{"Gemini's parts", func(tm Terms) string {
			return tm.ScanRest(map[string]any{"parts": []any{map[string]any{"functionCall": call}}}, nil, "")
		}, `parts[0].functionCall: a tool call in a place this reader does not read (Gemini's parts? this reader wants <wants>)`,
			`parts[0].functionCall: a tool call in a place this reader does not read (Gemini's parts? this reader wants OpenAI tool_calls and tool messages)`},
		{"a Responses item", func(tm Terms) string {
			return tm.ScanRest(map[string]any{"x": map[string]any{"type": "function_call"}}, nil, "")
		}, `x: an object of type "function_call" in a place this reader does not read (<responses-item>)`,
			`x: an object of type "function_call" in a place this reader does not read (an OpenAI Responses API item? this reader wants Chat Completions messages)`},
		{"no harness known", func(tm Terms) string { return tm.ScanRest(map[string]any{"x": call}, nil, "") },
			`x: a tool call in a place this reader does not read (<convert>)`,
			`x: a tool call in a place this reader does not read (convert the transcript to tool_calls and tool messages)`},
		{"a response beside the request", func(tm Terms) string {
			return tm.TopLevelProblem(map[string]any{"response": map[string]any{"tool_calls": []any{call}}})
		}, `record member response.tool_calls[0]: a tool call in a place this reader does not read (<response>)`,
			`record member response.tool_calls[0]: a tool call in a place this reader does not read (a model response logged beside the request? append its message to "messages")`},
		{"a member beside the transcript", func(tm Terms) string { return tm.TopLevelProblem(map[string]any{"steps": []any{call}}) },
			`record member steps[0]: a tool call in a place this reader does not read (this reader reads calls and messages only under <transcript>)`,
			`record member steps[0]: a tool call in a place this reader does not read (this reader reads calls and messages only under "messages")`},
		{"a declaration with arguments", func(tm Terms) string {
			return tm.TopLevelProblem(map[string]any{"tools": []any{map[string]any{"function": map[string]any{"name": "f", "arguments": "{}"}}}})
		}, `record member tools[0]: a tool call in a place this reader does not read (a tool declaration has no arguments; this reader reads calls only under <transcript>)`,
			`record member tools[0]: a tool call in a place this reader does not read (a tool declaration has no arguments; this reader reads calls only under "messages")`},
		{"a call in a header", func(tm Terms) string {
			return tm.FindTranscript(map[string]any{"out": map[string]any{"function": map[string]any{"name": "f", "arguments": "{}"}}}, []string{"out"})
		},
			`out is a tool call: <top-level>; a header line has <header> and no calls`,
			`out is a tool call: a transcript must be under "messages" at the top level; a header line has no messages and no calls`},
		{"messages in a header", func(tm Terms) string {
			return tm.FindTranscript(map[string]any{"log": []any{map[string]any{"role": "user"}}}, []string{"log"})
		}, `log holds a list of messages (objects with a role): <top-level>; a header line has <header>`,
			`log holds a list of messages (objects with a role): a transcript must be under "messages" at the top level; a header line has no messages`},
		{"a nested transcript", func(tm Terms) string {
			return tm.FindTranscript(map[string]any{"data": map[string]any{"messages": []any{}}}, []string{"data"})
		}, `data.messages: a transcript nested under "data": this reader wants <transcript> at the top level`,
			`data.messages: a transcript nested under "data": this reader wants "messages" at the top level`},
		{"a nested call unread", func(tm Terms) string {
			rn := &run.Run{Calls: []*run.Call{{Event: 2, Index: 0, Tool: "t", Args: map[string]any{"x": map[string]any{"type": "tool_use", "input": map[string]any{}}}}}}
			return tm.Finish(rn)
		}, `<event 2>: call 0 ("t"): `, `message 2: call 0 ("t"): `},
	}
	for _, c := range cases {
		if got := c.got(marked); !strings.HasPrefix(got, c.want) || (!strings.HasSuffix(c.want, " ") && got != c.want) {
			t.Errorf("%s, marked terms:\n got  %s\n want %s", c.name, got, c.want)
		}
		for _, tm := range []Terms{{}, OpenAI} {
			if got := c.got(tm); !strings.HasPrefix(got, c.wantOpenAI) || (!strings.HasSuffix(c.wantOpenAI, " ") && got != c.wantOpenAI) {
				t.Errorf("%s, terms %+v:\n got  %s\n want %s", c.name, tm, got, c.wantOpenAI)
			}
		}
	}
	// The package-level functions are OpenAI's terms.
	rec := map[string]any{"steps": []any{call}}
	if got, want := TopLevelProblem(rec), OpenAI.TopLevelProblem(rec); got != want {
		t.Errorf("TopLevelProblem %q, OpenAI's %q", got, want)
	}
}

// TestTermsOrFillsEveryField: or fills any one empty field with
// OpenAI's, and returns complete terms themselves, uncopied — so that a
// field added to Terms but not to complete is caught here.
func TestTermsOrFillsEveryField(t *testing.T) {
	if got := OpenAI.or(); got != &OpenAI {
		t.Errorf("complete terms were copied")
	}
	v := reflect.ValueOf(OpenAI)
	for i := range v.NumField() {
		c := OpenAI
		reflect.ValueOf(&c).Elem().Field(i).SetString("")
		got := c.or()
		if got == &c || *got != OpenAI {
			t.Errorf("field %s left empty: or gave %+v", v.Type().Field(i).Name, *got)
		}
	}
}
