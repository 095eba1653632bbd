package agentdojo

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// terms are the reader's words in build's refusals.
var terms = build.Terms{
	Transcript: `"messages"`,
	Header:     "no messages",
	Wants:      "AgentDojo FunctionCalls {function, args, id} in tool_calls and tool messages",
	Convert:    "this reader reads AgentDojo's own run files",
	TopLevel:   `the conversation must be under "messages" at the top level of the run file`,
	Event:      "message %d",
}

// Decode is the format's frame.Decoder. data is a record as Frame gives
// it, {"file": NAME, "run": {...}}, or a run object alone (then meta.path
// is null). It never skips a record. A msg about one message, or one
// member of the run, names its line (frame.AtLine).
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil, false, msg
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, "record is " + build.Kind(v) + ", want an object (one AgentDojo run)"
	}
	file, rec, wrapped := unwrap(obj)
	if rec == nil {
		return nil, false, "run: want an object (one AgentDojo run), got " + build.Kind(obj["run"])
	}
	rn, msg, at := decodeRun(rec, file)
	if msg != "" && at != nil {
		if wrapped {
			at = append([]any{"run"}, at...)
		}
		// Only now, for the error: the lines are not needed otherwise.
		if n := lineOf(data, at); n > 1 {
			msg = frame.AtLine(n, msg)
		}
	}
	return rn, false, msg
}

// unwrap splits Frame's record into the file's name and the run; an
// object that is not such a record is a run alone (no file). rec is nil
// when the record's "run" is not an object.
func unwrap(obj map[string]any) (file string, rec map[string]any, wrapped bool) {
	name, isName := obj["file"].(string)
	_, hasRun := obj["run"]
	if len(obj) != 2 || !isName || !hasRun {
		return "", obj, false
	}
	rec, _ = obj["run"].(map[string]any)
	return name, rec, true
}

// The members of a run the reader checks; unknown members (a fork's
// "usage", "defence_params") are kept in meta as they are.
var (
	identity = []string{"suite_name", "pipeline_name", "user_task_id"}
	// optional members are null in meta when the file lacks them: older
	// packages do not write the version fields, a crashed run has no
	// labels and no duration.
	// (A list, not a map: a file with two wrong members is refused for
	// the same one every time.)
	optional = []struct{ name, kind string }{
		{"injection_task_id", "string"}, {"attack_type", "string"}, {"injections", "object"},
		{"error", "string"}, {"benchmark_version", "string"}, {"evaluation_timestamp", "string"},
		{"agentdojo_package_version", "string"}, {"duration", "number"},
		{"utility", "boolean"}, {"security", "boolean"},
	}
)

// decodeRun reads one run object; at is the place a msg is about (keys
// and indexes from the run object), or nil.
func decodeRun(rec map[string]any, file string) (rn *run.Run, msg string, at []any) {
	msgs, meta, msg, at := head(rec, file)
	if msg != "" {
		return nil, msg, at
	}
	return body(rec, meta, msgs)
}

// Peek is the format's frame.Peeker: the run's members but "messages"
// decoded and checked as Decode does (head), the messages only found. A
// record Decode would refuse before its messages is not peeked (ok
// false).
func Peek(data []byte) (frame.Peek, bool) {
	obj, raw, ok := frame.SkimObject(data, "run")
	name, isName := obj["file"].(string)
	if !ok || len(obj) != 1 || !isName || raw == nil {
		return frame.Peek{}, false // not Frame's {"file", "run"}
	}
	rec, msgs, ok := frame.SkimObject(raw, "messages")
	if !ok || len(msgs) == 0 || msgs[0] != '[' {
		return frame.Peek{}, false
	}
	// A list standing for the messages, for head's checks (which look
	// only at whether "messages" is a list).
	rec["messages"] = []any(nil)
	_, meta, msg, _ := head(rec, name)
	if msg != "" {
		return frame.Peek{}, false
	}
	return frame.Peek{Meta: meta, Record: rec, Unread: unread, Check: func() bool { return build.Decodable(data) }, Raw: msgs}, true
}

// DecodePeeked is the format's frame.PeekDecoder: Decode of a record Peek
// passed, decoding only the run's messages (p.Raw) and reusing the rest.
func DecodePeeked(p frame.Peek) (rn *run.Run, ok bool) {
	msgs, ok := p.Messages()
	if !ok {
		return nil, false
	}
	rn, msg, _ := body(p.Record, p.Meta, msgs)
	return rn, msg == ""
}

// unread are the members Peek leaves undecoded.
var unread = []string{"messages"}

// head reads what a run says besides its messages, in the order
// decodeRun refuses it, and gives its meta. Peek runs it too, so that a
// run it passes is refused by Decode, if at all, for its messages.
func head(rec map[string]any, file string) (msgs []any, meta map[string]any, msg string, at []any) {
	for _, k := range identity {
		if _, ok := rec[k].(string); !ok {
			return nil, nil, fmt.Sprintf("%s: want a string, got %s", k, build.KindOrMissing(rec, k)), []any{k}
		}
	}
	for _, o := range optional {
		v := rec[o.name]
		if v == nil {
			continue
		}
		if got := build.Kind(v); got != "a "+o.kind && got != "an "+o.kind {
			return nil, nil, fmt.Sprintf("%s: want a %s or null, got %s", o.name, o.kind, got), []any{o.name}
		}
	}
	if _, ok := rec["path"]; ok {
		// meta.path is where the file was filed; a member of that name
		// would be hidden by it or hide it.
		return nil, nil, `a top-level member "path": tenet's meta.path is the run file's place in AgentDojo's runs tree, and this run would have two`, []any{"path"}
	}
	msgs, ok := rec["messages"].([]any)
	if !ok {
		return nil, nil, "messages: want a list of messages, got " + build.KindOrMissing(rec, "messages"), []any{"messages"}
	}
	if msg := terms.TopLevelProblem(rec); msg != "" {
		return nil, nil, msg, nil
	}
	meta = make(map[string]any, len(rec)+1)
	for k, v := range rec {
		if k != "messages" {
			meta[k] = v
		}
	}
	for _, o := range optional {
		if _, ok := meta[o.name]; !ok {
			meta[o.name] = nil
		}
	}
	meta["path"] = pathMeta(file)
	return msgs, meta, "", nil
}

// body reads a run's messages into its run, whose meta head gave.
func body(rec, meta map[string]any, msgs []any) (*run.Run, string, []any) {
	rn := &run.Run{Record: rec, Meta: meta, Events: make([]*run.Event, 0, len(msgs))}
	var m build.Matcher
	for i, raw := range msgs {
		if err := message(&m, rn, i, raw); err != "" {
			return nil, fmt.Sprintf("message %d: %s", i, err), []any{"messages", i}
		}
	}
	if err := terms.Finish(rn); err != "" {
		// "message N: call M ...": the message's line.
		var n int
		if _, scanErr := fmt.Sscanf(err, "message %d:", &n); scanErr == nil {
			return nil, err, []any{"messages", n}
		}
		return nil, err, nil
	}
	nestedRan(rn)
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, "", nil
}

// nestedRan gives a call nested in another's arguments (a FunctionCall
// as an argument value) what the file can say of it. AgentDojo's runtime
// executes such a call before the call that carries it and substitutes
// its result (a failing one fails the outer call), but only the outer
// call's result is logged, and a plain object of that shape is passed as
// it is: when the outer call got a result, whether the nested one ran is
// unknown, never "did not run". Without a result, neither ran (build's
// Ok false). Parents come before their nested calls in rn.Calls.
func nestedRan(rn *run.Run) {
	for _, c := range rn.Calls {
		if c.Depth == 0 || c.Parent < 0 {
			continue
		}
		p := rn.Calls[c.Parent]
		if p.ResultEvent < 0 && p.OkUnknown == "" {
			continue
		}
		c.Ok = false
		c.OkUnknown = fmt.Sprintf("a FunctionCall in the arguments of call %d (%q): AgentDojo runs it before that call, but the file records only the outer call's result, so whether this one ran is unknown", p.Index, p.Tool)
	}
}

// pathMeta is meta.path: the members of AgentDojo's runs tree,
// <pipeline>/<suite>/<user_task>/<attack>/<injection_task or none>.json,
// from the last five components of file, or nil when file does not end
// so. The components are kept as written ("none" included).
func pathMeta(file string) any {
	parts := strings.Split(filepath.ToSlash(file), "/")
	if len(parts) < 5 {
		return nil
	}
	parts = parts[len(parts)-5:]
	name := parts[4]
	for _, ext := range []string{".gz", ".zst"} {
		name = strings.TrimSuffix(name, ext)
	}
	stem, ok := strings.CutSuffix(name, ".json")
	if !ok || (stem != "none" && !strings.HasPrefix(stem, "injection_task_")) {
		return nil
	}
	if !strings.HasPrefix(parts[2], "user_task_") && !strings.HasPrefix(parts[2], "injection_task_") {
		return nil
	}
	for _, p := range parts[:4] {
		if p == "" || p == "." || p == ".." {
			return nil
		}
	}
	return map[string]any{
		"pipeline": parts[0], "suite": parts[1], "user_task": parts[2],
		"attack": parts[3], "injection_task": stem,
	}
}

// lineOf returns the line of data (from 1) on which the value at path
// (object keys as strings, list indexes as ints) starts, or 0 when data
// has none there. data is valid JSON: Decode has read it.
func lineOf(data []byte, path []any) int {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for _, step := range path {
		tok, err := dec.ReadToken()
		if err != nil {
			return 0
		}
		switch s := step.(type) {
		case string:
			if tok.Kind() != '{' {
				return 0
			}
			for {
				if dec.PeekKind() != '"' {
					return 0
				}
				name, err := dec.ReadToken()
				if err != nil {
					return 0
				}
				if name.String() == s {
					break
				}
				if err := dec.SkipValue(); err != nil {
					return 0
				}
			}
		case int:
			if tok.Kind() != '[' {
				return 0
			}
			for range s {
				if err := dec.SkipValue(); err != nil {
					return 0
				}
			}
		}
	}
	if dec.PeekKind() == 0 {
		return 0
	}
	// The next value starts after the white space (and ',' or ':') the
	// decoder has buffered.
	off := dec.InputOffset()
	u := dec.UnreadBuffer()
	i := 0
	for i < len(u) && strings.IndexByte(" \t\r\n,:", u[i]) >= 0 {
		i++
	}
	return 1 + bytes.Count(data[:off+int64(i)], []byte("\n"))
}
