package view

import (
	"fmt"
	"reflect"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/audit"
	"github.com/tenetlang/tenet/eval/run"
)

// Values are a run's CEL values, built once per run and shared by every
// expression (predicates, criteria, step guards).
//
// Events and calls are CEL maps keyed by the field names of tenet.Event and
// tenet.Call (compiler/celenv). They are not Go maps: an eventVal or callVal
// reads its fields from the run.Event or run.Call on first use and keeps the
// CEL value, so a field that criteria read in every fold costs one
// conversion per run, and fields no expression reads cost nothing. They
// behave exactly as the Go maps they replace (map[string]any converted by
// cel-go): same keys, sizes, equality, presence tests, conversions (explain
// prints them through ConvertToNative) and cost.
//
// Values are reused: Release hands them back to their Decls, whose next Of
// fills the same arrays for another run instead of allocating them again.
type Values struct {
	p                      *Decls
	events, calls, results ref.Val // lists
	eventVals              []*eventVal
	callVals               []*callVal // generic: raw args
	typedVals              []*callVal // per call: its typed value (tools.<name> element), or the generic one
	tools                  *toolsVal
	output                 ref.Val
	pre, post              any
	meta                   map[string]any
	// The arrays behind the fields above and the scopes, kept for the
	// next run; between runs every element is zero.
	callStore, typedStore []callVal
	eventStore            []eventVal
	callRefs, eventRefs   []ref.Val
	resultRefs            []ref.Val
	isResult              []bool
	toolsStore            toolsVal
	scopeStore            []Scope
	scopes                []*Scope
}

// Of converts a run, filling each call's operation from the registry.
func (p *Decls) Of(r *run.Run) *Values {
	v, _ := p.free.Get().(*Values)
	if v == nil {
		v = &Values{}
	}
	v.p, v.output, v.pre, v.post, v.meta = p, types.String(r.Output), r.Pre, r.Post, r.Meta
	if v.meta == nil {
		v.meta = map[string]any{}
	}
	n := len(r.Calls)
	v.callStore = zeroed(v.callStore, n)
	v.callVals = zeroed(v.callVals, n)
	v.typedVals = zeroed(v.typedVals, n)
	v.callRefs = zeroed(v.callRefs, n)
	v.typedStore = zeroed(v.typedStore, p.schemaCalls(r.Calls)) // one per call of a tool with a schema
	typed := 0
	for i, c := range r.Calls {
		cv := &v.callStore[i]
		cv.c, cv.v = c, v
		cv.lazyMap = lazyMap{cv, p.adapter}
		v.callVals[i], v.typedVals[i], v.callRefs[i] = cv, cv, cv
		if t, ok := p.tools[c.Tool]; ok && t.HasSchema {
			tv := &v.typedStore[typed]
			typed++
			tv.c, tv.v, tv.tool = c, v, t
			tv.lazyMap = lazyMap{tv, p.adapter}
			v.typedVals[i] = tv
		}
	}
	v.calls = types.NewRefValList(p.adapter, v.callRefs)
	v.tools = &v.toolsStore
	v.tools.v = v
	v.tools.lazyMap = lazyMap{v.tools, p.adapter}

	m := len(r.Events)
	v.eventStore = zeroed(v.eventStore, m)
	v.eventVals = zeroed(v.eventVals, m)
	v.eventRefs = zeroed(v.eventRefs, m)
	// results are the events that carry a result: tool and function
	// messages, and messages with tool_result content blocks — a nested
	// call's too (anthropic-messages answers a call a server tool made
	// with a tool_result of its own; a call nested in arguments has none).
	v.isResult = zeroed(v.isResult, m)
	for _, c := range r.Calls {
		if c.ResultEvent >= 0 && c.ResultEvent < m {
			v.isResult[c.ResultEvent] = true
		}
	}
	results := v.resultRefs[:0]
	for i, e := range r.Events {
		ev := &v.eventStore[i]
		ev.e, ev.v = e, v
		ev.lazyMap = lazyMap{ev, p.adapter}
		v.eventVals[i], v.eventRefs[i] = ev, ev
		if v.isResult[i] {
			results = append(results, ev)
		}
	}
	v.resultRefs = results
	v.events = types.NewRefValList(p.adapter, v.eventRefs)
	if results == nil {
		results = []ref.Val{}
	}
	v.results = types.NewRefValList(p.adapter, results)
	return v
}

// zeroed returns s resliced to n elements when its capacity allows (the
// elements are zero: Release clears what a run used), else a new slice.
func zeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Scopes returns n scopes over these values, each with an empty Pred map:
// the caller sets their other fields. They are reused with the Values.
func (v *Values) Scopes(n int) []*Scope {
	v.scopeStore = zeroed(v.scopeStore, n)
	v.scopes = zeroed(v.scopes, n)
	for i := range v.scopeStore {
		sc := &v.scopeStore[i]
		sc.Values = v
		if sc.Pred == nil {
			sc.Pred = map[string]any{}
		}
		v.scopes[i] = sc
	}
	return v.scopes
}

// Release hands the values back for another run's Of. Nothing may use
// them, or any value read from them, afterwards: the caller releases them
// only when no CEL value of the run outlives its judging (explain keeps
// them, and does not release). Clearing here also lets the run itself be
// collected while the arrays wait.
func (v *Values) Release() {
	clear(v.callStore)
	clear(v.typedStore)
	clear(v.callVals)
	clear(v.typedVals)
	clear(v.callRefs)
	clear(v.eventStore)
	clear(v.eventVals)
	clear(v.eventRefs)
	clear(v.resultRefs)
	clear(v.isResult)
	clear(v.toolsStore.lists)
	lists := v.toolsStore.lists
	v.toolsStore = toolsVal{lists: lists}
	for i := range v.scopeStore {
		pred := v.scopeStore[i].Pred
		clear(pred)
		v.scopeStore[i] = Scope{Pred: pred}
	}
	clear(v.scopes)
	p := v.p
	v.p, v.events, v.calls, v.results, v.tools, v.output, v.pre, v.post, v.meta = nil, nil, nil, nil, nil, nil, nil, nil, nil
	p.free.Put(v)
}

// schemaCalls counts the calls of tools with a schema (which get a typed
// value besides the generic one).
func (p *Decls) schemaCalls(calls []*run.Call) int {
	n := 0
	for _, c := range calls {
		if t, ok := p.tools[c.Tool]; ok && t.HasSchema {
			n++
		}
	}
	return n
}

// itemValue is an item's CEL value as a step sees it: an event, or a call —
// typed (tools.<name>'s element) for a step naming the tool, generic (raw
// args) for a step selecting any call.
func (v *Values) itemValue(event, call int, typed bool) ref.Val {
	switch {
	case call < 0:
		return v.eventVals[event]
	case typed:
		return v.typedVals[call]
	}
	return v.callVals[call]
}

// Field names in key order (the order of Iterator).
var (
	eventFields = []string{"blocks", "call_id", "calls", "content", "error", "failed", "index", "role", "tool"}
	callFields  = []string{"args", "args_error", "depth", "error", "event", "id", "index", "mismatch", "ok", "operation", "parent", "requested_args", "requested_tool", "resource", "result", "result_event", "tool"}
	// typedCallFields are a typed call's: args conformed to the tool's
	// schema, and raw_args as sent.
	typedCallFields = []string{"args", "args_error", "depth", "error", "event", "id", "index", "mismatch", "ok", "operation", "parent", "raw_args", "requested_args", "requested_tool", "resource", "result", "result_event", "tool"}
)

// Field slots of the cached scalar values.
const (
	fIndex = iota
	fEvent
	fID
	fTool
	fOperation
	fArgsError
	fResource
	fOk
	fResult
	fError
	fResultEvent
	fDepth
	fParent
	fMismatch
	fRequestedTool
	nCallSlots
)

// Field slots of an event's cached scalar values (fewer than a call's:
// a run has more events than calls, and each slot is 16 bytes).
const (
	eIndex = iota
	eRole
	eContent
	eCallID
	eTool
	eError
	eFailed
	nEventSlots
)

// callVal is a tool call as CEL sees it (see Values).
type callVal struct {
	lazyMap
	c     *run.Call
	v     *Values
	tool  *bundle.Tool // set for a typed call: args conformed to its schema
	typed map[string]any
	slots [nCallSlots]ref.Val
}

// raw returns the Go value field name had in the map this type replaces,
// without converting it.
func (cv *callVal) raw(name string) (any, bool) {
	c := cv.c
	switch name {
	case "args":
		if cv.tool != nil {
			if cv.typed == nil {
				cv.typed = audit.ConformArgs(cv.tool.Name, c.Args, cv.tool.Params)
			}
			return cv.typed, true
		}
		return rawArgs(c), true
	case "raw_args":
		if cv.tool != nil {
			return rawArgs(c), true
		}
	case "requested_args":
		return requestedArgs(c), true
	}
	return nil, false
}

// requestedArgs are the arguments as requested: the raw args unless what
// ran replaced them.
func requestedArgs(c *run.Call) map[string]any {
	if c.RequestedArgs != nil {
		return c.RequestedArgs
	}
	return rawArgs(c)
}

// requestedTool is the tool as requested: the tool unless what ran
// replaced it.
func requestedTool(c *run.Call) string {
	if c.RequestedTool != "" {
		return c.RequestedTool
	}
	return c.Tool
}

// okVal is the call's ok: an error, so that criteria reading it are
// unknown, when whether the call ran is unknown.
func okVal(c *run.Call) ref.Val {
	if c.OkUnknown != "" {
		return types.NewErr("call %d: ok is unknown: %s", c.Index, c.OkUnknown)
	}
	return types.Bool(c.Ok)
}

func rawArgs(c *run.Call) map[string]any {
	if c.Args == nil {
		return map[string]any{}
	}
	return c.Args
}

// slot returns the CEL value of a scalar field, converting it once.
func (cv *callVal) slot(name string) (ref.Val, bool) {
	var i int
	switch name {
	case "index":
		i = fIndex
	case "event":
		i = fEvent
	case "id":
		i = fID
	case "tool":
		i = fTool
	case "operation":
		i = fOperation
	case "args_error":
		i = fArgsError
	case "resource":
		i = fResource
	case "ok":
		i = fOk
	case "result":
		i = fResult
	case "error":
		i = fError
	case "result_event":
		i = fResultEvent
	case "depth":
		i = fDepth
	case "parent":
		i = fParent
	case "mismatch":
		i = fMismatch
	case "requested_tool":
		i = fRequestedTool
	default:
		return nil, false
	}
	if v := cv.slots[i]; v != nil {
		return v, true
	}
	c := cv.c
	var v ref.Val
	switch i {
	case fIndex:
		v = types.Int(c.Index)
	case fEvent:
		v = types.Int(c.Event)
	case fID:
		v = types.String(c.ID)
	case fTool:
		v = types.String(c.Tool)
	case fOperation:
		v = types.String(cv.v.p.ops[c.Tool])
	case fArgsError:
		v = types.String(c.ArgsError)
	case fResource:
		v = types.String(cv.v.p.resourceOf(c))
	case fOk:
		v = okVal(c)
	case fResult:
		v = types.String(c.Result)
	case fError:
		v = types.String(c.Error)
	case fResultEvent:
		v = types.Int(c.ResultEvent)
	case fDepth:
		v = types.Int(c.Depth)
	case fParent:
		v = types.Int(c.Parent)
	case fMismatch:
		v = types.String(c.Mismatch)
	case fRequestedTool:
		v = types.String(requestedTool(c))
	}
	cv.slots[i] = v
	return v, true
}

// FindStringKey is the interpreter's fast path for field selection: it
// returns what the replaced Go map held (Go maps for args, so that further
// selection works as before; CEL values for scalars).
func (cv *callVal) FindStringKey(name string) (any, bool) {
	if v, ok := cv.slot(name); ok {
		return v, true
	}
	return cv.raw(name)
}

func (cv *callVal) fieldNames() []string {
	if cv.tool != nil {
		return typedCallFields
	}
	return callFields
}

// asMap builds the Go map this value stands for, of Go values only, as
// the run's values were before (for conversions, comparisons with other
// maps, Value and String: not the hot path).
func (cv *callVal) asMap() map[string]any {
	c := cv.c
	m := map[string]any{
		"index": c.Index, "event": c.Event, "id": c.ID, "tool": c.Tool,
		"operation": cv.v.p.ops[c.Tool], "args": rawArgs(c), "args_error": c.ArgsError, "resource": cv.v.p.resourceOf(c),
		"ok": c.Ok, "result": c.Result, "error": c.Error, "result_event": c.ResultEvent,
		"depth": c.Depth, "parent": c.Parent,
		"requested_tool": requestedTool(c), "requested_args": requestedArgs(c), "mismatch": c.Mismatch,
	}
	if c.OkUnknown != "" {
		m["ok"] = okVal(c)
	}
	if cv.tool != nil {
		m["args"], _ = cv.raw("args")
		m["raw_args"] = rawArgs(c)
	}
	return m
}

// keys are the map's keys, in order.
func (cv *callVal) keys() []string { return cv.fieldNames() }

// eventVal is an event as CEL sees it (see Values).
type eventVal struct {
	lazyMap
	e     *run.Event
	v     *Values
	calls ref.Val
	slots [nEventSlots]ref.Val
}

func (ev *eventVal) slot(name string) (ref.Val, bool) {
	var i int
	switch name {
	case "index":
		i = eIndex
	case "role":
		i = eRole
	case "content":
		i = eContent
	case "call_id":
		i = eCallID
	case "tool":
		i = eTool
	case "error":
		i = eError
	case "failed":
		i = eFailed
	default:
		return nil, false
	}
	if v := ev.slots[i]; v != nil {
		return v, true
	}
	e := ev.e
	var v ref.Val
	switch i {
	case eIndex:
		v = types.Int(e.Index)
	case eRole:
		v = types.String(e.Role)
	case eContent:
		v = types.String(e.Content)
	case eCallID:
		v = types.String(e.CallID)
	case eTool:
		v = types.String(e.Tool)
	case eError:
		v = types.String(e.Error)
	case eFailed:
		v = failedVal(e)
	}
	ev.slots[i] = v
	return v, true
}

// callList is the event's calls: the generic values of the calls it
// requested.
func (ev *eventVal) callList() ref.Val {
	if ev.calls == nil {
		cs := ev.v.callVals
		ec := make([]ref.Val, 0, len(ev.e.Calls))
		for _, ci := range ev.e.Calls {
			if ci >= 0 && ci < len(cs) {
				ec = append(ec, cs[ci])
			}
		}
		ev.calls = types.NewRefValList(ev.v.p.adapter, ec)
	}
	return ev.calls
}

func (ev *eventVal) blocks() []any {
	if ev.e.Blocks == nil {
		return []any{}
	}
	return ev.e.Blocks
}

// FindStringKey: see callVal.FindStringKey.
func (ev *eventVal) FindStringKey(name string) (any, bool) {
	if v, ok := ev.slot(name); ok {
		return v, true
	}
	switch name {
	case "blocks":
		return ev.blocks(), true
	case "calls":
		return ev.callList(), true
	}
	return nil, false
}

func (ev *eventVal) asMap() map[string]any {
	e := ev.e
	ec := make([]any, 0, len(e.Calls))
	for _, ci := range e.Calls {
		if ci >= 0 && ci < len(ev.v.callVals) {
			ec = append(ec, ev.v.callVals[ci].asMap())
		}
	}
	m := map[string]any{
		"index": e.Index, "role": e.Role, "content": e.Content, "blocks": ev.blocks(),
		"calls": ec, "call_id": e.CallID, "tool": e.Tool, "error": e.Error, "failed": e.Failed,
	}
	if e.FailedUnknown != "" {
		m["failed"] = failedVal(e)
	}
	return m
}

// failedVal is the event's failed: an error, so that criteria reading it
// are unknown, when whether the result reports an error is unknown.
func failedVal(e *run.Event) ref.Val {
	if e.FailedUnknown != "" {
		return types.NewErr("event %d: failed is unknown: %s", e.Index, e.FailedUnknown)
	}
	return types.Bool(e.Failed)
}

func (ev *eventVal) keys() []string { return eventFields }

// toolsVal is `tools`: per declared tool, the list of its calls (typed
// when the tool has a schema), built on first use.
type toolsVal struct {
	lazyMap
	v     *Values
	lists map[string]ref.Val
}

func (tv *toolsVal) list(name string) (ref.Val, bool) {
	if l, ok := tv.lists[name]; ok {
		return l, true
	}
	p := tv.v.p
	if _, ok := p.tools[name]; !ok {
		return nil, false
	}
	var elems []ref.Val
	for i, cv := range tv.v.typedVals {
		if cv.c.Tool == name {
			elems = append(elems, tv.v.typedVals[i])
		}
	}
	if elems == nil {
		elems = []ref.Val{}
	}
	l := types.NewRefValList(p.adapter, elems)
	if tv.lists == nil {
		tv.lists = map[string]ref.Val{}
	}
	tv.lists[name] = l
	return l, true
}

func (tv *toolsVal) FindStringKey(name string) (any, bool) { return tv.list(name) }

func (tv *toolsVal) asMap() map[string]any {
	m := make(map[string]any, len(tv.v.p.decls))
	for _, t := range tv.v.p.decls {
		calls := []any{}
		for _, cv := range tv.v.typedVals {
			if cv.c.Tool == t.Name {
				calls = append(calls, cv.asMap())
			}
		}
		m[t.Name] = calls
	}
	return m
}

func (tv *toolsVal) names() []string {
	names := make([]string, len(tv.v.p.decls))
	for i, t := range tv.v.p.decls {
		names[i] = t.Name
	}
	return names
}

func (tv *toolsVal) keys() []string { return tv.names() }

// fieldSource is a map-like value whose entries are read on demand:
// callVal, eventVal and toolsVal.
type fieldSource interface {
	FindStringKey(name string) (any, bool) // the entry, as a Go value or a ref.Val
	asMap() map[string]any                 // the Go map the value stands for
	keys() []string
}

// lazyMap implements ref.Val and traits.Mapper over a fieldSource: it
// behaves as cel-go's conversion of asMap() would — the same keys, size,
// equality both ways, JSON and string forms — but converts one entry at a
// time, when it is read. Embedded in each fieldSource, pointing back at it.
type lazyMap struct {
	src     fieldSource
	adapter types.Adapter
}

func (m lazyMap) source() fieldSource { return m.src }

func (m lazyMap) find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	v, ok := m.src.FindStringKey(string(s))
	if !ok {
		return nil, false
	}
	return m.adapter.NativeToValue(v), true
}

func (m lazyMap) asVal() ref.Val { return m.adapter.NativeToValue(m.src.asMap()) }

func (m lazyMap) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return m.asVal().ConvertToNative(typeDesc)
}
func (m lazyMap) ConvertToType(t ref.Type) ref.Val { return m.asVal().ConvertToType(t) }
func (m lazyMap) Equal(other ref.Val) ref.Val {
	if o, ok := other.(interface{ source() fieldSource }); ok && o.source() == m.src {
		return types.True
	}
	return m.asVal().Equal(other)
}
func (m lazyMap) Type() ref.Type { return types.MapType }

// String formats the value as cel-go formats the map it stands for.
func (m lazyMap) String() string { return fmt.Sprint(m.asVal()) }
func (m lazyMap) Value() any     { return m.src.asMap() }
func (m lazyMap) Contains(key ref.Val) ref.Val {
	_, ok := m.find(key)
	return types.Bool(ok)
}
func (m lazyMap) Get(key ref.Val) ref.Val {
	v, ok := m.find(key)
	if !ok {
		return types.NewErr("no such key: %v", key)
	}
	return v
}
func (m lazyMap) Find(key ref.Val) (ref.Val, bool) { return m.find(key) }
func (m lazyMap) Size() ref.Val                    { return types.Int(len(m.src.keys())) }
func (m lazyMap) Iterator() traits.Iterator        { return newKeyIterator(m.src.keys()) }

// keyIterator iterates over field names.
type keyIterator struct {
	keys []string
	i    int
}

func newKeyIterator(keys []string) *keyIterator { return &keyIterator{keys: keys} }

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }
func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return nil
	}
	it.i++
	return types.String(it.keys[it.i-1])
}
func (it *keyIterator) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return nil, fmt.Errorf("iterator cannot be converted to %v", typeDesc)
}
func (it *keyIterator) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("iterator cannot be converted")
}
func (it *keyIterator) Equal(other ref.Val) ref.Val { return types.False }
func (it *keyIterator) Type() ref.Type              { return types.IteratorType }
func (it *keyIterator) Value() any                  { return nil }

var (
	_ traits.Mapper = (*callVal)(nil)
	_ traits.Mapper = (*eventVal)(nil)
	_ traits.Mapper = (*toolsVal)(nil)
)

// resourceOf is the value of the argument a call's tool names as its
// resource, when it is a string; else "".
func (p *Decls) resourceOf(c *run.Call) string {
	t, ok := p.tools[c.Tool]
	if !ok || t.Resource == "" {
		return ""
	}
	s, _ := c.Args[t.Resource].(string)
	return s
}
