package pike

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// Item is one element of a run's item stream (docs/patterns.md): a message
// (Event ≥ 0) or a tool call (Call ≥ 0); the other is -1.
type Item struct{ Event, Call int }

// String names an item as reports and the runs file do: "event:3", "call:1".
func (it Item) String() string {
	if it.Call >= 0 {
		return "call:" + strconv.Itoa(it.Call)
	}
	return "event:" + strconv.Itoa(it.Event)
}

// Stream orders a run's messages and calls: each message, then the
// calls it requested, each followed by the calls nested in its arguments;
// a top-level call nobody requested just before its result. A nested
// call a message requested itself (anthropic-messages: a tool_use a
// server tool call made, which may come messages after that call) stands
// where that message requested it, once, not after its parent.
func Stream(r *run.Run) []Item {
	requested := make([]bool, len(r.Calls))
	for _, e := range r.Events {
		for _, ci := range e.Calls {
			if ci >= 0 && ci < len(requested) {
				requested[ci] = true
			}
		}
	}
	orphans := map[int][]int{}  // result event → unrequested top-level calls
	children := map[int][]int{} // call → calls nested in its arguments
	for i, c := range r.Calls {
		switch {
		case c.Parent >= 0 && !requested[i]:
			children[c.Parent] = append(children[c.Parent], i)
		case !requested[i]:
			orphans[c.Event] = append(orphans[c.Event], i)
		}
	}
	items := make([]Item, 0, len(r.Events)+len(r.Calls))
	var call func(ci int)
	call = func(ci int) {
		items = append(items, Item{Event: -1, Call: ci})
		for _, nc := range children[ci] {
			call(nc)
		}
	}
	for _, e := range r.Events {
		for _, ci := range orphans[e.Index] {
			call(ci)
		}
		items = append(items, Item{Event: e.Index, Call: -1})
		for _, ci := range e.Calls {
			call(ci)
		}
	}
	return items
}

// Span returns the positions in items, r's stream, of call ci and of the
// calls nested in its arguments, which follow it: first..last (-1, -1
// when ci is not in items).
func Span(r *run.Run, items []Item, ci int) (first, last int) {
	first = slices.IndexFunc(items, func(it Item) bool { return it.Call == ci })
	if first < 0 {
		return -1, -1
	}
	nested := func(c int) bool {
		for n := 0; c >= 0 && n <= len(r.Calls); n++ { // n: a parent cycle ends
			if c = r.Calls[c].Parent; c == ci {
				return true
			}
		}
		return false
	}
	last = first
	for last+1 < len(items) && items[last+1].Call >= 0 && nested(items[last+1].Call) {
		last++
	}
	return first, last
}

// Host is what the VM asks of the program that runs it, about the items
// of one run (positions 0..n-1) and its budget.
type Host interface {
	// Selects says whether item pos is of the kind step k selects (its
	// role, or its tool).
	Selects(k, pos int) bool
	// Guard evaluates step k's guard on item pos, given the items caps
	// binds to the earlier steps (-1: not bound). An error makes the
	// step's test fail and, when nothing matches, the result unknown with
	// the first error's text as its reason.
	Guard(k, pos int, caps []int) (bool, error)
	// Tick is called at every position before its threads advance; an
	// error (the run is over its time) makes the result unknown.
	Tick() error
	// Charge charges the threads alive at a position to the run's budget;
	// an error (the budget is spent) makes the result unknown.
	Charge(threads int) error
}

// Result is a pattern's outcome on one run: the label and, when it
// matched, the item bound to each step (-1: not bound).
type Result struct {
	Label   runs.Label
	Witness []int // item positions, per step
}

// vmThread is a VM thread: a program counter and the item bound to each step.
type vmThread struct {
	pc   int
	caps []int
}

// Run runs pattern pt over a run's n items (unanchored Pike VM, threads
// in priority order, first match wins), with at most max threads alive at
// one position. It is a Machine advanced over the n items and finished.
func Run(pt *bundle.PatternPlan, n int, h Host, max int) Result {
	return NewMachine(pt, h, max).Finish(n)
}

// Machine is a pattern's VM stopped between two positions of a run's item
// stream, so that a run that grows is matched incrementally: Advance
// consumes items, Finish gives the result as if the run ended there, and
// Clone forks the state (a session keeps a machine advanced over the part
// of its run that can no longer change, and each check advances a clone
// over the rest). A Machine advanced over n items and finished gives
// exactly what Run gives on those n items, however its advances were
// split. Once it found a match, or stopped (the Host's Tick or Charge
// failed, the thread budget was exceeded), its result is fixed: no later
// item changes it.
type Machine struct {
	vm    vmState
	pos   int        // the next position to consume
	clist []vmThread // the threads waiting at pos, in priority order
	spare []vmThread // a second array for the next position's threads
	empty []int      // the bindings of a new thread: none
	done  *Result    // the fixed result, once decided
	// The positions a match may end at (EndWithin): a match thread whose
	// last item is outside first..last dies, and matching goes on. Unset:
	// anywhere (an empty match, as "^" alone, ends at -1).
	first, last int
}

// NewMachine returns a machine at position 0 of a run, asking h about its
// items and budget, with at most max threads alive at one position.
func NewMachine(pt *bundle.PatternPlan, h Host, max int) *Machine {
	m := &Machine{vm: vmState{pt: pt, h: h, max: max}, first: math.MinInt, last: math.MaxInt}
	m.empty = make([]int, len(pt.Steps))
	for i := range m.empty {
		m.empty[i] = -1
	}
	return m
}

// EndWithin makes the machine look only for a match whose last item is
// at a position from first to last: one ending elsewhere is not the
// result, and the search goes on (the first match wins among the others).
// A session whose history already violates an invariant asks this of the
// items of its pending call: does the call make a match of its own? Call
// it before the machine consumes any item.
func (m *Machine) EndWithin(first, last int) { m.first, m.last = first, last }

// Pos is the number of items consumed.
func (m *Machine) Pos() int { return m.pos }

// SetHost makes h the Host asked from now on: each check of a growing run
// has a Host of its own, over that run's values. h must answer for the
// consumed positions as the previous Host did (the items are the same).
func (m *Machine) SetHost(h Host) { m.vm.h = h }

// Clone returns a machine in m's state that advances independently of m.
// It copies the list of live threads (their bindings are shared: they are
// never changed) and the first guard error; guard results are memoized
// per position only, so there is nothing else to copy.
func (m *Machine) Clone() *Machine {
	c := &Machine{vm: vmState{pt: m.vm.pt, h: m.vm.h, max: m.vm.max, err: m.vm.err}, pos: m.pos, empty: m.empty, done: m.done, first: m.first, last: m.last}
	c.clist = append(make([]vmThread, 0, len(m.clist)+1), m.clist...)
	return c
}

// Advance consumes the items at positions Pos() to n-1 (none when n ≤
// Pos() or the result is fixed), recording a match found on the way. The
// run has more than n items as far as Advance knows: `$` matches only in
// Finish.
func (m *Machine) Advance(n int) {
	for m.done == nil && m.pos < n {
		r, stop := m.step(false)
		if stop {
			fixed := r // allocated only here: r itself stays on the stack
			m.done = &fixed
			return
		}
		m.pos++
	}
}

// Finish advances to n and returns the pattern's result on a run of n
// items: the fixed result if there is one, else what the end of the run
// gives (`$`, a match completed by the last item). m is left as Advance
// left it, so it may advance further (the run grew after all).
func (m *Machine) Finish(n int) Result {
	m.Advance(n)
	if m.done != nil {
		return *m.done
	}
	r, stop := m.step(true)
	m.vm.overflow = false // a later step at this position starts afresh
	if stop {
		return r
	}
	if m.vm.err != "" {
		return Result{Label: runs.Unknown(m.vm.err)}
	}
	return Result{Label: runs.False()}
}

// step runs the threads at position pos (the end of the run when end):
// stop is true with the result when they decide it.
func (m *Machine) step(end bool) (Result, bool) {
	vm, pt, pos := &m.vm, m.vm.pt, m.pos
	vm.pos = pos
	vm.gen++
	if err := vm.h.Tick(); err != nil {
		return Result{Label: runs.Unknown(fmt.Sprintf("%s: %v", pt.Owner, err))}, true
	}
	if vm.visited != nil {
		clear(vm.visited)
	}
	// Guard results are kept for the position they were evaluated at only:
	// a thread tests an item at the position it waits at.
	if len(vm.memo) > 0 {
		clear(vm.memo)
	}
	clear(vm.dense)
	list := m.clist
	clist := m.spare[:0]
	// Existing threads first (they started earlier), then a new thread
	// starting here: the search is unanchored.
	for _, t := range list {
		vm.add(&clist, t, pos, end)
	}
	vm.add(&clist, vmThread{pc: 0, caps: m.empty}, pos, end)
	if vm.overflow {
		return Result{Label: runs.Unknown(fmt.Sprintf("%s: more than %d pattern threads at one item (raise it with --max-pattern-threads)", pt.Owner, vm.max))}, true
	}
	// Each live thread costs one unit of the run's cost budget, so that
	// a pattern whose keyed threads multiply cannot run for minutes.
	if err := vm.h.Charge(len(clist)); err != nil {
		return Result{Label: runs.Unknown(fmt.Sprintf("%s: %v", pt.Owner, err))}, true
	}
	next := list[:0] // list's threads were all re-added to clist: reuse its array
	for _, t := range clist {
		in := pt.Program[t.pc]
		if in.Op == bundle.OpMatch {
			// A thread at match at pos has consumed its last item at pos-1.
			if pos-1 < m.first || pos-1 > m.last {
				continue
			}
			return Result{Label: runs.True(), Witness: t.caps}, true
		}
		if end {
			continue
		}
		ok, caps := vm.consume(in, t.caps, pos)
		if ok {
			next = append(next, vmThread{pc: t.pc + 1, caps: caps})
		}
	}
	if end {
		m.spare = clist // the threads at pos stay in m.clist, untouched
	} else {
		m.clist, m.spare = next, clist
	}
	return Result{}, false
}

// vmState is one pattern run's working state.
type vmState struct {
	h  Host
	pt *bundle.PatternPlan
	// Threads seen at the current step: by pc (stamp holds gen) when no
	// guard refers to another step, else by pc and keyed bindings.
	stamp    []int
	gen      int // the current step's number, from 1
	visited  map[vmKey]bool
	max      int // the thread budget
	pos      int
	overflow bool
	// Guard results at the current position: by step in dense (result+1,
	// 0: not yet evaluated) for a guard that refers to no other step, else
	// in memo by step and the bindings it refers to. Both made on first use.
	dense []guardResult
	memo  map[vmKey]guardResult
	err   string // the first guard error: the result is unknown if no match is found
}

// vmKey identifies a thread (pc and keyed bindings) or a guard evaluation
// (step, position and the bindings it refers to): a and b, then up to
// three bindings in r, any further ones in more.
type vmKey struct {
	a, b int
	r    [3]int
	more string
}

// newKey returns the key of a and b with the bindings caps[i] for i in idx.
func newKey(a, b int, caps []int, idx []int) vmKey {
	k := vmKey{a: a, b: b}
	for j, i := range idx {
		if j < len(k.r) {
			k.r[j] = caps[i] + 1 // +1: 0 means "no binding"
			continue
		}
		var sb strings.Builder
		for _, i := range idx[j:] {
			sb.WriteString(strconv.Itoa(caps[i]))
			sb.WriteByte(',')
		}
		k.more = sb.String()
		break
	}
	return k
}

// key identifies a thread for deduplication: its pc and the bindings of
// the steps guards refer to (others cannot change what happens next).
func (vm *vmState) key(t vmThread) vmKey {
	return newKey(t.pc, 0, t.caps, vm.pt.Keyed)
}

// add follows jumps, splits and assertions from t, appending the threads
// that wait on an item (or on match) to list.
func (vm *vmState) add(list *[]vmThread, t vmThread, pos int, end bool) {
	if vm.overflow {
		return
	}
	if len(vm.pt.Keyed) == 0 {
		if vm.stamp == nil {
			vm.stamp = make([]int, len(vm.pt.Program))
		}
		if vm.stamp[t.pc] == vm.gen {
			return
		}
		vm.stamp[t.pc] = vm.gen
	} else {
		if vm.visited == nil {
			vm.visited = map[vmKey]bool{}
		}
		k := vm.key(t)
		if vm.visited[k] {
			return
		}
		vm.visited[k] = true
		if len(vm.visited) > vm.max {
			vm.overflow = true
			return
		}
	}
	in := vm.pt.Program[t.pc]
	// One case per bundle.Op (TestVMRunsEveryOp checks there is one).
	switch in.Op {
	case bundle.OpJmp:
		vm.add(list, vmThread{in.X, t.caps}, pos, end)
	case bundle.OpSplit:
		vm.add(list, vmThread{in.X, t.caps}, pos, end)
		vm.add(list, vmThread{in.Y, t.caps}, pos, end)
	case bundle.OpBol:
		if pos == 0 {
			vm.add(list, vmThread{t.pc + 1, t.caps}, pos, end)
		}
	case bundle.OpEol:
		if end {
			vm.add(list, vmThread{t.pc + 1, t.caps}, pos, end)
		}
	case bundle.OpStep, bundle.OpNot, bundle.OpAny, bundle.OpMatch:
		*list = append(*list, t) // waits for an item, or (match) is the match
	default:
		vm.noCase(in)
	}
}

// noCase records an instruction the VM has no case for. Validate refuses
// a program with an op outside the instruction set, so only a VM that
// lags behind bundle.Op gets here: the thread dies and, unless another
// thread matches, the pattern's result is unknown — never false.
func (vm *vmState) noCase(in bundle.Inst) {
	if vm.err == "" {
		vm.err = fmt.Sprintf("%s: the pattern VM has no case for instruction %s", vm.pt.Owner, in.Op)
	}
}

// consume applies a consuming instruction to item pos.
func (vm *vmState) consume(in bundle.Inst, caps []int, pos int) (bool, []int) {
	switch in.Op {
	case bundle.OpAny:
		return true, caps
	case bundle.OpStep:
		if vm.test(in.X, caps, pos) != guardTrue {
			return false, nil
		}
		c := append([]int(nil), caps...)
		c[in.X] = pos
		return true, c
	case bundle.OpNot:
		return vm.test(in.X, caps, pos) == guardFalse, caps
	}
	vm.noCase(in) // add lets only consuming instructions (and match, handled before) through
	return false, nil
}

type guardResult int

const (
	guardFalse guardResult = iota
	guardTrue
	guardError
)

// test says whether item pos (the current position) matches step k
// (selector, then guard) given the thread's bindings; guard results are
// memoized per step and the bindings the guard refers to until the next
// position.
func (vm *vmState) test(k int, caps []int, pos int) guardResult {
	st := &vm.pt.Steps[k]
	if !vm.h.Selects(k, pos) {
		return guardFalse
	}
	if st.When == bundle.NoExpr {
		return guardTrue
	}
	var key vmKey
	if len(st.Refs) == 0 {
		if vm.dense == nil {
			vm.dense = make([]guardResult, len(vm.pt.Steps))
		}
		if r := vm.dense[k]; r != 0 {
			return r - 1
		}
	} else {
		key = newKey(k, pos, caps, st.Refs)
		if r, ok := vm.memo[key]; ok {
			return r
		}
	}
	ok, err := vm.h.Guard(k, pos, caps)
	res := guardFalse
	switch {
	case err != nil:
		res = guardError
		if vm.err == "" {
			vm.err = err.Error()
		}
	case ok:
		res = guardTrue
	}
	switch {
	case len(st.Refs) == 0:
		vm.dense[k] = res + 1
	case vm.memo == nil:
		vm.memo = map[vmKey]guardResult{key: res}
	default:
		vm.memo[key] = res
	}
	return res
}

// Final is the length of the final prefix of items, r's item stream: the
// leading items whose values, as criteria and guards see them, can no
// longer change as the run grows. A message is final when every call it
// requested has its result (its calls field shows them, and a call's ok
// can depend on its siblings' results); a call a message requested, when
// that message is final; a call nested in another's arguments and
// requested by no message, when its parent is final (a dispatched call
// takes its parent's outcome); a call nobody requested, when its result is
// in. The prefix ends at the first item that is not final: a call waiting
// for its result, the message that requested it. r must be consistent
// (run.Run.Consistent).
func Final(r *run.Run, items []Item) int {
	requester := make([]int, len(r.Calls))
	for i := range requester {
		requester[i] = -1
	}
	for k, e := range r.Events {
		for _, ci := range e.Calls {
			requester[ci] = k
		}
	}
	answered := func(e *run.Event) bool {
		for _, ci := range e.Calls {
			if r.Calls[ci].ResultEvent < 0 {
				return false
			}
		}
		return true
	}
	var final func(ci int) bool
	final = func(ci int) bool {
		c := r.Calls[ci]
		switch {
		case requester[ci] >= 0:
			return answered(r.Events[requester[ci]])
		case c.Parent >= 0 && c.Parent < ci:
			return final(c.Parent)
		}
		return c.ResultEvent >= 0
	}
	for pos, it := range items {
		if it.Call >= 0 && !final(it.Call) || it.Call < 0 && !answered(r.Events[it.Event]) {
			return pos
		}
	}
	return len(items)
}
