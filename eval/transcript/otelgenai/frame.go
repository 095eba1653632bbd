package otelgenai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// spanOverhead is what one buffered span costs beside its JSON bytes
// (its slot, keys and bookkeeping), counted against the buffer bound so
// that a file of tiny spans is bounded too.
const spanOverhead = 256

// line is the shape the framer reads of one exported line: only what it
// needs to group spans; Decode reads the rest strictly.
type exportLine struct {
	ResourceSpans []resourceSpans `json:"resourceSpans"`
}

type resourceSpans struct {
	Resource   jsontext.Value `json:"resource,omitzero"`
	SchemaURL  jsontext.Value `json:"schemaUrl,omitzero"`
	ScopeSpans []scopeSpans   `json:"scopeSpans"`
}

type scopeSpans struct {
	Scope     jsontext.Value   `json:"scope,omitzero"`
	SchemaURL jsontext.Value   `json:"schemaUrl,omitzero"`
	Spans     []jsontext.Value `json:"spans"`
}

// spanKeys is what the framer reads of one span to group it and to check
// its trace's tree (at the span's line); types other than the
// conventions' are left to Decode to refuse.
type spanKeys struct {
	TraceID    string `json:"traceId"`
	SpanID     any    `json:"spanId"`
	Parent     any    `json:"parentSpanId"`
	Name       any    `json:"name"`
	Kind       any    `json:"kind"`
	Flags      any    `json:"flags"`
	Attributes []struct {
		Key   string `json:"key"`
		Value struct {
			StringValue *string `json:"stringValue"`
		} `json:"value"`
	} `json:"attributes"`
}

// group is the spans of one (line, resourceSpans, scopeSpans) that belong
// to one trace: they keep their resource and scope.
type group struct {
	resource, rsSchema, scope, ssSchema jsontext.Value
	line                                int
	spans                               []jsontext.Value
	nodes                               []node // one per span
}

type trace struct {
	id     string
	line   int // line of its first span
	conv   string
	groups []*group
}

type records struct {
	file   string
	lines  frame.RecordReader
	limit  int // bound on buffered bytes
	used   int
	traces map[string]*trace
	order  []*trace
	out    []output // runs (or their errors) to give, after EOF
	done   bool     // input read (or abandoned)
}

// Frame is the Framer of otel-genai. Each line is an OTLP/JSON
// ExportTraceServiceRequest; a line that is not (bad JSON, other members,
// a span without a string traceId) is an *frame.Error for that line and
// its spans are not read. As a trace's spans may come on any line, Frame
// reads the whole file before giving its first record: it buffers every
// span, counted as its JSON bytes plus 256, up to opt.RecordBytes() in
// total (--max-record-bytes, 64 MiB by default). The line that would cross
// that bound is an *frame.Error saying so, and the file's reading ends
// there: no run of the file is given (its traces may be incomplete), and
// later calls return io.EOF. Lines longer than the bound or nested deeper
// than opt.MaxDepth are errors as in frame.JSONL.
//
// Then it gives one record per run, in the order of each run's first line:
// a run is a trace, or all the traces whose spans carry one
// gen_ai.conversation.id (the first one a trace's spans carry). The
// record is an ExportTraceServiceRequest holding only that run's spans,
// each with its resource and scope, in file order; its Origin line is
// that of the run's first span.
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &records{file: file, lines: frame.JSONL(file, r, opt), limit: opt.RecordBytes(), traces: map[string]*trace{}}
}

func (r *records) Next() (frame.RawRecord, error) {
	for !r.done {
		rec, err := r.lines.Next()
		if err == io.EOF {
			r.done = true
			r.out = r.runs()
			break
		}
		if err != nil {
			return frame.RawRecord{}, err
		}
		if msg := r.add(rec); msg != "" {
			ferr := &frame.Error{File: r.file, Line: rec.Origin.Line, Msg: msg}
			if r.used > r.limit {
				// Abandon the file: what was buffered may be a part of
				// its traces only.
				r.done, r.traces, r.order = true, nil, nil
			}
			return frame.RawRecord{}, ferr
		}
	}
	if len(r.out) == 0 {
		return frame.RawRecord{}, io.EOF
	}
	o := r.out[0]
	r.out[0] = output{}
	r.out = r.out[1:]
	if o.err != nil {
		return frame.RawRecord{}, o.err
	}
	return o.rec, nil
}

// output is a run's record, or the error that refuses it.
type output struct {
	rec frame.RawRecord
	err *frame.Error
}

// add buffers the spans of one line.
func (r *records) add(rec frame.RawRecord) string {
	var ln exportLine
	if err := jsonv2.Unmarshal(rec.Data, &ln, jsonv2.RejectUnknownMembers(true)); err != nil {
		// Name the likely format of a line of another one.
		var v any
		if json.Unmarshal(rec.Data, &v) == nil {
			other, ok := v.(map[string]any)
			if !ok {
				return "want an OTLP/JSON trace export object {\"resourceSpans\": [...]}, got " + build.Kind(v)
			}
			if other["resourceSpans"] == nil {
				return otherFormat(other)
			}
		}
		return "not an OTLP/JSON trace export line {\"resourceSpans\": [...]}: " + err.Error()
	}
	line := rec.Origin.Line
	type pending struct {
		t *trace
		g *group
	}
	var adds []pending
	size := 0
	for _, rs := range ln.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			byTrace := map[string]*group{}
			for k, sp := range ss.Spans {
				var keys spanKeys
				if err := jsonv2.Unmarshal(sp, &keys); err != nil {
					return fmt.Sprintf("span %d: %v", k, err)
				}
				if keys.TraceID == "" {
					return fmt.Sprintf("span %d: traceId: want a non-empty string", k)
				}
				// OTLP/JSON ids are case-insensitive hex.
				id := strings.ToLower(keys.TraceID)
				t := r.traces[id]
				if t == nil {
					t = &trace{id: id, line: line}
					r.traces[id] = t
					r.order = append(r.order, t)
				}
				for _, a := range keys.Attributes {
					if a.Key == attrConversation && a.Value.StringValue != nil && t.conv == "" {
						t.conv = *a.Value.StringValue
					}
				}
				g := byTrace[id]
				if g == nil {
					g = &group{resource: bytes.Clone(rs.Resource), rsSchema: bytes.Clone(rs.SchemaURL),
						scope: bytes.Clone(ss.Scope), ssSchema: bytes.Clone(ss.SchemaURL), line: line}
					byTrace[id] = g
					adds = append(adds, pending{t, g})
				}
				g.spans = append(g.spans, bytes.Clone(sp))
				name, _ := keys.Name.(string)
				g.nodes = append(g.nodes, newNode(t.id, idText(keys.SpanID), idText(keys.Parent), strings.Clone(build.Clip(name, 100)), keys.Kind, keys.Flags))
				size += len(sp) + spanOverhead
			}
		}
	}
	r.used += size
	if r.used > r.limit {
		return fmt.Sprintf("otel-genai buffers a file's spans until its end to group them by trace, and this line takes them over the limit of %d bytes: no run of this file is read (raise --max-record-bytes or split the file by trace)", r.limit)
	}
	for _, p := range adds {
		p.t.groups = append(p.t.groups, p.g)
	}
	return ""
}

// runs groups the buffered traces into runs and encodes one record each.
func (r *records) runs() []output {
	type runGroup struct {
		line   int
		traces []*trace
	}
	var order []*runGroup
	byConv := map[string]*runGroup{}
	for _, t := range r.order {
		if len(t.groups) == 0 {
			continue
		}
		if t.conv != "" {
			if g := byConv[t.conv]; g != nil {
				g.traces = append(g.traces, t)
				continue
			}
		}
		g := &runGroup{line: t.line, traces: []*trace{t}}
		if t.conv != "" {
			byConv[t.conv] = g
		}
		order = append(order, g)
	}
	out := make([]output, 0, len(order))
	for _, g := range order {
		var groups []*group
		for _, t := range g.traces {
			groups = append(groups, t.groups...)
		}
		if err := r.checkTrees(groups); err != nil {
			out = append(out, output{err: err})
			continue
		}
		out = append(out, output{rec: frame.RawRecord{Origin: run.Origin{File: r.file, Line: g.line}, Data: encode(groups)}})
	}
	r.traces, r.order = nil, nil
	return out
}

// checkTrees refuses a run whose spans do not form whole traces
// (tree.go), at the line of the first span that breaks a rule, which may
// come after the run's first line. Decode checks again, for records not
// framed here.
func (r *records) checkTrees(groups []*group) *frame.Error {
	var lines []int
	var nodes []node
	for _, g := range groups {
		for _, n := range g.nodes {
			lines = append(lines, g.line)
			nodes = append(nodes, n)
		}
	}
	// Spans in file order: the groups of a run are trace by trace.
	idx := make([]int, len(nodes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return lines[idx[a]] < lines[idx[b]] })
	sorted := make([]node, len(nodes))
	for i, k := range idx {
		sorted[i] = nodes[k]
	}
	bad, msg := checkTrees(sorted)
	if bad < 0 {
		return nil
	}
	return &frame.Error{File: r.file, Line: lines[idx[bad]], Msg: msg}
}

// idText is a span id as the framer compares it: a string as is; another
// JSON value (which Decode refuses) as its JSON text, so that it matches
// no id.
func idText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// encode writes groups as one ExportTraceServiceRequest.
func encode(groups []*group) []byte {
	var b bytes.Buffer
	b.WriteString(`{"resourceSpans":[`)
	for i, g := range groups {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		if len(g.resource) > 0 {
			b.WriteString(`"resource":`)
			b.Write(g.resource)
			b.WriteByte(',')
		}
		if len(g.rsSchema) > 0 {
			b.WriteString(`"schemaUrl":`)
			b.Write(g.rsSchema)
			b.WriteByte(',')
		}
		b.WriteString(`"scopeSpans":[{`)
		if len(g.scope) > 0 {
			b.WriteString(`"scope":`)
			b.Write(g.scope)
			b.WriteByte(',')
		}
		if len(g.ssSchema) > 0 {
			b.WriteString(`"schemaUrl":`)
			b.Write(g.ssSchema)
			b.WriteByte(',')
		}
		b.WriteString(`"spans":[`)
		for j, sp := range g.spans {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(sp)
		}
		b.WriteString(`]}]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}
