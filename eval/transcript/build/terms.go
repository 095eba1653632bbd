package build

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/run"
)

// Terms are a reader's own words in the refusals build writes for it:
// where the reader reads a transcript and calls, and how it wants them.
// A refusal is advice to the person who gave the file, so it must speak
// of the format being read, not of openai-messages. A reader passes its
// Terms (a package-level value) to the methods below; the package-level
// functions of the same names use OpenAI, openai-messages' terms. An
// empty field takes OpenAI's.
type Terms struct {
	// Transcript is where a record holds its transcript, as the person
	// would name it: `"messages"`, `"input" and "output"`.
	Transcript string
	// Header says what a header line (a record skipped as no run) lacks,
	// after "a header line has": `no messages`.
	Header string
	// Wants is how the reader wants calls and results, after "this reader
	// wants": "OpenAI tool_calls and tool messages".
	Wants string
	// Convert ends the refusal of a call shape no harness is known for,
	// in parentheses: "convert the transcript to tool_calls and tool
	// messages".
	Convert string
	// Response is the advice for a model response logged beside the
	// request, in parentheses: `a model response logged beside the
	// request? append its message to "messages"`.
	Response string
	// ResponsesItem is the advice for an OpenAI Responses API item where
	// the reader does not read one, in parentheses.
	ResponsesItem string
	// TopLevel says where a transcript must be, a clause: `a transcript
	// must be under "messages" at the top level`.
	TopLevel string
	// Event is the place of the record's event i in a refusal, a format
	// with one %d: "message %d".
	Event string
	// Calls names the structured calls the reader reads, as the person
	// would convert to them: "tool_calls".
	Calls string
}

// OpenAI are openai-messages' terms, the default.
var OpenAI = Terms{
	Transcript:    `"messages"`,
	Header:        "no messages",
	Wants:         "OpenAI tool_calls and tool messages",
	Convert:       "convert the transcript to tool_calls and tool messages",
	Response:      `a model response logged beside the request? append its message to "messages"`,
	ResponsesItem: "an OpenAI Responses API item? this reader wants Chat Completions messages",
	TopLevel:      `a transcript must be under "messages" at the top level`,
	Event:         "message %d",
	Calls:         "tool_calls",
}

// or fills t's empty fields with OpenAI's.
func (t *Terms) or() *Terms {
	if t == nil {
		return &OpenAI
	}
	if t.complete() {
		// Nothing to fill: no copy (eval/authorize reads every pending call
		// through here, and counts its allocations).
		return t
	}
	c := *t
	for _, f := range []struct {
		p *string
		d string
	}{
		{&c.Transcript, OpenAI.Transcript}, {&c.Header, OpenAI.Header}, {&c.Wants, OpenAI.Wants},
		{&c.Convert, OpenAI.Convert}, {&c.Response, OpenAI.Response}, {&c.ResponsesItem, OpenAI.ResponsesItem},
		{&c.TopLevel, OpenAI.TopLevel}, {&c.Event, OpenAI.Event}, {&c.Calls, OpenAI.Calls},
	} {
		if *f.p == "" {
			*f.p = f.d
		}
	}
	return &c
}

// complete reports whether t has every field: or has nothing to fill.
func (t *Terms) complete() bool {
	return t.Transcript != "" && t.Header != "" && t.Wants != "" && t.Convert != "" && t.Response != "" &&
		t.ResponsesItem != "" && t.TopLevel != "" && t.Event != "" && t.Calls != ""
}

// event names event i of a record in t's words.
func (t *Terms) event(i int) string { return fmt.Sprintf(t.Event, i) }

// ScanRest is the package's ScanRest in t's words.
func (t Terms) ScanRest(obj map[string]any, read map[string]bool, prefix string) string {
	return scanRest(t.or(), obj, read, prefix)
}

// TopLevelProblem is the package's TopLevelProblem in t's words.
func (t Terms) TopLevelProblem(rec map[string]any) string { return topLevelProblem(t.or(), rec) }

// FindTranscript is the package's FindTranscript in t's words.
func (t Terms) FindTranscript(rec map[string]any, names []string) string {
	return findTranscript(t.or(), rec, names)
}

// Finish is the package's Finish in t's words.
func (t Terms) Finish(rn *run.Run) string {
	sharedIDs(rn)
	return addNestedCalls(t.or(), rn)
}
