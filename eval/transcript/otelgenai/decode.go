package otelgenai

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// The GenAI attributes the reader reads (semantic conventions, gen-ai
// registry).
const (
	attrOperation    = "gen_ai.operation.name"
	attrConversation = "gen_ai.conversation.id"
	attrInput        = "gen_ai.input.messages"
	attrOutput       = "gen_ai.output.messages"
	attrSystem       = "gen_ai.system_instructions"
	attrToolName     = "gen_ai.tool.name"
	attrToolCallID   = "gen_ai.tool.call.id"
	attrToolArgs     = "gen_ai.tool.call.arguments"
	attrToolResult   = "gen_ai.tool.call.result"
	attrErrorType    = "error.type"
	// attrDeferral is pydantic-ai's mark of a call its tool deferred
	// (ApprovalRequired, CallDeferred): the tool did not run.
	attrDeferral = "pydantic_ai.tool.deferral.name"
)

// span is one decoded span.
type span struct {
	order   int // position in the record
	start   uint64
	traceID string
	spanID  string
	name    string
	op      string
	attrs   map[string]any
	failed  bool
	ok      bool // status code 1 (OK)
	errText string
	exc     string // the last exception event's message, else its type
	// deferred is the span's attrDeferral ("" when absent).
	deferred string
	node     node // its place in the trace (tree.go)
}

// where names a span in messages.
func (s *span) where() string {
	return fmt.Sprintf("span %d (%q)", s.order, s.name)
}

// chatOps are the operations whose spans carry a model call's messages.
var chatOps = map[string]bool{"chat": true, "text_completion": true, "generate_content": true}

// Record members: an ExportTraceServiceRequest has only resourceSpans.
var (
	recordKeys = map[string]bool{"resourceSpans": true}
	rsKeys     = map[string]bool{"resource": true, "scopeSpans": true, "schemaUrl": true}
	ssKeys     = map[string]bool{"scope": true, "spans": true, "schemaUrl": true}
	spanFields = map[string]bool{
		"traceId": true, "spanId": true, "parentSpanId": true, "traceState": true, "flags": true,
		"name": true, "kind": true, "startTimeUnixNano": true, "endTimeUnixNano": true,
		"attributes": true, "droppedAttributesCount": true, "events": true, "droppedEventsCount": true,
		"links": true, "droppedLinksCount": true, "status": true,
	}
)

// Decode is the Decoder of otel-genai: one record is an OTLP/JSON
// ExportTraceServiceRequest whose spans form one run (as Frame gives
// them).
func Decode(data []byte) (rn *run.Run, skip bool, msg string) {
	v, msg := build.DecodeJSON(data, true)
	if msg != "" {
		return nil, false, msg
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, false, "want an OTLP/JSON trace export object {\"resourceSpans\": [...]}, got " + build.Kind(v)
	}
	if hint := otherFormat(rec); hint != "" {
		return nil, false, hint
	}
	for k := range rec {
		if !recordKeys[k] {
			return nil, false, fmt.Sprintf("member %q: an OTLP/JSON trace export has only resourceSpans", build.Clip(k, 100))
		}
	}
	spans, resource, msg := readSpans(rec)
	if msg != "" {
		return nil, false, msg
	}
	meta, msg := runMeta(spans, resource)
	if msg != "" {
		return nil, false, msg
	}
	nodes := make([]node, len(spans))
	for i, s := range spans {
		nodes[i] = s.node
	}
	if _, msg := checkTrees(nodes); msg != "" {
		return nil, false, msg
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	rn = &run.Run{Record: rec, Meta: meta}
	if msg := buildRun(rn, spans); msg != "" {
		return nil, false, msg
	}
	if msg := build.Finish(rn); msg != "" {
		return nil, false, msg
	}
	if n := len(rn.Events); n > 0 {
		if last := rn.Events[n-1]; last.Role == "assistant" {
			rn.Output = last.Content
		}
	}
	return rn, false, ""
}

// otherFormat names the likely format of a record that is not an OTLP
// trace export.
func otherFormat(rec map[string]any) string {
	switch {
	case rec["resourceSpans"] != nil:
		return ""
	case rec["resourceLogs"] != nil || rec["resourceMetrics"] != nil:
		return "an OTLP logs or metrics export, not traces: otel-genai reads spans (resourceSpans)"
	case rec["messages"] != nil:
		return "no resourceSpans: this record has \"messages\", likely a chat transcript (format openai-messages or anthropic-messages), not an OTLP trace export"
	case rec["jsonrpc"] != nil:
		return "no resourceSpans: this looks like a JSON-RPC (MCP) message (format mcp), not an OTLP trace export"
	case rec["traceId"] != nil && rec["spanId"] != nil:
		return "a bare span: otel-genai reads OTLP/JSON export lines {\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [...]}]}]}"
	}
	return "no resourceSpans: not an OTLP/JSON trace export line"
}

// readSpans walks resourceSpans[].scopeSpans[].spans[]; resource is the
// first resource's attributes.
func readSpans(rec map[string]any) (spans []*span, resource map[string]any, msg string) {
	rss, ok := rec["resourceSpans"].([]any)
	if !ok {
		return nil, nil, "resourceSpans: want a list, got " + build.Kind(rec["resourceSpans"])
	}
	for i, x := range rss {
		p := fmt.Sprintf("resourceSpans[%d]", i)
		rs, ok := x.(map[string]any)
		if !ok {
			return nil, nil, p + ": want an object, got " + build.Kind(x)
		}
		if k := unknownKey(rs, rsKeys); k != "" {
			return nil, nil, fmt.Sprintf("%s: unknown member %q", p, k)
		}
		if r, ok := rs["resource"].(map[string]any); ok && resource == nil {
			attrs, msg := attributes(r["attributes"])
			if msg != "" {
				return nil, nil, p + ".resource." + msg
			}
			resource = attrs
		}
		sss, ok := rs["scopeSpans"].([]any)
		if !ok && rs["scopeSpans"] != nil {
			return nil, nil, p + ".scopeSpans: want a list, got " + build.Kind(rs["scopeSpans"])
		}
		for j, y := range sss {
			q := fmt.Sprintf("%s.scopeSpans[%d]", p, j)
			ss, ok := y.(map[string]any)
			if !ok {
				return nil, nil, q + ": want an object, got " + build.Kind(y)
			}
			if k := unknownKey(ss, ssKeys); k != "" {
				return nil, nil, fmt.Sprintf("%s: unknown member %q", q, k)
			}
			list, ok := ss["spans"].([]any)
			if !ok && ss["spans"] != nil {
				return nil, nil, q + ".spans: want a list, got " + build.Kind(ss["spans"])
			}
			for k, z := range list {
				s, msg := readSpan(len(spans), z)
				if msg != "" {
					return nil, nil, fmt.Sprintf("%s.spans[%d]: %s", q, k, msg)
				}
				spans = append(spans, s)
			}
		}
	}
	if len(spans) == 0 {
		return nil, nil, "no spans"
	}
	if resource == nil {
		resource = map[string]any{}
	}
	return spans, resource, ""
}

func unknownKey(obj map[string]any, known map[string]bool) string {
	var bad []string
	for k := range obj {
		if !known[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	sort.Strings(bad)
	return build.Clip(bad[0], 100)
}

func readSpan(order int, x any) (*span, string) {
	obj, ok := x.(map[string]any)
	if !ok {
		return nil, "want an object, got " + build.Kind(x)
	}
	if k := unknownKey(obj, spanFields); k != "" {
		return nil, fmt.Sprintf("unknown member %q", k)
	}
	s := &span{order: order}
	var msg string
	for _, f := range []struct {
		key string
		to  *string
	}{{"traceId", &s.traceID}, {"spanId", &s.spanID}, {"name", &s.name}} {
		if *f.to, msg = build.OptString(obj, f.key); msg != "" {
			return nil, msg
		}
	}
	if s.traceID == "" {
		return nil, "traceId: want a non-empty string"
	}
	// OTLP/JSON ids are case-insensitive hex: one trace however spelt.
	s.traceID = strings.ToLower(s.traceID)
	parent, msg := build.OptString(obj, "parentSpanId")
	if msg != "" {
		return nil, msg
	}
	s.node = newNode(s.traceID, s.spanID, parent, s.name, obj["kind"], obj["flags"])
	if s.attrs, msg = attributes(obj["attributes"]); msg != "" {
		return nil, msg
	}
	op, ok := s.attrs[attrOperation]
	if ok {
		if s.op, ok = op.(string); !ok {
			return nil, attrOperation + ": want a string, got " + build.Kind(op)
		}
	}
	if st, ok := obj["startTimeUnixNano"]; ok {
		if s.start, msg = unixNano(st); msg != "" {
			return nil, "startTimeUnixNano: " + msg
		}
	} else if s.op != "" {
		return nil, "startTimeUnixNano: missing (items are ordered by it)"
	}
	// OTLP exports a span when it ends: one without an end time was
	// exported in progress (a snapshot), and so may be its run, whose
	// missing part cannot be told.
	end, has := obj["endTimeUnixNano"]
	if !has {
		return nil, "endTimeUnixNano: missing: the span had not ended when it was exported, so its run may not be over; tenet judges whole runs only"
	}
	if n, msg := unixNano(end); msg != "" {
		return nil, "endTimeUnixNano: " + msg
	} else if n == 0 {
		return nil, "endTimeUnixNano: 0: the span had not ended when it was exported, so its run may not be over; tenet judges whole runs only"
	}
	if msg = s.events(obj["events"]); msg != "" {
		return nil, msg
	}
	if msg = s.status(obj["status"]); msg != "" {
		return nil, msg
	}
	if d, ok := s.attrs[attrDeferral]; ok {
		if s.deferred, _ = d.(string); s.deferred == "" {
			return nil, attrDeferral + ": want a non-empty string"
		}
	}
	if msg = otherConvention(s); msg != "" {
		return nil, msg
	}
	if s.op == "" {
		// A span tenet does not read must not hide a call or messages.
		for _, k := range []string{attrInput, attrOutput, attrToolCallID, attrToolName, attrToolResult} {
			if _, ok := s.attrs[k]; ok {
				return nil, fmt.Sprintf("attribute %s without %s: tenet cannot tell what the span is", k, attrOperation)
			}
		}
	}
	return s, ""
}

// unixNano reads an OTLP fixed64: a decimal string (the JSON mapping's
// form) or a number.
func unixNano(v any) (uint64, string) {
	switch t := v.(type) {
	case string:
		n, err := strconv.ParseUint(t, 10, 64)
		if err != nil {
			return 0, fmt.Sprintf("want a decimal string of nanoseconds, got %q", build.Clip(t, 40))
		}
		return n, ""
	case float64:
		if t < 0 || t > 1.8e19 || t != float64(uint64(t)) {
			return 0, "want a non-negative integer of nanoseconds"
		}
		return uint64(t), ""
	}
	return 0, "want a string or a number, got " + build.Kind(v)
}

// status reads span.status and error.type: code 2 (STATUS_CODE_ERROR) or
// an error.type attribute is a failed operation.
func (s *span) status(v any) string {
	var code any
	var message string
	switch st := v.(type) {
	case nil:
	case map[string]any:
		if k := unknownKey(st, map[string]bool{"code": true, "message": true}); k != "" {
			return fmt.Sprintf("status: unknown member %q", k)
		}
		code = st["code"]
		var msg string
		if message, msg = build.OptString(st, "message"); msg != "" {
			return "status." + msg
		}
	default:
		return "status: want an object, got " + build.Kind(v)
	}
	switch code {
	case nil, 0.0, "STATUS_CODE_UNSET":
	case 1.0, "STATUS_CODE_OK":
		s.ok = true
	case 2.0, "STATUS_CODE_ERROR":
		s.failed = true
	default:
		b, _ := json.Marshal(code)
		return fmt.Sprintf("status.code: %s is not an OTLP status code (0 unset, 1 ok, 2 error)", build.Clip(string(b), 40))
	}
	// An SDK's set_status(ERROR) without a description leaves the
	// message empty; the exception it recorded says what went wrong.
	if message == "" {
		message = s.exc
	}
	et, has := s.attrs[attrErrorType]
	if has {
		t, ok := et.(string)
		if !ok || t == "" {
			return attrErrorType + ": want a non-empty string"
		}
		s.failed = true
		if message == "" {
			message = t
		}
	}
	if s.failed {
		s.errText = message
		if s.errText == "" {
			s.errText = "error"
		}
	}
	return ""
}

// unset: the span records no outcome, neither a status nor an error.type.
func (s *span) unset() bool { return !s.failed && !s.ok }

// events refuses span events of the deprecated event-based GenAI
// convention (gen_ai.user.message, gen_ai.choice...), whose messages
// would otherwise be read as no messages, and keeps the text of the last
// "exception" event (the semantic conventions' exception.message, else
// exception.type).
func (s *span) events(v any) string {
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return ""
		}
		return "events: want a list, got " + build.Kind(v)
	}
	for i, e := range list {
		ev, _ := e.(map[string]any)
		name, _ := ev["name"].(string)
		if strings.HasPrefix(name, "gen_ai.") {
			return fmt.Sprintf("events[%d]: span event %q is the deprecated event-based GenAI convention, which tenet does not read: record gen_ai.input.messages and gen_ai.output.messages as span attributes", i, build.Clip(name, 100))
		}
		if name == "exception" {
			attrs, msg := attributes(ev["attributes"])
			if msg != "" {
				return fmt.Sprintf("events[%d].%s", i, msg)
			}
			for _, k := range []string{"exception.message", "exception.type"} {
				if t, _ := attrs[k].(string); t != "" {
					s.exc = t
					break
				}
			}
		}
	}
	return ""
}

// otherConvention refuses a span that carries a conversation or a tool
// call in another convention than the GenAI semantic conventions' (as
// OpenLLMetry and OpenInference instrumentations write them): read as
// GenAI spans it would give no messages and no calls, and the run's
// labels would be unknown for no reason the user could see.
func otherConvention(s *span) string {
	_, in := s.attrs[attrInput]
	_, out := s.attrs[attrOutput]
	found, conv := "", ""
	for k, v := range s.attrs {
		c := ""
		switch {
		case in || out:
		case k == "gen_ai.prompt" || k == "gen_ai.completion" || strings.HasPrefix(k, "gen_ai.prompt.") || strings.HasPrefix(k, "gen_ai.completion."):
			c = "OpenLLMetry's indexed prompt and completion attributes (gen_ai.prompt.N.*, gen_ai.completion.N.*), or the deprecated gen_ai.prompt and gen_ai.completion,"
		case strings.HasPrefix(k, "llm.input_messages.") || strings.HasPrefix(k, "llm.output_messages."):
			c = "OpenInference's LLM span messages (llm.input_messages.*, llm.output_messages.*),"
		}
		if s.op != "execute_tool" {
			switch {
			case k == "openinference.span.kind" && v == "TOOL":
				c = "an OpenInference TOOL span (openinference.span.kind),"
			case k == "traceloop.span.kind" && v == "tool":
				c = "an OpenLLMetry tool span (traceloop.span.kind),"
			}
		}
		if c != "" && (found == "" || k < found) {
			found, conv = k, c
		}
	}
	if found == "" {
		return ""
	}
	return fmt.Sprintf("attribute %s: %s which tenet does not read: tenet reads the GenAI semantic conventions' gen_ai.input.messages and gen_ai.output.messages (chat spans) and execute_tool spans", build.Clip(found, 100), conv)
}

// attributes reads an OTLP KeyValue list into a map of plain values.
func attributes(v any) (map[string]any, string) {
	out := map[string]any{}
	if v == nil {
		return out, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, "attributes: want a list, got " + build.Kind(v)
	}
	for i, x := range list {
		kv, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("attributes[%d]: want an object {key, value}, got %s", i, build.Kind(x))
		}
		if k := unknownKey(kv, map[string]bool{"key": true, "value": true}); k != "" {
			return nil, fmt.Sprintf("attributes[%d]: unknown member %q", i, k)
		}
		key, ok := kv["key"].(string)
		if !ok {
			return nil, fmt.Sprintf("attributes[%d].key: want a string, got %s", i, build.KindOrMissing(kv, "key"))
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Sprintf("attributes[%d]: attribute %q given twice", i, build.Clip(key, 100))
		}
		val, msg := anyValue(kv["value"], 0)
		if msg != "" {
			return nil, fmt.Sprintf("attributes[%d] (%s).value: %s", i, build.Clip(key, 100), msg)
		}
		out[key] = val
	}
	return out, ""
}

// maxValueDepth bounds how deeply an attribute's arrayValue and
// kvlistValue nest (the JSON decoder's own bound is far deeper).
const maxValueDepth = 64

var tooDeep = fmt.Sprintf("arrayValue or kvlistValue nested deeper than %d levels", maxValueDepth)

// anyValue reads an OTLP AnyValue: {stringValue|boolValue|intValue|
// doubleValue|arrayValue|kvlistValue|bytesValue}, or {} for no value.
func anyValue(v any, depth int) (any, string) {
	if depth > maxValueDepth {
		return nil, tooDeep
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, "want an AnyValue object, got " + build.Kind(v)
	}
	if len(obj) == 0 {
		return nil, ""
	}
	if len(obj) > 1 {
		return nil, "an AnyValue has one member"
	}
	for k, x := range obj {
		switch k {
		case "stringValue", "bytesValue":
			s, ok := x.(string)
			if !ok {
				return nil, k + ": want a string, got " + build.Kind(x)
			}
			return s, ""
		case "boolValue":
			b, ok := x.(bool)
			if !ok {
				return nil, k + ": want a boolean, got " + build.Kind(x)
			}
			return b, ""
		case "intValue":
			switch n := x.(type) {
			case float64:
				return n, ""
			case string:
				i, err := strconv.ParseInt(n, 10, 64)
				if err != nil {
					return nil, fmt.Sprintf("intValue: want a decimal integer, got %q", build.Clip(n, 40))
				}
				return float64(i), ""
			}
			return nil, "intValue: want a string or a number, got " + build.Kind(x)
		case "doubleValue":
			n, ok := x.(float64)
			if !ok {
				return nil, "doubleValue: want a number, got " + build.Kind(x)
			}
			return n, ""
		case "arrayValue", "kvlistValue":
			wrap, ok := x.(map[string]any)
			if !ok {
				return nil, k + ": want an object {values: [...]}, got " + build.Kind(x)
			}
			vals, _ := wrap["values"].([]any)
			if k == "arrayValue" {
				out := make([]any, 0, len(vals))
				for i, e := range vals {
					ev, msg := anyValue(e, depth+1)
					if msg == tooDeep {
						return nil, msg
					}
					if msg != "" {
						return nil, fmt.Sprintf("arrayValue.values[%d]: %s", i, msg)
					}
					out = append(out, ev)
				}
				return out, ""
			}
			out := map[string]any{}
			for i, e := range vals {
				kv, _ := e.(map[string]any)
				key, ok := kv["key"].(string)
				if !ok {
					return nil, fmt.Sprintf("kvlistValue.values[%d].key: want a string", i)
				}
				ev, msg := anyValue(kv["value"], depth+1)
				if msg == tooDeep {
					return nil, msg
				}
				if msg != "" {
					return nil, fmt.Sprintf("kvlistValue.values[%d]: %s", i, msg)
				}
				out[key] = ev
			}
			return out, ""
		}
		return nil, fmt.Sprintf("unknown AnyValue member %q", build.Clip(k, 100))
	}
	return nil, ""
}

// runMeta checks that the spans form one run and gives meta.
func runMeta(spans []*span, resource map[string]any) (map[string]any, string) {
	traces := map[string]bool{}
	convTraces := map[string]bool{}
	var traceOrder []any
	conv := ""
	for _, s := range spans {
		if !traces[s.traceID] {
			traces[s.traceID] = true
			traceOrder = append(traceOrder, s.traceID)
		}
		c, ok := s.attrs[attrConversation]
		if !ok {
			continue
		}
		cs, ok := c.(string)
		if !ok {
			return nil, s.where() + ": " + attrConversation + ": want a string, got " + build.Kind(c)
		}
		if conv != "" && cs != conv {
			return nil, fmt.Sprintf("%s: %s %q, another than %q: one record is one run (one trace or conversation)", s.where(), attrConversation, build.Clip(cs, 100), build.Clip(conv, 100))
		}
		conv = cs
		convTraces[s.traceID] = true
	}
	if len(traces) > 1 && len(convTraces) != len(traces) {
		return nil, fmt.Sprintf("spans of %d traces that no %s joins: one record is one run (read the file with the otel-genai format, which groups a file's spans by trace)", len(traces), attrConversation)
	}
	meta := map[string]any{"trace_ids": traceOrder, "resource": resource}
	if conv != "" {
		meta["conversation_id"] = conv
	}
	if sn, ok := resource["service.name"]; ok {
		meta["service_name"] = sn
	}
	// The first span that names them gives the agent, model and provider.
	for _, f := range []struct{ attr, key string }{
		{"gen_ai.agent.name", "agent_name"}, {"gen_ai.agent.id", "agent_id"},
		{"gen_ai.request.model", "model"}, {"gen_ai.provider.name", "provider"},
	} {
		for _, s := range spans {
			if v, ok := s.attrs[f.attr]; ok {
				meta[f.key] = v
				break
			}
		}
	}
	return meta, ""
}
