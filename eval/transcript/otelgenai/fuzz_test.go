package otelgenai

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// FuzzOtelGenAI frames and decodes arbitrary files: no panic, no hang, and
// a run's calls and events agree (every call's event and result event
// exist).
func FuzzOtelGenAI(f *testing.F) {
	// The samples' lines: kilobytes each. Minimising an interesting
	// mutation of a whole sample file takes the fuzzer a minute (the
	// default -fuzzminimizetime) in which it reports no progress; lines are
	// enough to reach every path.
	for _, name := range []string{"../../../examples/formats/otel-genai/transcript.jsonl", "testdata/no_content.jsonl", "testdata/conversation.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if len(line) < 2500 {
				f.Add([]byte(line))
			}
		}
	}
	f.Add([]byte(otlp(sp("t", 1, `"status":{"code":2}`, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x", "error.type", "E"))))
	f.Add([]byte(otlp(
		sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"c","name":"x","arguments":{"a":1}}],"finish_reason":"tool_call"}]`),
		sp("t", 2, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "x", "gen_ai.tool.call.id", "c", "gen_ai.tool.call.arguments", `{"a":2}`),
		sp("t", 3, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"c","name":"x","arguments":{"a":1}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"c","response":"r"}]}]`),
	) + "\n" + otlp(sp("u", 1, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "y", "gen_ai.conversation.id", "k"))))
	// Trees: a remote parent (by flags, by kind), a missing one, a cycle.
	f.Add([]byte(line(tspan("t", "s", "p", "1", "769", "send_money"), tspan("t", "k", "s", "1", "", "x")) + "\n" +
		line(tspan("u", "s", "p", "2", "", "send_money"), tspan("u", "a", "b", "1", "", "y"), tspan("u", "b", "a", "1", "", "y"))))
	// Real producers' shapes: pydantic-ai's deferred call, its response
	// part {id, name, result} with a member beyond the schema's, an
	// exception event without a status description, OpenLLMetry's
	// indexed attributes.
	f.Add([]byte(otlp(
		sp("t", 1, "", "gen_ai.operation.name", "chat", "gen_ai.output.messages", askTwo),
		sp("t", 2, "", "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "delete_file", "gen_ai.tool.call.id", "p1", "pydantic_ai.tool.deferral.name", "ApprovalRequired"),
		sp("t", 3, `"status":{"code":2},"events":[{"name":"exception","attributes":[{"key":"exception.message","value":{"stringValue":"down"}}]}]`, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "add", "gen_ai.tool.call.id", "p2"),
		sp("t", 4, "", "gen_ai.operation.name", "chat", "gen_ai.input.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"p1","name":"delete_file","arguments":{"path":"a.txt"}},{"type":"tool_call","id":"p2","name":"add","arguments":{"x":1}}]},{"role":"user","parts":[{"type":"tool_call_response","id":"p1","name":"delete_file","result":"denied","builtin":false}]}]`),
	)))
	f.Add([]byte(otlp(sp("t", 1, "", "llm.request.type", "chat", "gen_ai.prompt.0.content", "hi", "gen_ai.completion.0.tool_calls.0.name", "send"))))
	f.Fuzz(func(t *testing.T, data []byte) {
		rr := Frame("f", strings.NewReader(string(data)), frame.Options{MaxRecordBytes: 1 << 16})
		for i := 0; ; i++ {
			if i > 10000 {
				t.Fatal("framer does not end")
			}
			rec, err := rr.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				continue
			}
			rn, _, msg := Decode(rec.Data)
			if msg != "" {
				continue
			}
			for _, c := range rn.Calls {
				if c.Event < 0 || c.Event >= len(rn.Events) || c.ResultEvent >= len(rn.Events) {
					t.Fatalf("call %d: event %d, result event %d of %d events", c.Index, c.Event, c.ResultEvent, len(rn.Events))
				}
			}
		}
	})
}
