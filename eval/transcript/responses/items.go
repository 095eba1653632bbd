package responses

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// clientCalls are the items by which the model asks the caller to run a
// tool, answered by a later output item with the same call_id; the value
// is how the call's tool and arguments are read.
var clientCalls = map[string]string{
	"function_call":    "function", // tool name, arguments (a JSON string)
	"custom_tool_call": "custom",   // tool name, input (free text)
	"computer_call":    "fields",   // tool = the item type, args = its other fields
	"local_shell_call": "fields",
	"shell_call":       "fields",
	"apply_patch_call": "fields",
}

// outputs are the items that carry a client-side call's result.
var outputs = map[string]bool{
	"function_call_output":    true,
	"custom_tool_call_output": true,
	"computer_call_output":    true,
	"local_shell_call_output": true,
	"shell_call_output":       true,
	"apply_patch_call_output": true,
}

// serverCalls are the tools the platform runs itself: one item is both
// the request and the result. The value lists the fields that are the
// result, not arguments.
var serverCalls = map[string][]string{
	"web_search_call":       nil,
	"file_search_call":      {"results"},
	"code_interpreter_call": {"outputs"},
	"image_generation_call": {"result"},
	"mcp_call":              {"output", "error"},
}

// otherItems carry no call: the role of their event and the keys read.
var otherItems = map[string]string{
	"reasoning":             "assistant",
	"mcp_list_tools":        "system",
	"mcp_approval_request":  "assistant",
	"mcp_approval_response": "user",
}

// refused are item types that hide what the run did.
var refused = map[string]string{
	"item_reference": "an item_reference points at an item the API stored, which the record does not hold (a call or a result could be missing): log the items themselves",
	"compaction":     "a compaction item holds earlier items encrypted (calls and results this reader cannot see): log the items before compaction",
}

// Keys read of each kind of item; build.ScanRest searches the others.
var (
	messageKeys  = keys("type", "id", "role", "content", "status")
	functionKeys = keys("type", "id", "call_id", "name", "arguments", "status")
	customKeys   = keys("type", "id", "call_id", "name", "input", "status")
	outputKeys   = keys("type", "id", "call_id", "output", "status", "error", "is_error", "acknowledged_safety_checks", "max_output_length")
	partKeys     = keys("type", "text", "refusal")
	otherKeys    = map[string]map[string]bool{
		"reasoning":             keys("type", "id", "summary", "content", "encrypted_content", "status"),
		"mcp_list_tools":        keys("type", "id", "server_label", "tools", "error"),
		"mcp_approval_request":  keys("type", "id", "server_label", "name", "arguments"),
		"mcp_approval_response": keys("type", "id", "approval_request_id", "approve", "reason"),
	}
)

func keys(ks ...string) map[string]bool {
	m := make(map[string]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// item adds item i of the record to rn as one event, or says why it is
// malformed.
func item(m *build.Matcher, rn *run.Run, i int, raw any) string {
	it, ok := raw.(map[string]any)
	if !ok {
		return "is " + build.Kind(raw) + ", want an object (a Responses API item)"
	}
	typ, err := build.OptString(it, "type")
	if err != "" {
		return err
	}
	if typ == "" {
		// EasyInputMessage: {"role", "content"} without a type.
		if _, ok := it["role"]; !ok {
			return "type: missing (an item has a type; only a message may omit it, and then it has a role)"
		}
		typ = "message"
	}
	ev := &run.Event{Index: i}
	switch {
	case typ == "message":
		return message(rn, ev, it)
	case clientCalls[typ] != "":
		return clientCall(m, rn, ev, typ, it)
	case outputs[typ]:
		return output(m, rn, ev, typ, it)
	case serverCalls[typ] != nil || typ == "web_search_call":
		return serverCall(m, rn, ev, typ, it)
	case otherItems[typ] != "":
		ev.Role = otherItems[typ]
		ev.Blocks = []any{it}
		rn.Events = append(rn.Events, ev)
		return terms.ScanRest(it, otherKeys[typ], "")
	case refused[typ] != "":
		return fmt.Sprintf("type %q: %s", typ, refused[typ])
	case typ == "tool_use" || typ == "tool_result":
		return fmt.Sprintf("type %q: an Anthropic content block, not a Responses API item (use --transcript-format anthropic-messages)", typ)
	}
	return fmt.Sprintf("type %q: not a Responses API item this reader knows (known: %s)", build.Clip(typ, 100), strings.Join(known(), ", "))
}

func known() []string {
	var ks []string
	for _, m := range []map[string]bool{keys("message"), keys(mapKeys(clientCalls)...), outputs, keys(mapKeys(otherItems)...)} {
		ks = append(ks, mapKeys(m)...)
	}
	for k := range serverCalls {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func mapKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// message reads {"type": "message", "role", "content": string | [part,
// ...]}: its text is the parts' text (input_text, output_text) and
// refusals, joined with "\n".
func message(rn *run.Run, ev *run.Event, it map[string]any) string {
	role, ok := it["role"].(string)
	if !ok {
		return "role: want a string, got " + build.KindOrMissing(it, "role")
	}
	ev.Role = strings.ToLower(role)
	for _, k := range []string{"tool_calls", "tool_call_id", "function_call"} {
		if it[k] != nil {
			// Chat Completions' shape: its calls would be passed over.
			return fmt.Sprintf("%s: a Chat Completions message (openai-messages?) among Responses API items; here a call is a function_call item and its result a function_call_output item", k)
		}
	}
	switch c := it["content"].(type) {
	case nil:
	case string:
		ev.Content = c
	case []any:
		ev.Blocks = c
		var texts []string
		for j, raw := range c {
			p, ok := raw.(map[string]any)
			if !ok {
				continue // a bare string or number carries no call
			}
			typ, _ := p["type"].(string)
			switch {
			case typ == "tool_use" || typ == "tool_result":
				return fmt.Sprintf("content[%d]: a %q block is Anthropic's (use --transcript-format anthropic-messages); in the Responses API a call is a function_call item", j, typ)
			case build.NamesCall(typ):
				return fmt.Sprintf("content[%d]: part type %q names a call, a tool or a function, but in the Responses API calls are items, not message parts", j, build.Clip(typ, 100))
			}
			if s, ok := p["text"].(string); ok {
				texts = append(texts, s)
			} else if s, ok := p["refusal"].(string); ok && typ == "refusal" {
				texts = append(texts, s)
			}
			if err := terms.ScanRest(p, partKeys, fmt.Sprintf("content[%d]", j)); err != "" {
				return err
			}
		}
		ev.Content = strings.Join(texts, "\n")
	default:
		return "content: want a string, null or a list of content parts, got " + build.Kind(c)
	}
	// A call the model wrote as text would be read as no call
	// (build/textcall.go); in the Responses API a message item never
	// holds a structured call, so any such text is refused.
	if ev.Role == "assistant" {
		if msg := terms.TextCallProblem(ev.Content); msg != "" {
			return msg
		}
	}
	rn.Events = append(rn.Events, ev)
	return terms.ScanRest(it, messageKeys, "")
}

// requiredString reads a string member the API requires.
func requiredString(it map[string]any, key, why string) (string, string) {
	s, ok := it[key].(string)
	if !ok {
		return "", fmt.Sprintf("%s: want a string, got %s (%s)", key, build.KindOrMissing(it, key), why)
	}
	return s, ""
}

// argsOf returns the fields of an item other than drop: the arguments of
// a call whose item has no arguments field of its own.
func argsOf(it map[string]any, drop ...string) map[string]any {
	args := make(map[string]any, len(it))
	for k, v := range it {
		args[k] = v
	}
	for _, k := range append([]string{"type", "id", "call_id", "status"}, drop...) {
		delete(args, k)
	}
	return args
}

// clientCall reads a call the caller runs: function_call{call_id, name,
// arguments}, custom_tool_call{call_id, name, input}, or computer_call,
// local_shell_call, shell_call, apply_patch_call (the tool is the item
// type, the arguments its other fields).
func clientCall(m *build.Matcher, rn *run.Run, ev *run.Event, typ string, it map[string]any) string {
	id, err := requiredString(it, "call_id", "its output item answers it by call_id")
	if err != "" {
		return err
	}
	c := &run.Call{ID: id, ResultEvent: -1, Parent: -1}
	var read map[string]bool
	switch clientCalls[typ] {
	case "function":
		if c.Tool, err = requiredString(it, "name", "the function called"); err != "" {
			return err
		}
		c.Args, c.ArgsError = build.ParseArgs("arguments", it["arguments"])
		read = functionKeys
	case "custom":
		if c.Tool, err = requiredString(it, "name", "the tool called"); err != "" {
			return err
		}
		input, ok := it["input"].(string)
		if !ok {
			return "input: want a string, got " + build.KindOrMissing(it, "input") + " (a custom tool's input is free text)"
		}
		c.Args = map[string]any{"input": input}
		read = customKeys
	default:
		c.Tool, c.Args = typ, argsOf(it)
	}
	ev.Role = "assistant"
	ev.Blocks = []any{it}
	rn.Events = append(rn.Events, ev)
	m.Request(rn, ev, c)
	if read != nil {
		return terms.ScanRest(it, read, "")
	}
	return ""
}

// output reads an output item: the result of the client-side call with
// its call_id (local_shell_call_output names it by id). The API has no
// error flag: see outcome.
func output(m *build.Matcher, rn *run.Run, ev *run.Event, typ string, it map[string]any) string {
	idKey := "call_id"
	if typ == "local_shell_call_output" && it["call_id"] == nil {
		idKey = "id" // this item's id is the call's call_id
	}
	id, err := requiredString(it, idKey, "the call this output answers")
	if err != "" {
		return err
	}
	ev.Role, ev.CallID, ev.Blocks = "tool", id, []any{it}
	content, err := outputText(it["output"])
	if err != "" {
		return err
	}
	ev.Content = content
	a := build.Result{CallID: id, Content: content}
	if a.Failed, a.Err, a.Unknown, err = outcome(typ, it, content); err != "" {
		return err
	}
	rn.Events = append(rn.Events, ev)
	c := m.Answer(rn, ev.Index, a)
	ev.Tool, ev.Failed, ev.Error, ev.FailedUnknown = c.Tool, a.Failed, a.Err, a.Unknown
	return terms.ScanRest(it, outputKeys, "")
}

// outputText is the text of an output: a string as is; a list of parts
// (input_text, input_image, input_file; a shell's stdout and stderr
// chunks) their text joined with "\n"; an object (a computer screenshot)
// or null "".
func outputText(v any) (string, string) {
	switch o := v.(type) {
	case nil, map[string]any:
		return "", ""
	case string:
		return o, ""
	case []any:
		var texts []string
		for _, raw := range o {
			p, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			for _, k := range []string{"text", "stdout", "stderr"} {
				if s, ok := p[k].(string); ok && s != "" {
					texts = append(texts, s)
				}
			}
		}
		return strings.Join(texts, "\n"), ""
	}
	return "", "output: want a string, a list of parts, an object or null, got " + build.Kind(v)
}

// outcome reads whether an output item reports a failure. The Responses
// API has none for a function's output: a tool's error is text in
// "output", which the reader cannot tell from success. So an output is a
// success unless the harness marked it as tenet's other readers read a
// result: "error" (a message, true, ...), "is_error" (a boolean) or
// "status" "error" (build.ResultOutcome), or status "failed" (what
// apply_patch_call_output reports). A failure one field reports and
// another's explicit success contradicts is unknown, never either.
func outcome(typ string, it map[string]any, content string) (failed bool, errText, unknown, errMsg string) {
	failed, errText, unknown, errMsg = build.ResultOutcome(it, content)
	if errMsg != "" || unknown != "" || failed {
		return
	}
	what, short := "", ""
	if st, _ := it["status"].(string); strings.EqualFold(strings.TrimSpace(st), "failed") {
		what, short = fmt.Sprintf("status %q", st), "failed"
	} else if typ == "shell_call_output" {
		what = shellFailure(it["output"])
		short = what
	}
	if what == "" {
		return
	}
	if ie, ok := it["is_error"].(bool); ok && !ie {
		return false, content, fmt.Sprintf("the output reports %s but is_error false: whether the call failed is unknown", what), ""
	}
	errText = content
	if errText == "" {
		errText = short
	}
	return true, errText, "", ""
}

// shellFailure says how a shell_call_output's chunks report a failure —
// an outcome {"type": "timeout"} or {"type": "exit", "exit_code": N} with
// N not 0 — or returns "".
func shellFailure(v any) string {
	list, _ := v.([]any)
	for _, raw := range list {
		chunk, _ := raw.(map[string]any)
		o, _ := chunk["outcome"].(map[string]any)
		switch t, _ := o["type"].(string); t {
		case "timeout":
			return "a timeout"
		case "exit":
			if code, ok := o["exit_code"].(float64); ok && code != 0 {
				return fmt.Sprintf("exit code %v", code)
			}
		}
	}
	return ""
}

// serverCall reads a call the platform ran itself (web_search_call,
// file_search_call, code_interpreter_call, image_generation_call,
// mcp_call): one item is the request and, by its status, the result.
func serverCall(m *build.Matcher, rn *run.Run, ev *run.Event, typ string, it map[string]any) string {
	id, err := build.OptString(it, "id")
	if err != "" {
		return err
	}
	c := &run.Call{ID: id, Tool: typ, ResultEvent: -1, Parent: -1}
	a := build.Result{CallID: id}
	st, _ := it["status"].(string)
	if typ == "mcp_call" {
		// An MCP server's tool: the call is to the tool it names, with
		// its arguments (server_label stays in the event's block).
		if c.Tool, err = requiredString(it, "name", "the MCP tool called"); err != "" {
			return err
		}
		c.Args, c.ArgsError = build.ParseArgs("arguments", it["arguments"])
		if a.Content, err = build.OptString(it, "output"); err != "" {
			return err
		}
		e, err := mcpError(it["error"])
		if err != "" {
			return err
		}
		switch {
		case e != "":
			a.Failed, a.Err = true, e
		case strings.EqualFold(st, "failed"):
			a.Failed, a.Err = true, "failed"
		case strings.EqualFold(st, "completed") || (st == "" && it["output"] != nil):
		default:
			a.Unknown = fmt.Sprintf("the mcp_call has status %q and no output or error: whether it ran is unknown", build.Clip(st, 100))
		}
	} else {
		c.Args = argsOf(it, serverCalls[typ]...)
		a.Content = serverText(it)
		switch strings.ToLower(st) {
		case "completed":
		case "failed":
			a.Failed, a.Err = true, "failed"
		default:
			a.Unknown = fmt.Sprintf("the %s has status %q: whether it ran is unknown", typ, build.Clip(st, 100))
		}
	}
	ev.Role = "assistant"
	ev.Blocks = []any{it}
	rn.Events = append(rn.Events, ev)
	m.Request(rn, ev, c)
	m.Answer(rn, ev.Index, a)
	return ""
}

// serverText is the text a platform tool returned, where its item holds
// it: a code interpreter's logs, a file search's results' text.
func serverText(it map[string]any) string {
	var texts []string
	for _, k := range []string{"outputs", "results"} {
		list, _ := it[k].([]any)
		for _, raw := range list {
			p, _ := raw.(map[string]any)
			for _, f := range []string{"logs", "text"} {
				if s, ok := p[f].(string); ok && s != "" {
					texts = append(texts, s)
				}
			}
		}
	}
	return strings.Join(texts, "\n")
}

// mcpError is the text of an mcp_call's error: a string as the SDK's type
// has it, or the object the API returns for a server's failure
// ({"type": "http_error", "code": 500, "message": "..."}): its message,
// else its type, else its JSON. null is no error.
func mcpError(v any) (string, string) {
	switch e := v.(type) {
	case nil:
		return "", ""
	case string:
		return e, ""
	case map[string]any:
		for _, k := range []string{"message", "type"} {
			if s, ok := e[k].(string); ok && strings.TrimSpace(s) != "" {
				return s, ""
			}
		}
		b, _ := json.Marshal(e) // sorted keys: the same text every run
		return build.Clip(string(b), 200), ""
	}
	return "", "error: want a string, an object or null, got " + build.Kind(v)
}
