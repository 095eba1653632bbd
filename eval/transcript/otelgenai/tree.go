package otelgenai

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// A run is judged only when its spans are whole traces: a file holding
// part of a trace (the collector's file exporter rotated it, or the
// trace's batches went to different files) would otherwise be judged as
// the whole run, and a call in the missing part ("the agent sent money")
// would read as never made — false where the truth is unknown. OTLP spans
// name their parent, never their children, so what can be checked is that
// every named parent is present; the rules are in checkTrees.

// The OTLP SpanFlags bits (opentelemetry/proto/trace/v1/trace.proto):
// bit 8 says whether the parent's remoteness is known, bit 9 that the
// parent is remote (in another process).
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

// The OTLP SpanKind values of a span that receives a remote request or
// message: its parent is the caller's span, exported by another service.
const (
	kindServer   = 2
	kindConsumer = 5
)

// node is what the tree check reads of one span.
type node struct {
	trace, id, parent string // lower-cased hex (OTLP/JSON ids are case-insensitive)
	name              string
	kind              int64  // -1 when absent or not an OTLP SpanKind
	flags             uint64 // 0 when absent
}

// newNode reads a span's ids, kind and flags as decoded JSON values.
func newNode(traceID, spanID, parent, name string, kind, flags any) node {
	n := node{trace: strings.ToLower(traceID), id: strings.ToLower(spanID), parent: strings.ToLower(parent), name: name}
	if strings.Trim(n.parent, "0") == "" {
		// All zeros is the invalid span id (W3C Trace Context): no parent,
		// as some converters write a root's.
		n.parent = ""
	}
	n.kind, _ = enumOrNumber(kind, kindNames)
	if f, ok := enumOrNumber(flags, nil); ok {
		n.flags = uint64(f)
	}
	return n
}

// kindNames are the protobuf JSON mapping's names of the kinds that
// matter here (OTLP/JSON writes numbers; status codes are read either way
// too).
var kindNames = map[string]int64{"SPAN_KIND_SERVER": kindServer, "SPAN_KIND_CONSUMER": kindConsumer}

// enumOrNumber reads an OTLP enum or fixed32 value: a number, a decimal
// string, or (for enums, which OTLP/JSON writes as numbers but protobuf's
// JSON mapping also as names) one of names.
func enumOrNumber(v any, names map[string]int64) (int64, bool) {
	switch t := v.(type) {
	case float64:
		if t == float64(int64(t)) && t >= 0 && t < 1<<32 {
			return int64(t), true
		}
	case string:
		if n, ok := names[t]; ok {
			return n, true
		}
		if n, err := strconv.ParseInt(t, 10, 64); err == nil && n >= 0 && n < 1<<32 {
			return n, true
		}
	}
	return -1, false
}

// remoteParent says whether a span whose parent is missing may have that
// parent in another service's export. The flags decide when they say:
// parent remote (accepted) or parent local (refused: a local parent is
// exported by the same SDK, so its absence means the file is cut). When
// they do not say, a SERVER or CONSUMER span is taken as the local root of
// a request or message from another service; any other kind is refused.
func (n node) remoteParent() bool {
	if n.flags&flagHasIsRemote != 0 {
		return n.flags&flagIsRemote != 0
	}
	return n.kind == kindServer || n.kind == kindConsumer
}

// checkTrees checks that the spans of a run form whole trees, one per
// trace: span ids are unique within a trace; at most one span of a trace
// has no parentSpanId (its root); every other span's parent is a span of
// the same trace in the run, except a span whose parent is remote
// (remoteParent), which is a local root; and following parents from any
// span ends at a root (no cycle). It returns the index of the first span
// (in the order given) that breaks a rule and why, or -1.
func checkTrees(ns []node) (int, string) {
	type key struct{ trace, id string }
	byID := make(map[key]int, len(ns))
	root := map[string]int{}
	for i, n := range ns {
		if n.id != "" {
			if j, dup := byID[key{n.trace, n.id}]; dup {
				return i, fmt.Sprintf("span %q (%q) has the id of span %q (%q) of the same trace: the span was exported twice (an export concatenated with itself?) or span ids are reused; a trace's span ids are unique", clipID(n.id), build.Clip(n.name, 100), clipID(ns[j].id), build.Clip(ns[j].name, 100))
			}
			byID[key{n.trace, n.id}] = i
		}
		if n.parent == "" {
			if j, two := root[n.trace]; two {
				return i, fmt.Sprintf("span %q (%q) is a second root span (no parentSpanId) of trace %q, beside %q (%q): a trace has one root; spans of different runs may share a trace id", clipID(n.id), build.Clip(n.name, 100), clipID(n.trace), clipID(ns[j].id), build.Clip(ns[j].name, 100))
			}
			root[n.trace] = i
		}
	}
	for i, n := range ns {
		if n.parent == "" {
			continue
		}
		if _, ok := byID[key{n.trace, n.parent}]; !ok && !n.remoteParent() {
			return i, fmt.Sprintf("span %q (%q) names parent span %q, which is not among the spans of trace %q: the trace is cut (the exporter rotated the file, or its batches went to different files), and judging part of a run as the whole could read a call as never made. otel-genai groups spans by trace within one file, not across files: give all of a trace's spans in one file (concatenate the files: cat a.jsonl b.jsonl > all.jsonl). A parent exported by another service is accepted when the span's flags mark it remote (0x300) or its kind is SERVER or CONSUMER", clipID(n.id), build.Clip(n.name, 100), clipID(n.parent), clipID(n.trace))
		}
	}
	// Cycles: walk up from each span, marking spans whose walk ended at a
	// root (done) so that each span is walked once.
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(ns))
	var path []int
	for i := range ns {
		path = path[:0]
		for j := i; state[j] != done; {
			if state[j] == onPath {
				return j, fmt.Sprintf("span %q (%q) is its own ancestor (its parents form a cycle): the spans do not form a trace", clipID(ns[j].id), build.Clip(ns[j].name, 100))
			}
			state[j] = onPath
			path = append(path, j)
			p, ok := byID[key{ns[j].trace, ns[j].parent}]
			if ns[j].parent == "" || !ok {
				break // a root, or a local root under a remote parent
			}
			j = p
		}
		for _, k := range path {
			state[k] = done
		}
	}
	return -1, ""
}

func clipID(s string) string { return build.Clip(s, 64) }
