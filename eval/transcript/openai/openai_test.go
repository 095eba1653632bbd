package openai

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// readAll reads every record of an openai-messages input, collecting runs and
// error texts (checking that every error is an *Error).
func readAll(t *testing.T, input string, opt Options) (runs []*run.Run, errs []string, skipped int) {
	t.Helper()
	r, err := Open("openai-messages", "t.jsonl", strings.NewReader(input), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if i > 1000 {
			t.Fatal("reader does not reach io.EOF")
		}
		rn, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if rn != nil {
				t.Fatalf("error %v came with a run", err)
			}
			errs = append(errs, err.Error())
			continue
		}
		runs = append(runs, rn)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("Next after io.EOF = %v, want io.EOF", err)
	}
	return runs, errs, r.Skipped()
}

// readOne reads an input holding exactly one run and no errors.
func readOne(t *testing.T, input string) *run.Run {
	t.Helper()
	runs, errs, _ := readAll(t, input, Options{})
	if len(errs) > 0 || len(runs) != 1 {
		t.Fatalf("got %d runs, errors %q; want 1 run, no errors", len(runs), errs)
	}
	return runs[0]
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

func checkEvents(t *testing.T, got []*run.Event, want []run.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d events, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		check(t, fmt.Sprint("event ", i), *got[i], want[i])
	}
}

func checkCalls(t *testing.T, got []*run.Call, want []run.Call) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d calls, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		check(t, fmt.Sprint("call ", i), *got[i], want[i])
	}
}

func TestContent(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "system", "content": "be nice"},`+
		`{"role": "user", "content": null},`+
		`{"role": "user"},`+
		`{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "u"}}, "bare", {"text": 3}, {"type": "text", "text": "b"}]},`+
		`{"role": "assistant", "content": [{"type": "image"}]},`+
		`{"role": "assistant", "content": []}`+
		`], "metadata": {"n": 1, "s": "x"}, "index": 7}`))
	blocks := []any{
		map[string]any{"type": "text", "text": "a"},
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": "u"}},
		"bare",
		map[string]any{"text": float64(3)},
		map[string]any{"type": "text", "text": "b"},
	}
	checkEvents(t, rn.Events, []run.Event{
		{Index: 0, Role: "system", Content: "be nice"},
		{Index: 1, Role: "user"},
		{Index: 2, Role: "user"},
		{Index: 3, Role: "assistant", Content: "a\nb", Blocks: blocks},
		{Index: 4, Role: "assistant", Blocks: []any{map[string]any{"type": "image"}}},
		{Index: 5, Role: "assistant", Blocks: []any{}},
	})
	check(t, "Meta", rn.Meta, map[string]any{"n": float64(1), "s": "x"})
	check(t, "Record[index]", rn.Record["index"], float64(7))
	check(t, "Origin", rn.Origin, run.Origin{File: "t.jsonl", Line: 1})
	check(t, "Output", rn.Output, "") // last assistant message has no text
	if len(rn.Calls) != 0 {
		t.Errorf("calls = %d, want 0", len(rn.Calls))
	}
}

func TestMetaAndOutput(t *testing.T) {
	runs, errs, _ := readAll(t, lines(
		`{"messages": []}`,
		`{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}], "metadata": null}`,
		`{"messages": [{"role": "assistant", "content": "first"}, {"role": "user", "content": "more"}]}`,
		`{"messages": [{"role": "assistant", "content": [{"type": "text", "text": "from blocks"}]}]}`,
	), Options{})
	check(t, "errors", errs, []string(nil))
	if len(runs) != 4 {
		t.Fatalf("got %d runs, want 4", len(runs))
	}
	check(t, "run 0 Meta", runs[0].Meta, map[string]any{})
	check(t, "run 0 Events", len(runs[0].Events), 0)
	check(t, "run 0 Output", runs[0].Output, "")
	check(t, "run 1 Meta", runs[1].Meta, map[string]any{})
	check(t, "run 1 Output", runs[1].Output, "hello")
	check(t, "run 2 Output", runs[2].Output, "") // earlier assistant text does not count
	check(t, "run 3 Output", runs[3].Output, "from blocks")
	check(t, "run 3 Origin", runs[3].Origin, run.Origin{File: "t.jsonl", Line: 4})
}

func TestArguments(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [{"role": "assistant", "content": null, "tool_calls": [`+
		`{"id": "1", "type": "function", "function": {"name": "obj", "arguments": {"a": 1, "b": [true, null], "c": {"d": "e"}}}},`+
		`{"id": "2", "type": "function", "function": {"name": "str", "arguments": "{\"a\": 1.5, \"b\": \"x\"}"}},`+
		`{"id": "3", "type": "function", "function": {"name": "bad", "arguments": "{\"a\": 1"}},`+
		`{"id": "4", "type": "function", "function": {"name": "nul", "arguments": null}},`+
		`{"id": "5", "type": "function", "function": {"name": "absent"}},`+
		`{"id": "6", "type": "function", "function": {"name": "list", "arguments": "[1, 2]"}},`+
		`{"id": "7", "type": "function", "function": {"name": "num", "arguments": 42}},`+
		`{"id": "8", "type": "function", "function": {"name": "empty", "arguments": ""}},`+
		`{"id": null, "function": {"name": "noid", "arguments": "{}"}}`+
		`]}]}`))
	none := map[string]any{}
	call := func(i int, id, tool string, args map[string]any, argsErr string) run.Call {
		return run.Call{Index: i, Event: 0, ID: id, Tool: tool, Args: args, ArgsError: argsErr, ResultEvent: -1, Parent: -1}
	}
	checkCalls(t, rn.Calls, []run.Call{
		call(0, "1", "obj", map[string]any{"a": float64(1), "b": []any{true, nil}, "c": map[string]any{"d": "e"}}, ""),
		call(1, "2", "str", map[string]any{"a": 1.5, "b": "x"}, ""),
		call(2, "3", "bad", none, "arguments: invalid JSON: unexpected end of JSON input"),
		call(3, "4", "nul", none, ""),
		call(4, "5", "absent", none, ""),
		call(5, "6", "list", none, "arguments: JSON string holds a list, want an object"),
		call(6, "7", "num", none, "arguments: want an object or a JSON string holding one, got a number"),
		call(7, "8", "empty", none, "arguments: invalid JSON: unexpected end of JSON input"),
		call(8, "", "noid", none, ""),
	})
	check(t, "Event.Calls", rn.Events[0].Calls, []int{0, 1, 2, 3, 4, 5, 6, 7, 8})
}

func TestMatchEmptyIDsByName(t *testing.T) {
	// No ids (command-r, Gemini): results match by tool name, else in order.
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "user", "content": "go"},`+
		`{"role": "assistant", "content": "", "tool_calls": [`+
		`{"id": "", "type": "function", "function": {"name": "read", "arguments": {"f": "a"}}},`+
		`{"id": "", "type": "function", "function": {"name": "send", "arguments": {"to": "x"}}},`+
		`{"id": "", "type": "function", "function": {"name": "read", "arguments": {"f": "b"}}},`+
		`{"id": "", "type": "function", "function": {"name": "other", "arguments": {}}}]},`+
		`{"role": "tool", "content": "sent", "tool_call_id": "", "tool_call": {"function": "send", "args": {"to": "x"}, "id": ""}, "error": null},`+
		`{"role": "tool", "content": "A", "tool_call_id": null, "tool_call": {"function": "read", "args": {"f": "a"}}, "error": null},`+
		`{"role": "tool", "content": "mystery", "tool_call_id": null},`+
		`{"role": "tool", "content": "B", "tool_call": {"function": "read", "args": {"f": "b"}}},`+
		`{"role": "assistant", "content": "done"}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 1, Tool: "read", Args: map[string]any{"f": "a"}, Ok: true, Result: "A", ResultEvent: 3, Parent: -1},
		{Index: 1, Event: 1, Tool: "send", Args: map[string]any{"to": "x"}, Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
		// "mystery" has no tool name: it takes the first unanswered call.
		{Index: 2, Event: 1, Tool: "read", Args: map[string]any{"f": "b"}, Ok: true, Result: "mystery", ResultEvent: 4, Parent: -1},
		// so "B", a read, finds no unanswered read and takes the first left.
		{Index: 3, Event: 1, Tool: "read", Args: map[string]any{"f": "b"}, Ok: true, Result: "B", ResultEvent: 5, Parent: -1,
			RequestedTool: "other", RequestedArgs: map[string]any{}, Mismatch: `tool "read" ran, "other" was requested; other arguments ran than were requested`},
	})
	checkEvents(t, rn.Events[2:6], []run.Event{
		{Index: 2, Role: "tool", Content: "sent", Tool: "send"},
		{Index: 3, Role: "tool", Content: "A", Tool: "read"},
		{Index: 4, Role: "tool", Content: "mystery", Tool: "read"},
		{Index: 5, Role: "tool", Content: "B", Tool: "read"},
	})
	check(t, "Output", rn.Output, "done")
}

func TestMatchRepeatedIDs(t *testing.T) {
	// Ids reused across turns match the one unanswered call with that id;
	// an id shared by two unanswered calls falls back to the tool name; an
	// unknown id without a tool name takes the first unanswered call.
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "x", "function": {"name": "a", "arguments": {}}}]},`+
		`{"role": "tool", "content": "r0", "tool_call_id": "x", "tool_call": {"function": "a", "args": {}, "id": "x"}},`+
		`{"role": "assistant", "content": null, "tool_calls": [`+
		`{"id": "x", "function": {"name": "b", "arguments": {}}},`+
		`{"id": "y", "function": {"name": "c", "arguments": {}}},`+
		`{"id": "x", "function": {"name": "d", "arguments": {}}},`+
		`{"id": "z", "function": {"name": "e", "arguments": {}}}]},`+
		`{"role": "tool", "content": "rz", "tool_call_id": "z", "tool_call": {"function": "e", "args": {}}},`+
		`{"role": "tool", "content": "rd", "tool_call_id": "x", "tool_call": {"function": "d", "args": {}}},`+
		`{"role": "tool", "content": "rx", "tool_call_id": "x"},`+
		`{"role": "tool", "content": "r?", "tool_call_id": "nope"}]}`))
	none := map[string]any{}
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, ID: "x", Tool: "a", Args: none, Ok: true, Result: "r0", ResultEvent: 1, Parent: -1},
		{Index: 1, Event: 2, ID: "x", Tool: "b", Args: none, Ok: true, Result: "rx", ResultEvent: 5, Parent: -1},
		{Index: 2, Event: 2, ID: "y", Tool: "c", Args: none, Ok: true, Result: "r?", ResultEvent: 6, Parent: -1, Mismatch: `the result's id "nope" is not the call's id "y"`},
		{Index: 3, Event: 2, ID: "x", Tool: "d", Args: none, Ok: true, Result: "rd", ResultEvent: 4, Parent: -1},
		{Index: 4, Event: 2, ID: "z", Tool: "e", Args: none, Ok: true, Result: "rz", ResultEvent: 3, Parent: -1},
	})
	check(t, "CallIDs", []string{rn.Events[3].CallID, rn.Events[4].CallID, rn.Events[5].CallID, rn.Events[6].CallID}, []string{"z", "x", "x", "nope"})
	check(t, "Tools", []string{rn.Events[3].Tool, rn.Events[4].Tool, rn.Events[5].Tool, rn.Events[6].Tool}, []string{"e", "d", "b", "c"})
	check(t, "Output", rn.Output, "") // ends on a tool message
}

func TestToolCallOverrides(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [`+
		`{"id": "1", "function": {"name": "send", "arguments": {"amount": 10}}},`+
		`{"id": "2", "function": {"name": "send", "arguments": {"amount": 20}}},`+
		`{"id": "3", "function": {"name": "send", "arguments": "{oops"}},`+
		`{"id": "4", "function": {"name": "send", "arguments": {"amount": 40}}}]},`+
		// what ran differs from the request: tool and args
		`{"role": "tool", "content": "ok1", "tool_call_id": "1", "tool_call": {"function": "send_all", "args": {"amount": 1000}}},`+
		// tool_call without function or args, or with nulls: the request's values stay
		`{"role": "tool", "content": "ok2", "tool_call_id": "2", "tool_call": {"function": null, "args": null, "placeholder_args": null}},`+
		// valid args that ran replace the request's bad ones
		`{"role": "tool", "content": "ok3", "tool_call_id": "3", "tool_call": {"function": "send", "args": "{\"amount\": 30}"}},`+
		// bad args that ran replace the request's good ones
		`{"role": "tool", "content": "ok4", "tool_call_id": "4", "tool_call": {"function": "", "args": [1]}}]}`))
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 0, ID: "1", Tool: "send_all", Args: map[string]any{"amount": float64(1000)}, Ok: true, Result: "ok1", ResultEvent: 1, Parent: -1,
			RequestedTool: "send", RequestedArgs: map[string]any{"amount": float64(10)}, Mismatch: `tool "send_all" ran, "send" was requested; other arguments ran than were requested`},
		{Index: 1, Event: 0, ID: "2", Tool: "send", Args: map[string]any{"amount": float64(20)}, Ok: true, Result: "ok2", ResultEvent: 2, Parent: -1},
		{Index: 2, Event: 0, ID: "3", Tool: "send", Args: map[string]any{"amount": float64(30)}, Ok: true, Result: "ok3", ResultEvent: 3, Parent: -1,
			RequestedArgs: map[string]any{}, Mismatch: "other arguments ran than were requested (the request's: arguments: invalid JSON: invalid character 'o' looking for beginning of object key string)"},
		{Index: 3, Event: 0, ID: "4", Tool: "send", Args: map[string]any{}, ArgsError: "tool_call.args: want an object or a JSON string holding one, got a list", Ok: true, Result: "ok4", ResultEvent: 4, Parent: -1,
			RequestedArgs: map[string]any{"amount": float64(40)}, Mismatch: "other arguments ran than were requested"},
	})
	check(t, "event 1 Tool", rn.Events[1].Tool, "send_all")
}

func TestResultWithoutRequest(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "user", "content": "go"},`+
		`{"role": "tool", "content": "ran", "tool_call_id": "", "tool_call": {"function": "delete", "args": {"f": "x"}, "id": "t9"}, "error": null},`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "function": {"name": "read", "arguments": {}}}]},`+
		`{"role": "tool", "content": "A", "tool_call_id": "a", "tool_call": {"function": "read", "args": {}}},`+
		`{"role": "tool", "content": "orphan", "tool_call_id": "q", "error": "boom"},`+
		`{"role": "assistant", "content": null, "tool_calls": [{"id": "b", "function": {"name": "never", "arguments": {}}}]}`+
		`]}`))
	none := map[string]any{}
	checkCalls(t, rn.Calls, []run.Call{
		{Index: 0, Event: 1, ID: "t9", Tool: "delete", Args: map[string]any{"f": "x"}, Ok: true, Result: "ran", ResultEvent: 1, Parent: -1},
		{Index: 1, Event: 2, ID: "a", Tool: "read", Args: none, Ok: true, Result: "A", ResultEvent: 3, Parent: -1},
		{Index: 2, Event: 4, ID: "q", Tool: "", Args: none, Ok: false, Result: "orphan", Error: "boom", ResultEvent: 4, Parent: -1},
		// requested, never ran
		{Index: 3, Event: 5, ID: "b", Tool: "never", Args: none, ResultEvent: -1, Parent: -1},
	})
	check(t, "event 1 Calls", rn.Events[1].Calls, []int(nil))
	check(t, "event 1 Tool", rn.Events[1].Tool, "delete")
	check(t, "event 5 Calls", rn.Events[5].Calls, []int{3})
	check(t, "Output", rn.Output, "")
}

func TestErrorField(t *testing.T) {
	rn := readOne(t, lines(`{"messages": [`+
		`{"role": "assistant", "content": null, "tool_calls": [`+
		`{"id": "1", "function": {"name": "f"}}, {"id": "2", "function": {"name": "f"}}, {"id": "3", "function": {"name": "f"}},`+
		`{"id": "4", "function": {"name": "f"}}, {"id": "5", "function": {"name": "f"}}, {"id": "6", "function": {"name": "f"}},`+
		`{"id": "7", "function": {"name": "f"}}]},`+
		`{"role": "tool", "content": "a", "tool_call_id": "1", "error": null},`+
		`{"role": "tool", "content": "b", "tool_call_id": "2"},`+
		`{"role": "tool", "content": "", "tool_call_id": "3", "error": "ValueError: no such file"},`+
		`{"role": "tool", "content": "", "tool_call_id": "4", "error": {"code": 5, "msg": "x"}},`+
		`{"role": "tool", "content": "", "tool_call_id": "5", "error": 3},`+
		`{"role": "tool", "content": "", "tool_call_id": "6", "error": false},`+
		`{"role": "tool", "content": "", "tool_call_id": "7", "error": ""},`+
		`{"role": "assistant", "content": "fine", "error": "ignored on non-tool messages"}]}`))
	type res struct {
		Failed bool
		Error  string
	}
	var gotEv, gotCall []res
	for _, ev := range rn.Events[1:8] {
		gotEv = append(gotEv, res{ev.Failed, ev.Error})
	}
	for _, c := range rn.Calls {
		gotCall = append(gotCall, res{!c.Ok, c.Error})
	}
	want := []res{{false, ""}, {false, ""}, {true, "ValueError: no such file"}, {true, `{"code":5,"msg":"x"}`}, {true, "3"}, {false, ""}, {false, ""}} // false and "" mean no error
	check(t, "events (Failed, Error)", gotEv, want)
	check(t, "calls (!Ok, Error)", gotCall, want)
	check(t, "last event", *rn.Events[8], run.Event{Index: 8, Role: "assistant", Content: "fine"})
	check(t, "Output", rn.Output, "fine")
}

func TestMalformed(t *testing.T) {
	good := `{"messages": [{"role": "user", "content": "ok"}]}`
	input := lines(
		`{"metadata": {"name": "header"}}`,       // 1: skipped
		good,                                     // 2
		`{"messages": [}`,                        // 3
		``,                                       // 4: blank
		`   `,                                    // 5: blank
		`[1, 2]`,                                 // 6
		`{"messages": "hi"}`,                     // 7
		`{"messages": null}`,                     // 8
		`{"messages": [], "metadata": [1]}`,      // 9
		`{"messages": [{"role": "user"}, 3]}`,    // 10
		`{"messages": [{"content": "no role"}]}`, // 11
		`{"messages": [{"role": 1}]}`,            // 12
		`{"messages": [{"role": "user", "content": {"text": "x"}}]}`,                       // 13
		`{"messages": [{"role": "assistant", "tool_calls": {}}]}`,                          // 14
		`{"messages": [{"role": "assistant", "tool_calls": [{"id": 1}]}]}`,                 // 15
		`{"messages": [{"role": "assistant", "tool_calls": [{"id": "1"}]}]}`,               // 16
		`{"messages": [{"role": "assistant", "tool_calls": [{"function": "f"}]}]}`,         // 17
		`{"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": 1}}]}]}`, // 18
		`{"messages": [{"role": "assistant", "tool_calls": [{"function": {}}]}]}`,          // 19
		`{"messages": [{"role": "tool", "tool_call_id": 5}]}`,                              // 20
		`{"messages": [{"role": "tool", "tool_call": "f"}]}`,                               // 21
		`{"messages": [{"role": "tool", "tool_call": {"function": {"name": "f"}}}]}`,       // 22
		`{"messages": [{"role": "user", "content": "a"}]} trailing`,                        // 23
		`{"index": 3}`, // 24: skipped
		good,           // 25
		`{"messages": [{"role": "user", "content": "unterminated`, // 26 (last line, no newline)
	)
	input = strings.TrimSuffix(input, "\n")
	runs, errs, skipped := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		"t.jsonl:3: invalid JSON (offset 15): invalid character '}' looking for beginning of value",
		"t.jsonl:6: record is a list, want an object",
		"t.jsonl:7: messages: want a list, got a string",
		"t.jsonl:8: messages: want a list, got null",
		"t.jsonl:9: metadata: want an object, got a list",
		"t.jsonl:10: message 1: is a number, want an object",
		"t.jsonl:11: message 0: role: missing",
		"t.jsonl:12: message 0: role: want a string, got a number",
		"t.jsonl:13: message 0: content: want a string, null or a list of content blocks, got an object",
		"t.jsonl:14: message 0: tool_calls: want a list, got an object",
		"t.jsonl:15: message 0: tool_calls[0]: id: want a string, got a number",
		"t.jsonl:16: message 0: tool_calls[0]: function: missing",
		"t.jsonl:17: message 0: tool_calls[0]: function: want an object, got a string",
		"t.jsonl:18: message 0: tool_calls[0]: function.name: want a string, got a number",
		"t.jsonl:19: message 0: tool_calls[0]: function.name: missing",
		"t.jsonl:20: message 0: tool_call_id: want a string, got a number",
		"t.jsonl:21: message 0: tool_call: want an object, got a string",
		"t.jsonl:22: message 0: tool_call.function: want a string, got an object",
		"t.jsonl:23: invalid JSON (offset 50): invalid character 't' after top-level value",
		"t.jsonl:26: invalid JSON (offset 55): unexpected end of JSON input",
	})
	check(t, "skipped", skipped, 2)
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	check(t, "origins", []run.Origin{runs[0].Origin, runs[1].Origin}, []run.Origin{{File: "t.jsonl", Line: 2}, {File: "t.jsonl", Line: 25}})
}

func TestCRLFAndNoFinalNewline(t *testing.T) {
	runs, errs, skipped := readAll(t, "{\"metadata\": {}}\r\n\r\n{\"messages\": [{\"role\": \"user\", \"content\": \"a\"}]}\r\n{\"messages\": []}", Options{})
	check(t, "errors", errs, []string(nil))
	check(t, "skipped", skipped, 1)
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	check(t, "origins", []run.Origin{runs[0].Origin, runs[1].Origin}, []run.Origin{{File: "t.jsonl", Line: 3}, {File: "t.jsonl", Line: 4}})
	check(t, "content", runs[0].Events[0].Content, "a")
}

func TestOverlongLine(t *testing.T) {
	rec := `{"messages": []}`   // 16 bytes
	pad := func(n int) string { // a record of exactly n bytes
		return `{"messages": [], "p": "` + strings.Repeat("x", n-len(`{"messages": [], "p": ""}`)) + `"}`
	}
	const max = 40
	input := pad(max) + "\n" + // 1: exactly max: fine
		pad(max+1) + "\n" + // 2: too long
		pad(max) + "\r\n" + // 3: max + "\r": fine
		pad(max+1) + "\r\n" + // 4: too long
		strings.Repeat("y", 5000) + "\n" + // 5: far too long (longer than the read buffer)
		rec + "\n" + // 6
		strings.Repeat("z", 100) // 7: too long, no final newline
	runs, errs, _ := readAll(t, input, Options{MaxRecordBytes: max})
	check(t, "errors", errs, []string{
		"t.jsonl:2: record longer than the limit of 40 bytes (raise it with --max-record-bytes)",
		"t.jsonl:4: record longer than the limit of 40 bytes (raise it with --max-record-bytes)",
		"t.jsonl:5: record longer than the limit of 40 bytes (raise it with --max-record-bytes)",
		"t.jsonl:7: record longer than the limit of 40 bytes (raise it with --max-record-bytes)",
	})
	var got []int
	for _, rn := range runs {
		got = append(got, rn.Origin.Line)
	}
	check(t, "run lines", got, []int{1, 3, 6})
	if len(pad(max)) != max {
		t.Fatalf("pad(%d) has %d bytes", max, len(pad(max)))
	}
}

type failingReader struct {
	data string
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r, err := Open("openai-messages", "t.jsonl", &failingReader{data: `{"messages": []}` + "\n" + `{"messa`, err: boom}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rn, err := r.Next(); err != nil || rn.Origin.Line != 1 {
		t.Fatalf("first Next = %v, %v", rn, err)
	}
	_, err = r.Next()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, boom) || err.Error() != "t.jsonl:2: read: disk on fire" {
		t.Fatalf("Next = %v (%T), want t.jsonl:2: read: disk on fire wrapping the read error", err, err)
	}
	// Reported once, then the stream ends: a caller that continues after
	// an *Error does not loop.
	for range 2 {
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next after a read error = %v, want io.EOF", err)
		}
	}
}

func TestHugeLimit(t *testing.T) {
	// A limit near math.MaxInt must not overflow into rejecting every line.
	runs, errs, _ := readAll(t, lines(`{"messages": []}`), Options{MaxRecordBytes: int(^uint(0) >> 1)})
	if len(runs) != 1 || len(errs) != 0 {
		t.Fatalf("got %d runs, errors %q", len(runs), errs)
	}
}

// repeatReader yields rec n times.
type repeatReader struct {
	rec []byte
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.rec[r.off:])
	r.off += k
	if r.off == len(r.rec) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}

func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 40 MB")
	}
	rec := []byte(`{"messages": [{"role": "user", "content": "` + strings.Repeat("x", 4000) + `"}], "metadata": {"k": 1}}` + "\n")
	const n = 10000 // 40 MB in all
	r, err := Open("openai-messages", "gen.jsonl", &repeatReader{rec: rec, n: n}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	var peak uint64
	for i := 0; ; i++ {
		rn, err := r.Next()
		if err == io.EOF {
			if i != n {
				t.Fatalf("read %d runs, want %d", i, n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rn.Origin.Line != i+1 {
			t.Fatalf("run %d at line %d", i, rn.Origin.Line)
		}
		if i%2000 == 1999 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	// Holding the runs would take over 40 MB; a streaming reader needs its
	// buffers and one record.
	if peak > 8<<20 {
		t.Errorf("heap reached %d bytes while streaming 40 MB", peak)
	}
}

// TestByteOrderMark: a UTF-8 BOM before the first record is not an error
// (editors on Windows write one); anywhere else it is ordinary input.
func TestByteOrderMark(t *testing.T) {
	runs, errs, skipped := readAll(t, "\ufeff"+`{"metadata": {"name": "header"}}`+"\n"+`{"messages": [{"role": "user", "content": "hi"}]}`, Options{})
	if len(errs) != 0 || skipped != 1 || len(runs) != 1 || runs[0].Events[0].Content != "hi" {
		t.Errorf("errors %q, skipped %d, runs %d", errs, skipped, len(runs))
	}
}

// TestStrictJSON: a duplicate object member name and invalid UTF-8 (raw, or
// an escaped lone surrogate) make a record bad input, and a JSON string of
// arguments malformed, where encoding/json would silently keep the last
// member or write U+FFFD: two readers of the transcript must not take it to
// say different things (a duplicated "role" read as "user" by one and
// "tool" by another). Errors encoding/json also reports keep its messages;
// numbers stay doubles, out of range is an error, big integers round.
func TestStrictJSON(t *testing.T) {
	input := lines(
		`{"messages": [{"role": "user", "role": "tool", "content": "x"}]}`,                                                   // 1
		"{\"messages\": [{\"role\": \"user\", \"content\": \"caf\xe9\"}]}",                                                   // 2
		`{"messages": [{"role": "user", "content": "\ud800"}]}`,                                                              // 3
		`{"messages": [], "metadata": {"a": 1, "a": 2}}`,                                                                     // 4
		`{"messages": [], "metadata": {"n": 1e400}}`,                                                                         // 5
		`{"messages": [{"role": "user", "content": "ok"}], "metadata": {"big": 123456789012345678901234567890, "pi": 3.25}}`, // 6
		`{"messages": [{"role": "assistant", "tool_calls": [`+
			`{"id": "1", "function": {"name": "dup", "arguments": "{\"to\": \"a\", \"to\": \"b\"}"}},`+
			`{"id": "2", "function": {"name": "utf", "arguments": "{\"to\": \"\\udc00\"}"}}]}]}`, // 7
	)
	long := strings.Repeat("é", 150)                                         // 300 bytes
	input += lines(`{"messages": [], "` + long + `": 1, "` + long + `": 2}`) // 8
	runs, errs, _ := readAll(t, input, Options{})
	check(t, "errors", errs, []string{
		`t.jsonl:1: invalid JSON (offset 31): duplicate object member name at "/messages/0/role"`,
		`t.jsonl:2: invalid JSON (offset 46): invalid UTF-8 at "/messages/0/content"`,
		"t.jsonl:3: invalid JSON (offset 43): invalid surrogate pair `\\ud800\"}]}` in string at \"/messages/0/content\"",
		`t.jsonl:4: invalid JSON (offset 38): duplicate object member name at "/metadata/a"`,
		"t.jsonl:5: invalid JSON: json: cannot unmarshal number 1e400 into Go value of type float64",
		// A long member name is cut in the message.
		`t.jsonl:8: invalid JSON (offset 324): duplicate object member name at "/` + strings.Repeat("é", 99) + `…"`,
	})
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	check(t, "metadata", runs[0].Meta, map[string]any{"big": 1.2345678901234568e+29, "pi": 3.25})
	none := map[string]any{}
	checkCalls(t, runs[1].Calls, []run.Call{
		{Index: 0, ID: "1", Tool: "dup", Args: none, ArgsError: `arguments: invalid JSON (offset 12): duplicate object member name at "/to"`, ResultEvent: -1, Parent: -1},
		{Index: 1, ID: "2", Tool: "utf", Args: none, ArgsError: "arguments: invalid JSON (offset 8): invalid surrogate pair `\\udc00\"}` in string at \"/to\"", ResultEvent: -1, Parent: -1},
	})
}
