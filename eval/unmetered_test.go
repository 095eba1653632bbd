package eval

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/view"
)

// meterContract has a simple criterion (a scan of the calls), a predicate
// read as a bool, and a criterion that could run long (a comprehension over
// the events nested in another, with string work inside). Its run cost
// limit is low, so that the simple criterion is unmetered only on small
// runs and the nested one on none.
const meterBase = `contract "c" {
  cost_budget    = 1000000000000000
  run_cost_limit = 200000
}
threat_model {}
tool "read" {
  operation = "read"
  params    = { path = string }
}
tool "send" {
  operation = "update"
  params    = { to = string, body = string }
}
predicate "sent" { expr = "calls.exists(c, c.tool == 'send')" }
task "t" { utility = "pred.sent" }
invariant "read_first" {
  assert = "size(calls) == 0 || calls[0].tool == 'read'"
}
`

// echoInvariant could run long: every pair of events, with string work.
const echoInvariant = `invariant "echo" {
  assert = "events.all(a, events.all(b, a.index == b.index || !a.content.contains(b.content + 'q')))"
}
`

// exprIndex is the index of the expression of kind and owner.
func exprIndex(t *testing.T, b *bundle.Bundle, kind, owner string) int {
	t.Helper()
	for i, e := range b.Exprs {
		if e.Kind == kind && e.Owner == owner {
			return i
		}
	}
	t.Fatalf("no %s of %s", kind, owner)
	return -1
}

// TestUnmeteredDecisions: the bundle records, per expression, its static
// cost bound at each run size rung below the run cost limit: the scan of
// the calls up to runs of size 16384, the bool predicate read at every
// rung, the nested comprehension at none (it stays metered).
func TestUnmeteredDecisions(t *testing.T) {
	p := compileProgram(t, meterBase+echoInvariant)
	b := p.Bundle
	cases := []struct {
		kind, owner string
		want        []uint64
	}{
		{"predicate", "sent", []uint64{2050, 8194, 32770, 131074}},
		{"utility", "task t", []uint64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
		{"assert", "invariant echo", nil},
		{"assert", "invariant read_first", []uint64{35, 112, 419, 1648, 6563, 26224, 104867}},
	}
	for _, c := range cases {
		e := b.Exprs[exprIndex(t, b, c.kind, c.owner)]
		if !reflect.DeepEqual(e.Unmetered, c.want) {
			t.Errorf("%s of %s: unmetered bounds %v, want %v", c.kind, c.owner, e.Unmetered, c.want)
		}
	}
}

// callsRun is a run of n calls alternating read and send, each with a
// short result, and a final answer.
func callsRun(n int) *run.Run {
	r := &run.Run{Meta: map[string]any{}}
	add := func(role, content string) *run.Event {
		e := &run.Event{Index: len(r.Events), Role: role, Content: content}
		r.Events = append(r.Events, e)
		return e
	}
	add("user", "please send the notes")
	for i := range n {
		tool := []string{"read", "send"}[i%2]
		a := add("assistant", "")
		c := &run.Call{Index: len(r.Calls), Event: a.Index, Tool: tool, Ok: true, Parent: -1,
			Args: map[string]any{"path": "f.txt", "to": "bob@corp.example", "body": "notes"}}
		a.Calls = []int{c.Index}
		r.Calls = append(r.Calls, c)
		res := add("tool", "ok "+strings.Repeat("x", i%7))
		res.Tool, c.Result, c.ResultEvent = tool, res.Content, res.Index
	}
	add("assistant", "sent")
	return r
}

// judgeBoth judges r with p and with p's expressions all metered, and
// records which expressions p evaluated unmetered.
func judgeBoth(t *testing.T, p *Program, r *run.Run) (with, without runs.Record, unmetered map[string]int) {
	t.Helper()
	unmetered = map[string]int{}
	p.onEval = func(i int, free bool) {
		if free {
			e := p.Bundle.Exprs[i]
			unmetered[e.Kind+" of "+e.Owner]++
		}
	}
	defer func() { p.onEval = nil }()
	src := &bundle.SourcePlan{}
	j, err := p.JudgeAs(src, r, &Override{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	q := *p
	q.free, q.onEval = nil, nil
	k, err := q.JudgeAs(src, r, &Override{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return j.Record, k.Record, unmetered
}

// TestUnmeteredSameLabels: a run judged with the unmetered programs gets
// the record it gets with every expression metered, whether the run is
// small enough for them or not; the simple criteria run unmetered exactly
// on the runs within their rungs.
func TestUnmeteredSameLabels(t *testing.T) {
	p := compileProgram(t, meterBase)
	cases := []struct {
		calls int
		want  map[string]int
	}{
		{0, map[string]int{"predicate of sent": 1, "utility of task t": 1, "assert of invariant read_first": 1}},
		{1, map[string]int{"predicate of sent": 1, "utility of task t": 1, "assert of invariant read_first": 1}},
		{100, map[string]int{"predicate of sent": 1, "utility of task t": 1, "assert of invariant read_first": 1}},
		// 2,000 calls: size 4,003 (events), rung 4096.
		{2000, map[string]int{"predicate of sent": 1, "utility of task t": 1, "assert of invariant read_first": 1}},
		// 9,000 calls: size 18,003, rung 65536: beyond the scan's last rung.
		{9000, map[string]int{"utility of task t": 1, "assert of invariant read_first": 1}},
	}
	for _, c := range cases {
		r := callsRun(c.calls)
		with, without, unmetered := judgeBoth(t, p, r)
		if !reflect.DeepEqual(with, without) {
			t.Errorf("%d calls: unmetered %+v, metered %+v", c.calls, with, without)
		}
		if !reflect.DeepEqual(unmetered, c.want) {
			t.Errorf("%d calls: evaluated unmetered %v, want %v", c.calls, unmetered, c.want)
		}
	}
}

// TestMeteredCannotHang: the nested comprehension stays metered on every
// run, so on a large run it ends unknown at the run cost limit with the
// reason, and the invariant after it is unknown because the run has spent
// its limit, as before; the predicate and utility evaluated unmetered
// before it are known.
func TestMeteredCannotHang(t *testing.T) {
	p := compileProgram(t, meterBase+echoInvariant)
	r := callsRun(1000) // 2,002 events: 4 million pairs
	with, without, unmetered := judgeBoth(t, p, r)
	if !reflect.DeepEqual(with, without) {
		t.Errorf("unmetered %+v, metered %+v", with, without)
	}
	if unmetered["assert of invariant echo"] != 0 {
		t.Errorf("the nested comprehension ran unmetered")
	}
	if unmetered["predicate of sent"] != 1 || unmetered["utility of task t"] != 1 {
		t.Errorf("evaluated unmetered %v, want the predicate and the utility", unmetered)
	}
	for name, want := range map[string]string{
		"echo":       "actual cost limit exceeded (contract run_cost_limit 200000)",
		"read_first": "run cost limit of 200000 exceeded before this expression",
	} {
		if l := with.Invariants[name]; l.Known || !strings.Contains(l.Reason, want) {
			t.Errorf("%s: %+v (%s), want unknown: %s", name, l, l.Reason, want)
		}
	}
	if !with.Utility.Known || !with.Utility.Value {
		t.Errorf("utility %+v: want true", with.Utility)
	}
}

// allowanceContract: four invariants that each scan the calls; the run cost
// limit leaves room for the static bounds of two of them, so the third and
// fourth run metered, and the labels are the same.
const allowanceContract = `contract "c" {
  run_cost_limit = 5000
}
threat_model {}
tool "send" {
  operation = "update"
  params    = { to = string }
}
task "t" { utility = "true" }
invariant "a" { assert = "!calls.exists(c, c.tool == 'a')" }
invariant "b" { assert = "!calls.exists(c, c.tool == 'b')" }
invariant "c" { assert = "!calls.exists(c, c.tool == 'c')" }
invariant "d" { assert = "!calls.exists(c, c.tool == 'd')" }
`

// TestUnmeteredAllowance: the unmetered expressions of a run are charged
// their static bounds against an allowance of the run cost limit; past it,
// expressions run metered.
func TestUnmeteredAllowance(t *testing.T) {
	p := compileProgram(t, allowanceContract)
	for _, name := range []string{"a", "b", "c", "d"} {
		e := p.Bundle.Exprs[exprIndex(t, p.Bundle, "assert", "invariant "+name)]
		if want := []uint64{2051}; !reflect.DeepEqual(e.Unmetered, want) {
			t.Fatalf("invariant %s: unmetered bounds %v, want %v", name, e.Unmetered, want)
		}
	}
	var order []bool
	p.onEval = func(i int, free bool) {
		if p.Bundle.Exprs[i].Kind == "assert" {
			order = append(order, free)
		}
	}
	j, err := p.JudgeAs(&bundle.SourcePlan{}, callsRun(10), &Override{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false, false}; !reflect.DeepEqual(order, want) {
		t.Errorf("unmetered per invariant %v, want %v", order, want)
	}
	for name, l := range j.Record.Invariants {
		if !l.Known || !l.Value {
			t.Errorf("invariant %s: %+v, want true", name, l)
		}
	}
}

// TestRunSizeRung: a run's rung is the smallest of bundle.SizeRungs holding
// its size.
func TestRunSizeRung(t *testing.T) {
	for _, c := range []struct {
		calls, rung int
	}{{0, 0}, {100, 0}, {127, 0}, {128, 1}, {2000, 2}, {9000, 4}} {
		if got := view.SizeRung(callsRun(c.calls)); got != c.rung {
			t.Errorf("%d calls: rung %d, want %d", c.calls, got, c.rung)
		}
	}
}

// boundContract: eligible expressions of each allowed kind, for
// TestBoundsCoverCharges.
const boundContract = `contract "c" {
  cost_budget = 1000000000000
}
threat_model {}
params {
  names = ["send", "read", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]
}
tool "send" {
  operation = "update"
  params    = { to = string }
}
task "t" { utility = "true" }
invariant "contains" { assert = "events.exists(e, e.content.contains('needle'))" }
invariant "equal" { assert = "events.all(a, a.content != 'x')" }
invariant "eq_dyn" { assert = "calls.exists(c, c.args.to == c.result)" }
invariant "in_list" { assert = "calls.all(c, c.result in params.names)" }
invariant "size" { assert = "events.all(e, size(e.content) < 100000)" }
invariant "in_map" { assert = "calls.all(c, c.result in c.args)" }
invariant "index_map" { assert = "calls.all(c, c.args[c.result] != 'w')" }
invariant "starts" { assert = "events.exists(e, e.content.startsWith(e.content) && e.content.endsWith('z'))" }
invariant "compare" { assert = "events.all(e, e.content >= 'a' || e.index < 3)" }
invariant "matches" { assert = "!events.exists(e, e.content.matches('^z+$'))" }
invariant "nested" { assert = "calls.all(c, events.exists(e, e.content == c.result) || c.index >= 0)" }
invariant "filter" { assert = "calls.filter(c, c.ok).map(c, c.index).size() >= 0" }
invariant "types" { assert = "calls.all(c, type(c.args.to) == string && int(c.index) >= 0 && string(c.result) != '')" }
`

// TestBoundsCoverCharges: on runs as large as their rung allows, with
// strings as long as it allows, each unmetered expression's metered cost is
// at most its recorded bound at the run's rung (the bound the run is
// charged instead).
func TestBoundsCoverCharges(t *testing.T) {
	p := compileProgram(t, boundContract)
	long := strings.Repeat("y", 256)
	r := callsRun(127) // 256 events: rung 0
	for _, e := range r.Events {
		e.Content = long[:256-len(e.Role)] + e.Role
	}
	for _, c := range r.Calls {
		c.Result = long
		c.Args = map[string]any{"to": long, long: "v"}
	}
	if k := view.SizeRung(r); k != 0 {
		t.Fatalf("rung %d, want 0", k)
	}
	var seen int
	for i, e := range p.Bundle.Exprs {
		if e.Kind != "assert" {
			continue
		}
		if len(e.Unmetered) == 0 {
			t.Errorf("%s: not unmetered", e.Owner)
			continue
		}
		seen++
		cost, err := p.costOf(i, r)
		if err != nil {
			t.Fatalf("%s: %v", e.Owner, err)
		}
		if cost > e.Unmetered[0] {
			t.Errorf("%s: metered cost %d over its bound %d", e.Owner, cost, e.Unmetered[0])
		}
	}
	if seen != 13 {
		t.Errorf("%d invariants checked, want 13", seen)
	}
}

// costOf is expression i's metered cost (its program's actual cost) on
// run r, in scope 0 of task t with no goal.
func (p *Program) costOf(i int, r *run.Run) (uint64, error) {
	act := &view.Scope{Values: p.view.Of(r), Task: p.taskVals["t"], Goal: noGoal, Threat: p.threat, Params: p.params[0], Pred: map[string]any{}}
	_, det, err := p.progs[i].Eval(act)
	if det == nil || det.ActualCost() == nil {
		return 0, err
	}
	return *det.ActualCost(), err
}

// BenchmarkUnmeteredCriterion judges a run of 20 calls with one typical
// criterion (a scan of the calls), unmetered as tenet evaluates it and
// with every expression metered, as before issue 17.
func BenchmarkUnmeteredCriterion(b *testing.B) {
	p := compileProgram(b, `contract "c" {}
threat_model {}
tool "send" {
  operation = "update"
  params    = { to = string }
}
task "t" { utility = "calls.exists(c, c.tool == 'send' && c.args.to == 'bob@corp.example')" }
`)
	r := callsRun(20)
	metered := *p
	metered.free = nil
	for _, c := range []struct {
		name string
		p    *Program
	}{{"unmetered", p}, {"metered", &metered}} {
		b.Run(c.name, func(b *testing.B) {
			src := &bundle.SourcePlan{}
			b.ReportAllocs()
			for range b.N {
				if _, err := c.p.JudgeAs(src, r, &Override{Task: "t"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestForgedBoundRunsMetered: a bundle whose eligible expression records a
// bound its cost does not give (edited and hashed again) is evaluated
// metered at that rung, with the same labels: the recorded bound is
// checked against the expression's cost the first time a run needs it.
func TestForgedBoundRunsMetered(t *testing.T) {
	built, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(meterBase)}, testOptions())
	checkBuilt(t, ".", built, diags)
	b, _, err := bundle.Decode(built.Data)
	if err != nil {
		t.Fatal(err)
	}
	i := exprIndex(t, b, "predicate", "sent")
	b.Exprs[i].Unmetered = []uint64{1, 8194, 32770} // rung 0 forged, the others true
	data, _, err := bundle.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		calls     int
		unmetered int
	}{{10, 0}, {2000, 1}} {
		with, without, unmetered := judgeBoth(t, p, callsRun(c.calls))
		if !reflect.DeepEqual(with, without) {
			t.Errorf("%d calls: %+v, metered %+v", c.calls, with, without)
		}
		if got := unmetered["predicate of sent"]; got != c.unmetered {
			t.Errorf("%d calls: the predicate ran unmetered %d times, want %d", c.calls, got, c.unmetered)
		}
	}
}
