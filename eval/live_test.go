package eval_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// session is one AgentDojo transcript replayed as a session: for each
// top-level call in order, the run a host would hold when the agent
// requests it — the messages before the requesting message, that message
// with its calls up to this one, and the results of its earlier calls —
// decoded by the openai-messages reader, and the call's index in it.
type session struct {
	origin   string
	task     string
	goal     string
	full     *run.Run
	prefixes []*run.Run
	pending  []int
	// The pending-call view (pendingHistories, TestPendingCheckBlame): per
	// top-level call of full, in order, its index in full, the message
	// that requested it and its place there, and the history the host
	// held when asked about it; rec and at are the record it came from.
	calls     []int
	at        [][2]int
	histories []*run.Run
	rec       map[string]any
	where     run.Origin
}

// sessions reads the trace files and returns, per suite, the sessions of
// the runs its contract judges; every keep-th judged run only (1: all).
// fill completes each session from its record (replay: the prefixes
// TestLiveEqualsJudge checks).
func sessions(t *testing.T, progs map[string]*eval.Program, keep int, fill func(*testing.T, *session, run.Origin, []byte)) map[string][]session {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil || len(files) != 12 {
		t.Fatalf("found %d trace files (%v), want the 12 AgentDojo agents", len(files), err)
	}
	sort.Strings(files)
	out := map[string][]session{}
	judged := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for line := 1; sc.Scan(); line++ {
			origin := run.Origin{File: f, Line: line}
			r, skip, err := transcript.Decode("openai-messages", origin, sc.Bytes())
			if err != nil || skip {
				continue // the header line
			}
			for suite, p := range progs {
				src, _ := p.Source("")
				j, err := p.Judge(src, r)
				if err != nil {
					t.Fatal(err)
				}
				if j.Skip != eval.Judged {
					continue
				}
				judged++
				if judged%keep != 0 {
					continue
				}
				s := session{origin: fmt.Sprintf("%s:%d", filepath.Base(f), line), task: j.Record.Key.Task, goal: j.Record.Key.Goal, full: r}
				fill(t, &s, origin, sc.Bytes())
				out[suite] = append(out[suite], s)
			}
		}
	}
	return out
}

// replay fills s.prefixes and s.pending from the record's messages.
func replay(t *testing.T, s *session, origin run.Origin, line []byte) {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal(line, &rec); err != nil {
		t.Fatal(err)
	}
	msgs, _ := rec["messages"].([]any)
	for i, m := range msgs {
		mm, _ := m.(map[string]any)
		calls, _ := mm["tool_calls"].([]any)
		for j := range calls {
			// The earlier calls of the message ran: their results follow it.
			if i+1+j > len(msgs) {
				break
			}
			cut := append([]any(nil), msgs[:i]...)
			req := map[string]any{}
			for k, v := range mm {
				req[k] = v
			}
			req["tool_calls"] = calls[:j+1]
			cut = append(cut, req)
			cut = append(cut, msgs[i+1:i+1+j]...)
			trunc := map[string]any{}
			for k, v := range rec {
				trunc[k] = v
			}
			trunc["messages"] = cut
			b, err := json.Marshal(trunc)
			if err != nil {
				t.Fatal(err)
			}
			pr, skip, err := transcript.Decode("openai-messages", origin, b)
			if err != nil || skip {
				t.Fatalf("%s, call %d of message %d: %v", s.origin, j, i, err)
			}
			if i >= len(pr.Events) || j >= len(pr.Events[i].Calls) {
				continue // a message the reader does not keep as one event
			}
			pending := pr.Events[i].Calls[j]
			if pr.Calls[pending].ResultEvent >= 0 || pr.Calls[pending].Parent >= 0 {
				continue
			}
			s.prefixes = append(s.prefixes, pr)
			s.pending = append(s.pending, pending)
		}
	}
}

// judged is Judge's invariants and their witnesses on r, judged from
// scratch under the session's task and goal.
func judged(t *testing.T, p *eval.Program, s *session, r *run.Run) (map[string]runs.Label, map[string]map[string]string) {
	t.Helper()
	src, err := p.Source("")
	if err != nil {
		src = &bundle.SourcePlan{} // a contract without a source: the override maps the run
	}
	j, err := p.JudgeAs(src, r, &eval.Override{Task: s.task, Goal: s.goal})
	if err != nil || j.Skip != eval.Judged {
		t.Fatalf("%s: %v %v", s.origin, err, j.Skip)
	}
	return j.Record.Invariants, j.Record.Witnesses
}

// checkSessions replays every session through a Live and requires each
// check to give, per invariant, the label and witness Judge gives on the
// same run from scratch, and the history label Judge gives on the run
// without the pending call. It returns the number of checks.
func checkSessions(t *testing.T, keep int) int {
	progs := map[string]*eval.Program{}
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		progs[s] = evaltest.Program(t, filepath.Join("..", "contracts", "agentdojo", s))
	}
	checks, violated, incremental, again := 0, 0, 0, 0
	for suite, ss := range sessions(t, progs, keep, replay) {
		p := progs[suite]
		for _, s := range ss {
			l, err := p.NewLive(eval.LiveOptions{Task: s.task, Goal: s.goal})
			if err != nil {
				t.Fatal(err)
			}
			for k, pr := range s.prefixes {
				res, err := l.Check(pr, s.pending[k])
				if err != nil {
					t.Fatalf("%s, call %d: %v", s.origin, s.pending[k], err)
				}
				labels, witnesses := judged(t, p, &s, pr)
				hist, _ := judged(t, p, &s, pr.Without(s.pending[k]))
				again += compare(t, fmt.Sprintf("%s, pending call %d", s.origin, s.pending[k]), res, labels, witnesses, hist)
				checks++
				for _, ic := range res.Invariants {
					if ic.Label.Known && !ic.Label.Value {
						violated++
					}
				}
			}
			// The whole run, no call pending.
			res, err := l.Check(s.full, -1)
			if err != nil {
				t.Fatal(err)
			}
			labels, witnesses := judged(t, p, &s, s.full)
			compare(t, s.origin+", the whole run", res, labels, witnesses, labels)
			if st := l.Stats(); st.Resets != 0 {
				t.Errorf("%s: %d resets: a session's runs extend each other", s.origin, st.Resets)
			} else if st.Checks > 1 {
				incremental++
			}
		}
	}
	if checks == 0 || violated == 0 || incremental == 0 {
		t.Fatalf("%d checks, %d violated invariants, %d incremental sessions: the comparison checked nothing", checks, violated, incremental)
	}
	t.Logf("%d checks equal to Judge from scratch (%d violated invariants; %d violated again, a match of the pending call's own after the history's), %d sessions kept their machines", checks, violated, again, incremental)
	return checks
}

// compare returns the number of invariants reported violated again.
func compare(t *testing.T, where string, res eval.LiveResult, labels map[string]runs.Label, witnesses map[string]map[string]string, hist map[string]runs.Label) (again int) {
	t.Helper()
	if len(res.Invariants) != len(labels) {
		t.Fatalf("%s: %d invariants, Judge %d", where, len(res.Invariants), len(labels))
	}
	for _, ic := range res.Invariants {
		if ic.History != hist[ic.Name] {
			t.Errorf("%s: %s: history live %+v, Judge %+v", where, ic.Name, ic.History, hist[ic.Name])
		}
		if ic.Again {
			// The pending call's own match, which Judge's first match (in
			// the history) hides: Judge finds both violated.
			if hist[ic.Name] != runs.False() || labels[ic.Name] != runs.False() {
				t.Errorf("%s: %s: again, with Judge's history %+v and run %+v", where, ic.Name, hist[ic.Name], labels[ic.Name])
			}
			again++
			continue
		}
		if ic.Label != labels[ic.Name] {
			t.Errorf("%s: %s: live %+v, Judge %+v", where, ic.Name, ic.Label, labels[ic.Name])
		}
		if w := witnesses["invariants."+ic.Name]; !reflect.DeepEqual(ic.Witness, w) {
			t.Errorf("%s: %s: witness live %v, Judge %v", where, ic.Name, ic.Witness, w)
		}
	}
	return again
}

// TestLiveEqualsJudgeSampled: every 25th AgentDojo run, replayed as a
// session (the full sweep is TestLiveEqualsJudge, heavy tier).
func TestLiveEqualsJudgeSampled(t *testing.T) {
	if n := checkSessions(t, 25); n < 200 {
		t.Errorf("%d checks, want a few hundred", n)
	}
}

// TestLiveEqualsJudge: every AgentDojo run, replayed as a session.
func TestLiveEqualsJudge(t *testing.T) {
	testtier.Heavy(t, "every call of the 2,328 AgentDojo runs judged twice from scratch")
	checkSessions(t, 1)
}

// liveContract is a contract whose invariants cover the cases of the
// incremental rule: a guard reading only its item and earlier steps
// (incremental), one reading a predicate (incremental while the value
// stays the same), one reading calls (matched from the first item).
const liveContract = `contract "live" {}
threat_model {}
tool "read" {
  operation = "read"
  params    = { path = string }
}
tool "send" {
  operation = "update"
  resource  = "to"
  params    = { to = string, body = string }
}
task "t" { utility = "true" }
predicate "asked" {
  expr = "events.filter(e, e.role == 'user').map(e, e.content).join(' ')"
}
invariant "no_send_after_read" {
  step "read" { call = "read" }
  step "user" { role = "user" }
  step "send" {
    call = "send"
    when = "args.body.contains(read.result)"
  }
  forbid = "read !user* send"
}
invariant "send_only_to_named" {
  step "send" {
    call = "send"
    when = "!pred.asked.contains(args.to)"
  }
  forbid = "send"
}
invariant "at_most_two_calls_before" {
  step "send" {
    call = "send"
    when = "size(calls) > 3"
  }
  forbid = "send"
}
`

// liveRun builds a run from items: "u:text" a user message, "r:path" an
// assistant message requesting a read with its result "secret <path>",
// "s:to:body" one requesting a send; a call named in pending gets no
// result. It returns the run and the index of the last call.
func liveRun(items ...string) (*run.Run, int) {
	r := &run.Run{Meta: map[string]any{}}
	ev := func(role, content string) *run.Event {
		e := &run.Event{Index: len(r.Events), Role: role, Content: content}
		r.Events = append(r.Events, e)
		return e
	}
	last := -1
	for i, it := range items {
		parts := strings.Split(it, ":")
		if parts[0] == "u" {
			ev("user", parts[1])
			continue
		}
		a := ev("assistant", "")
		c := &run.Call{Index: len(r.Calls), Event: a.Index, Parent: -1, ResultEvent: -1}
		if parts[0] == "r" {
			c.Tool, c.Args = "read", map[string]any{"path": parts[1]}
		} else {
			c.Tool, c.Args = "send", map[string]any{"to": parts[1], "body": parts[2]}
		}
		a.Calls = []int{c.Index}
		r.Calls = append(r.Calls, c)
		last = c.Index
		if i < len(items)-1 { // the last call is the pending one
			res := ev("tool", "secret "+c.Tool)
			res.Tool, c.Ok, c.Result, c.ResultEvent = c.Tool, true, res.Content, res.Index
		}
	}
	return r, last
}

// checkLive checks r with a Live and Judge and requires equal invariants.
func checkLive(t *testing.T, p *eval.Program, l *eval.Live, r *run.Run, pending int) eval.LiveResult {
	t.Helper()
	res, err := l.Check(r, pending)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{origin: "synthetic", task: "t"}
	labels, witnesses := judged(t, p, s, r)
	hist := labels
	if pending >= 0 {
		hist, _ = judged(t, p, s, r.Without(pending))
	}
	compare(t, fmt.Sprintf("run of %d events, pending %d", len(r.Events), pending), res, labels, witnesses, hist)
	return res
}

func label(res eval.LiveResult, name string) runs.Label {
	for _, ic := range res.Invariants {
		if ic.Name == name {
			return ic.Label
		}
	}
	return runs.Unknown("no such invariant")
}

// TestLiveAgain: a history that violates no_send_after_read (a read, then
// a send of what it read) hides a later violation from Judge, whose first
// match is the old one; a pending second send of it makes a match of its
// own, reported violated with a witness naming it (Again), and a pending
// read makes none (violated before, not again). send_only_to_named (every
// send, no user message naming anyone) likewise.
func TestLiveAgain(t *testing.T) {
	p := evaltest.ProgramFrom(t, map[string][]byte{"c.tenet.hcl": []byte(liveContract)})
	for _, c := range []struct {
		last  string
		again bool
		want  map[string]map[string]string // witness per invariant violated
	}{
		{"s:y:secret read", true, map[string]map[string]string{
			"no_send_after_read": {"read": "call:0", "send": "call:2"},
			"send_only_to_named": {"send": "call:2"}}},
		{"r:b", false, map[string]map[string]string{
			"no_send_after_read": {"read": "call:0", "send": "call:1"},
			"send_only_to_named": {"send": "call:1"}}},
	} {
		l, err := p.NewLive(eval.LiveOptions{Task: "t"})
		if err != nil {
			t.Fatal(err)
		}
		r, pending := liveRun("r:a", "s:x:secret read", c.last)
		res := checkLive(t, p, l, r, pending)
		for _, ic := range res.Invariants {
			w, violated := c.want[ic.Name]
			if !violated {
				if ic.Label != runs.True() || ic.Again {
					t.Errorf("%s, pending %s: %+v, want held", ic.Name, c.last, ic)
				}
				continue
			}
			if ic.History != runs.False() || ic.Label != runs.False() || ic.Again != c.again || !reflect.DeepEqual(ic.Witness, w) {
				t.Errorf("%s, pending %s: %+v, want violated (again %v) with witness %v", ic.Name, c.last, ic, c.again, w)
			}
		}
	}
}

// TestLiveWholeRunGuard: the pattern whose guard reads calls is reported
// as matched from the first item and is still exact; the others are
// incremental, one of them rescanned when the predicate it reads changes.
func TestLiveWholeRunGuard(t *testing.T) {
	p := evaltest.ProgramFrom(t, map[string][]byte{"c.tenet.hcl": []byte(liveContract)})
	l, err := p.NewLive(eval.LiveOptions{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.FullRescan(), []string{"invariant at_most_two_calls_before (forbid)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("FullRescan %q, want %q", got, want)
	}
	steps := []string{"u:please mail bob", "r:a", "r:b", "s:bob:hello", "s:eve:secret read"}
	var res eval.LiveResult
	for k := 2; k <= len(steps); k++ {
		r, pending := liveRun(steps[:k]...)
		res = checkLive(t, p, l, r, pending)
	}
	// The last send copies the read's result and goes to eve, with four
	// calls in the run: all three violated, by the pending call alone.
	for _, name := range []string{"no_send_after_read", "send_only_to_named", "at_most_two_calls_before"} {
		if l := label(res, name); !l.Known || l.Value {
			t.Errorf("%s: %+v, want violated", name, l)
		}
	}
	for _, ic := range res.Invariants {
		if !ic.History.Known || !ic.History.Value {
			t.Errorf("%s: history %+v, want held", ic.Name, ic.History)
		}
	}
	for _, ic := range res.Invariants {
		if ic.Name == "no_send_after_read" && !reflect.DeepEqual(ic.Witness, map[string]string{"read": "call:0", "send": "call:3"}) {
			t.Errorf("witness %v, want the first read (the earliest start) and the pending send", ic.Witness)
		}
	}
	if st := l.Stats(); st.Resets != 0 || st.Rescans != 0 {
		t.Errorf("stats %+v, want no reset or rescan", st)
	}
	// A new user message naming eve changes pred.asked: the pattern reading
	// it is matched again from the first item, and eve is now named.
	r, pending := liveRun(append(steps[:4:4], "u:and eve", "s:eve:hi")...)
	res = checkLive(t, p, l, r, pending)
	if l := label(res, "send_only_to_named"); !l.Known || !l.Value {
		t.Errorf("send_only_to_named after the user named eve: %+v, want held", l)
	}
	if st := l.Stats(); st.Rescans != 1 || st.Resets != 0 {
		t.Errorf("stats %+v, want one rescan", st)
	}
}

// TestLiveHistoryRewrite: a run that does not extend the committed one
// (an earlier message edited, or the run cut short) resets the machines,
// is counted, and is judged exactly.
func TestLiveHistoryRewrite(t *testing.T) {
	p := evaltest.ProgramFrom(t, map[string][]byte{"c.tenet.hcl": []byte(liveContract)})
	l, err := p.NewLive(eval.LiveOptions{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	r, pending := liveRun("u:mail bob", "r:a", "s:bob:x", "s:bob:secret read")
	if res := checkLive(t, p, l, r, pending); label(res, "no_send_after_read").Value {
		t.Fatalf("the pending send copies the read: %+v", res)
	}
	// The read's result edited: the send no longer copies it.
	r, pending = liveRun("u:mail bob", "r:a", "s:bob:x", "s:bob:secret read")
	r.Calls[0].Result, r.Events[2].Content = "nothing", "nothing"
	if res := checkLive(t, p, l, r, pending); !label(res, "no_send_after_read").Value {
		t.Errorf("after the rewrite: %+v, want held", res)
	}
	if st := l.Stats(); st.Resets != 1 {
		t.Errorf("stats %+v, want one reset", st)
	}
	// Cut short, then grown again.
	r, pending = liveRun("u:mail bob", "r:a")
	checkLive(t, p, l, r, pending)
	r, pending = liveRun("u:mail bob", "r:a", "s:bob:secret read")
	checkLive(t, p, l, r, pending)
	if st := l.Stats(); st.Resets != 2 || st.Checks != 4 {
		t.Errorf("stats %+v, want two resets in four checks", st)
	}
}

// TestLiveRefusesBadInput: a pending call that ran or is nested, or a run
// whose indexes are out of range, is an error, never a panic.
func TestLiveRefusesBadInput(t *testing.T) {
	p := evaltest.ProgramFrom(t, map[string][]byte{"c.tenet.hcl": []byte(liveContract)})
	l, err := p.NewLive(eval.LiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := liveRun("u:x", "r:a", "r:b")
	for _, tc := range []struct {
		pending int
		change  func(r *run.Run)
		want    string
	}{
		{0, nil, "a pending call is a top-level call without its result"},
		{5, nil, "pending call 5: the run has 2 calls"},
		{1, func(r *run.Run) { r.Events[1].Calls = []int{7} }, "event 1 requests call 7, and the run has 2 calls"},
		{1, func(r *run.Run) { r.Calls[1].Parent = 1 }, "call 1: parent 1 is not an earlier call"},
	} {
		rr, _ := liveRun("u:x", "r:a", "r:b")
		if tc.change != nil {
			tc.change(rr)
		}
		if _, err := l.Check(rr, tc.pending); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("pending %d: %v, want %q", tc.pending, err, tc.want)
		}
	}
	if _, err := p.NewLive(eval.LiveOptions{Goal: "g"}); err == nil {
		t.Error("a goal without a task: no error")
	}
	if _, err := p.NewLive(eval.LiveOptions{Task: "nope"}); err == nil || !strings.Contains(err.Error(), "task not in contract") {
		t.Errorf("an undeclared task: %v", err)
	}
	// Without a task, nothing here reads task: the checks are decided.
	if res, err := l.Check(r, 1); err != nil || !res.Invariants[0].Label.Known {
		t.Errorf("no task: %+v %v", res, err)
	}
}

// BenchmarkLiveCheck measures one check at call k of a long session (the
// Live already holds the session's earlier calls) against Judge of the
// same run from scratch: a check matches only the items since the last
// one, so its pattern work stays flat as the session grows, while the
// CEL work of predicates and assert (here pred.asked, which reads every
// user message) and building the run's values grow with it for both.
func BenchmarkLiveCheck(b *testing.B) {
	contract := strings.Replace(liveContract, `invariant "at_most_two_calls_before"`, `invariant "unused"`, 1)
	contract = strings.Replace(contract, `when = "size(calls) > 3"`, `when = "args.to == 'nobody'"`, 1)
	// keyed: the send's guard reads the read step's binding, so one thread
	// per read stays alive (its work per item grows with the reads, for
	// both); unkeyed: a guard on the send alone.
	unkeyed := strings.Replace(contract, `when = "args.body.contains(read.result)"`, `when = "args.body.contains('secret')"`, 1)
	// patterns-only: no predicate reading every user message (the one CEL
	// expression whose work grows with the run in the others).
	only := strings.Replace(unkeyed, `when = "!pred.asked.contains(args.to)"`, `when = "args.to == 'eve'"`, 1)
	for _, v := range []struct{ name, src string }{{"keyed", contract}, {"unkeyed", unkeyed}, {"patterns-only", only}} {
		b.Run(v.name, func(b *testing.B) { benchLive(b, v.src) })
	}
}

func benchLive(b *testing.B, contract string) {
	p := evaltest.ProgramFrom(b, map[string][]byte{"c.tenet.hcl": []byte(contract)})
	src := &bundle.SourcePlan{}
	for _, calls := range []int{50, 200, 800} {
		steps := []string{"u:mail bob about a"}
		for len(steps) < calls+1 {
			steps = append(steps, "r:a", "s:bob:notes")
		}
		r, pending := liveRun(steps...)
		b.Run(fmt.Sprintf("calls=%d/live", calls), func(b *testing.B) {
			l, err := p.NewLive(eval.LiveOptions{Task: "t"})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.Check(r, pending); err != nil { // the session so far
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := l.Check(r, pending); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("calls=%d/judge", calls), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.JudgeAs(src, r, &eval.Override{Task: "t"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
