package explain

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
)

const idA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const idB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// attacked is a record with every part WriteRecord renders: an unknown
// label with its reason, a given label that disagrees, a violated
// invariant with its witness, an unknown one, failure classes, and an
// audit whose denied calls come first (a nested one with its hazard).
func attacked() runs.Record {
	tr := true
	r := runs.Record{
		Bundle: idA, Key: runs.Key{Contract: "c", Condition: "m", Attack: "x", Task: "t", Goal: "g", Attempt: 1, Repetition: 2},
		OriginFile: "t.jsonl", OriginLine: 7, AttemptBudget: 1,
		Utility: runs.True(), AttackSuccess: runs.False(), SideEffect: runs.Unknown("when of side_effect s (c.tenet.hcl:3:9): no such key: to"),
		Invariants: map[string]runs.Label{"no_send": runs.False(), "asked": runs.Unknown("assert of invariant asked (c.tenet.hcl:9:12): no such key: flag"), "ok": runs.True()},
		Failures:   map[string]runs.Label{"timeout": runs.True(), "loop": runs.False()},
		Witnesses:  map[string]map[string]string{"invariants.no_send": {"send": "call:1", "read": "event:2"}},
		Grant:      "default",
		Audit: []runs.AuditEntry{
			{Call: 0, Tool: "read", Decision: runs.Authorized, Parent: -1},
			{Call: 2, Tool: "read", Decision: runs.MissingResourceCapability, Detail: "(read, F2) not in grant default", Parent: 1, Hazard: true},
			{Call: 1, Tool: "update", Decision: runs.SchemaTypes, Detail: "argument id: want string, got a call", Parent: -1},
		},
	}
	r.Given.AttackSuccess = &tr
	return r
}

func TestWriteRecord(t *testing.T) {
	var b bytes.Buffer
	l := Located{attacked(), runs.Pos{File: "runs.jsonl", Line: 3}}
	WriteRecord(&b, l)
	want := `run c:m @ x/t/g (attempt 1, repetition 2)  (runs.jsonl:3)
origin t.jsonl:7 · bundle ` + idA + ` · attempt budget 1
utility true · attack_success false · side_effect unknown: when of side_effect s (c.tenet.hcl:3:9): no such key: to · violated no_send

given labels (another harness's, from the source's given block) next to ours
  attack_success: false (given: true — disagrees)

invariants
  asked = unknown: assert of invariant asked (c.tenet.hcl:9:12): no such key: flag
  no_send = violated
      read       event:2
      send       call:1
  ok = held

failure classes
  loop = not in it
  timeout = in it

authorization audit (grant default): 3 calls, 2 not authorized
  call:1  update  schema_types: argument id: want string, got a call
  call:2  read  missing_resource_capability: (read, F2) not in grant default  (nested in call:1; may run before its outer call is validated)
  call:0  read  authorized
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if got, want := RecordOnlyNote(l), "a runs file records labels, not how they came about: tenet explain --contract CONTRACT runs.jsonl 'c:m @ x/t/g (attempt 1, repetition 2)' judges the run again from its transcript (t.jsonl:7) and shows every criterion and pattern match"; got != want {
		t.Errorf("note:\n got %s\nwant %s", got, want)
	}

	// Labels from another harness: no bundle, no origin, nothing else.
	b.Reset()
	l = Located{runs.Record{Key: runs.Key{Condition: "m", Task: "t", Attempt: 1, Repetition: 1}, Utility: runs.False()}, runs.Pos{File: "h.jsonl", Line: 1}}
	WriteRecord(&b, l)
	want = "run m/t  (h.jsonl:1)\nno bundle id (labels from another harness, or the field removed)\nutility false\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if got := RecordOnlyNote(l); !strings.HasPrefix(got, "the record names no transcript record") {
		t.Errorf("note without origin: %s", got)
	}
}

// writeRuns writes recs as a runs file in a temporary directory.
func writeRuns(t *testing.T, recs []runs.Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := runs.Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindRecord(t *testing.T) {
	key := func(cond, attack, task, goal string, rep int) runs.Key {
		return runs.Key{Contract: "c", Condition: cond, Attack: attack, Task: task, Goal: goal, Attempt: 1, Repetition: rep}
	}
	var recs []runs.Record
	for _, k := range []runs.Key{
		key("m", "", "t", "", 1), key("m", "x", "t", "g", 1), key("m", "y", "t", "g", 1),
		key("n", "", "t", "", 1), key("n", "", "t", "", 2), key("n", "", "u", "", 2),
	} {
		r := runs.Record{Bundle: idA, Key: k, Utility: runs.True(), OriginFile: "t.jsonl", OriginLine: 10 + k.Repetition}
		if k.Attacked() {
			r.AttackSuccess, r.SideEffect = runs.False(), runs.False()
		}
		recs = append(recs, r)
	}
	recs[1].OriginLine, recs[2].OriginLine = 21, 22
	p := writeRuns(t, recs)
	for _, c := range []struct{ key, want string }{
		{"m/t", "c:m/t"},                           // exact, without the contract
		{"c:m/t", "c:m/t"},                         // exact, with it
		{p + ":2", "c:m @ x/t/g"},                  // RUNSFILE:LINE
		{"m @ y/t/g", "c:m @ y/t/g"},               // the attack named
		{"n/t", "c:n/t"},                           // exact: repetition 1, not the loose match of both
		{"n/u", "c:n/u (attempt 1, repetition 2)"}, // loose: the only n/u
		{"t.jsonl:21", "c:m @ x/t/g"},              // the origin
	} {
		l, err := FindRecord(runs.ReadOptions{}, []string{p}, c.key)
		if err != nil {
			t.Errorf("%s: %v", c.key, err)
			continue
		}
		if got := l.Record.Key.String(); got != c.want {
			t.Errorf("%s: found %s, want %s", c.key, got, c.want)
		}
	}

	// Two attacks share condition/task/goal: both listed, in key order.
	_, err := FindRecord(runs.ReadOptions{}, []string{p}, "m/t/g")
	want := "m/t/g names 2 runs in " + p + "; name one by its full key (with its contract, attack, attempt and repetition) or by RUNSFILE:LINE:\n  c:m @ x/t/g (" + p + ":2)\n  c:m @ y/t/g (" + p + ":3)"
	if err == nil || err.Error() != want || !IsKeyError(err) {
		t.Errorf("ambiguous: got %v\nwant %s", err, want)
	}
	// t.jsonl:11 is the origin of two runs (repetition 1 of m/t and n/t).
	if _, err := FindRecord(runs.ReadOptions{}, []string{p}, "t.jsonl:11"); err == nil || !strings.HasPrefix(err.Error(), "t.jsonl:11 names 2 runs") {
		t.Errorf("ambiguous origin: got %v", err)
	}

	// No such run: the nearest first, by edit distance (to the key without
	// its repetition too), in key order among equals.
	_, err = FindRecord(runs.ReadOptions{}, []string{p}, "n/v")
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Ambiguous || len(ke.Candidates) != 6 || ke.Candidates[0].Record.Key.String() != "c:n/t" || ke.Candidates[1].Record.Key.String() != "c:n/t (attempt 1, repetition 2)" || ke.Candidates[2].Record.Key.String() != "c:n/u (attempt 1, repetition 2)" {
		t.Errorf("nearest: got %v", err)
	}

	// A file that is not a runs file is the reader's error, not a key error.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"messages":[]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FindRecord(runs.ReadOptions{}, []string{bad}, "m/t"); err == nil || IsKeyError(err) || !strings.Contains(err.Error(), "bad.jsonl:1: a transcript (a record with \"messages\" and no \"condition\"), not a runs file") {
		t.Errorf("bad file: got %v", err)
	}
}

func TestDifferences(t *testing.T) {
	a := attacked()
	if d := Differences(a, attacked()); len(d) != 0 {
		t.Errorf("the same record: %q", d)
	}
	b := attacked()
	b.Utility = runs.Unknown("utility of task t (c.tenet.hcl:2:13): no such key: x")
	b.Invariants = map[string]runs.Label{"no_send": runs.True(), "asked": runs.Unknown("assert of invariant asked (c.tenet.hcl:9:12): no such key: flag"), "new": runs.True()}
	b.Witnesses = nil
	b.Audit = b.Audit[:1]
	b.HasExposed, b.Exposed = true, runs.True()
	want := []string{
		"utility: recorded true, recomputed unknown: utility of task t (c.tenet.hcl:2:13): no such key: x",
		"exposed: recorded none, recomputed true",
		"invariants.new: recorded none, recomputed true",
		"invariants.no_send: recorded false, recomputed true",
		"invariants.ok: recorded true, recomputed none",
		"witnesses.invariants.no_send: recorded read=event:2 send=call:1, recomputed none",
		"audit: recorded 3 decisions, recomputed 1, not the same",
	}
	if got := Differences(a, b); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPick(t *testing.T) {
	prog := func(name, id string) *eval.Program {
		return &eval.Program{Bundle: &bundle.Bundle{Manifest: bundle.Manifest{Contract: name}}, ID: id}
	}
	l := Located{attacked(), runs.Pos{File: "runs.jsonl", Line: 3}}
	two := []*eval.Program{prog("b", idB), prog("c", idA)}
	if p, err := Pick(two, "suites", l); err != nil || p != two[1] {
		t.Errorf("by bundle id: %v, %v", p, err)
	}
	_, err := Pick([]*eval.Program{prog("c", idB)}, "q.tnb", l)
	want := "run c:m @ x/t/g (attempt 1, repetition 2) (runs.jsonl:3) was judged by bundle " + idA + " (its bundle field), but q.tnb holds contract c as bundle " + idB + ": re-judging with another bundle would explain other labels; give --contract the bundle that judged it, or explain without --contract"
	if err == nil || err.Error() != want {
		t.Errorf("another bundle:\n got %v\nwant %s", err, want)
	}
	_, err = Pick([]*eval.Program{prog("a", idB), prog("b", idB)}, "suites", l)
	if err == nil || !strings.Contains(err.Error(), `of contract "c", which suites does not hold (it holds a `+idB+", b "+idB+")") {
		t.Errorf("not held: %v", err)
	}
	l.Record.Bundle = ""
	if _, err := Pick(two, "suites", l); err == nil || !strings.Contains(err.Error(), "carries no bundle id") {
		t.Errorf("no bundle id: %v", err)
	}
}
