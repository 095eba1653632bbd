package runs

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// audited is a record with an attempt budget, a grant and an audit using
// every part of an entry.
func audited() Record {
	return Record{
		Key:     Key{Condition: "c", Task: "t", Goal: "g", Attempt: 2, Repetition: 1},
		Utility: True(), AttackSuccess: False(), SideEffect: False(),
		AttemptBudget: 3,
		Grant:         "default",
		Audit: []AuditEntry{
			{Call: 0, Tool: "read_fixture", Decision: Authorized, Parent: -1},
			{Call: 1, Tool: "update_fixture", Decision: SchemaTypes, Detail: "argument id: want string, got a call", Parent: -1},
			{Call: 2, Tool: "read_fixture", Decision: MissingResourceCapability, Detail: "(read, F2) not in grant default", Parent: 1, Hazard: true},
			{Call: 3, Tool: "", Decision: UnregisteredTool, Detail: `no tool ""`, Parent: -1, Mismatch: `tool "" ran, "send" was requested`},
		},
	}
}

const auditedLine = `{"condition":"c","task":"t","goal":"g","attempt":2,"repetition":1,"labels":{"utility":true,"attack_success":false,"side_effect":false},"attempt_budget":3,"grant":"default","audit":[{"call":0,"tool":"read_fixture","decision":"authorized"},{"call":1,"tool":"update_fixture","decision":"schema_types","detail":"argument id: want string, got a call"},{"call":2,"tool":"read_fixture","decision":"missing_resource_capability","detail":"(read, F2) not in grant default","parent":1,"hazard":true},{"call":3,"tool":"","decision":"unregistered_tool","detail":"no tool \"\"","mismatch":"tool \"\" ran, \"send\" was requested"}]}` + "\n"

func TestAuditRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, []Record{audited()}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != auditedLine {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), auditedLine)
	}
	got, err := Read("r.jsonl", strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []Record{audited()}) {
		t.Errorf("read back %+v\nwant %+v", got, audited())
	}
	// Any field order, null for absent, an explicit parent -1.
	in := `{"audit":[{"hazard":false,"parent":-1,"decision":"authorized","tool":"x","call":0,"detail":null}],"grant":"g","attempt_budget":null,"labels":{"utility":true},"task":"t","condition":"c"}`
	got, err = Read("r.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Key: Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: True(), Grant: "g",
		Audit: []AuditEntry{{Call: 0, Tool: "x", Decision: Authorized, Parent: -1}}}
	if !reflect.DeepEqual(got, []Record{want}) {
		t.Errorf("read %+v\nwant %+v", got, want)
	}
	// A grant without calls is kept; an empty audit is left out.
	buf.Reset()
	if err := Write(&buf, []Record{{Key: Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: True(), Grant: "g", Audit: []AuditEntry{}}}); err != nil {
		t.Fatal(err)
	}
	if want := `{"condition":"c","task":"t","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true},"grant":"g"}` + "\n"; buf.String() != want {
		t.Errorf("wrote %s", buf.String())
	}
}

func TestAuditReadErrors(t *testing.T) {
	const head = `{"condition":"c","task":"t","labels":{"utility":true},`
	const run = "r.jsonl:1: run c/t: "
	for _, tt := range []struct{ in, want string }{
		{`"attempt_budget":0}`, run + "field attempt_budget is 0, want an integer ≥ 1"},
		{`"attempt_budget":"3"}`, run + "field attempt_budget is a string, want an integer ≥ 1"},
		{`"attempt_budget":2.0}`, run + "field attempt_budget is 2.0, want an integer ≥ 1"},
		{`"attempt":4,"attempt_budget":3}`, "r.jsonl:1: run c/t (attempt 4, repetition 1): attempt 4 is above attempt_budget 3 (the threat model allows attempts 1..3)"},
		{`"grant":""}`, run + "field grant is empty, want the name of the grant the calls were audited against"},
		{`"grant":1}`, run + "field grant is a number, want the name of the grant the calls were audited against"},
		{`"audit":{}}`, run + "field audit is an object, want an array of {call, tool, decision, ...} objects, one per call"},
		{`"grant":"g","audit":[1]}`, run + "audit[0] is a number, want an object with call, tool and decision"},
		{`"grant":"g","audit":[{"tool":"x","decision":"authorized"}]}`, run + "audit[0]: missing field call"},
		{`"grant":"g","audit":[{"call":-1,"tool":"x","decision":"authorized"}]}`, run + "audit[0].call is -1, want an integer ≥ 0"},
		{`"grant":"g","audit":[{"call":"0","tool":"x","decision":"authorized"}]}`, run + "audit[0].call is a string, want an integer ≥ 0"},
		{`"grant":"g","audit":[{"call":0,"decision":"authorized"}]}`, run + "audit[0]: missing field tool"},
		{`"grant":"g","audit":[{"call":0,"tool":"x"}]}`, run + "audit[0]: missing field decision"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","why":"x"}]}`, run + `unknown field "why" in audit[0] (want call, tool, decision, detail, parent, hazard, mismatch)`},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","call":1}]}`, run + `duplicate field "call" in audit[0]`},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"ok"}]}`, run + `audit[0] (call 0): decision is "ok", want one of unregistered_tool, schema_fields, schema_types, missing_resource_capability, authorized`},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"schema_fields"}]}`, run + "audit[0] (call 0): decision schema_fields has no detail (every decision but authorized says why)"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","hazard":"yes"}]}`, run + "audit[0].hazard is a string, want true or false"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","hazard":true}]}`, run + "audit[0] (call 0): hazard on a call that is not nested (parent -1)"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","parent":-2}]}`, run + "audit[0].parent is -2, want the call index (an integer ≥ 0) of the call that holds this one, or -1"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","parent":0}]}`, run + "audit[0] (call 0): the call is its own parent"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","parent":5}]}`, run + "audit[0] (call 0): parent call 5 is not in the audit"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized","parent":1},{"call":1,"tool":"x","decision":"authorized","parent":0}]}`, run + "audit[0] (call 0): its chain of parents is a cycle"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized"},{"call":0,"tool":"y","decision":"authorized"}]}`, run + "audit[1]: call 0 is audited twice (also audit[0])"},
		{`"audit":[{"call":0,"tool":"x","decision":"authorized"}]}`, run + "audit without a grant (grant names the grant the calls were audited against)"},
	} {
		_, err := Read("r.jsonl", strings.NewReader(head+tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s\ngot  %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestAuditWriteRejects(t *testing.T) {
	r := audited()
	r.AttemptBudget = -1
	if err := Write(&bytes.Buffer{}, []Record{r}); err == nil || err.Error() != "run c/t/g (attempt 2, repetition 1): attempt_budget is -1, want an integer ≥ 1 (or 0: none)" {
		t.Errorf("error %v", err)
	}
	r = audited()
	r.AttemptBudget = 1
	if err := Write(&bytes.Buffer{}, []Record{r}); err == nil || err.Error() != "run c/t/g (attempt 2, repetition 1): attempt 2 is above attempt_budget 1 (the threat model allows attempts 1..1)" {
		t.Errorf("error %v", err)
	}
	r = audited()
	r.Audit[2].Parent = 7
	if err := Write(&bytes.Buffer{}, []Record{r}); err == nil || err.Error() != "run c/t/g (attempt 2, repetition 1): audit[2] (call 2): parent call 7 is not in the audit" {
		t.Errorf("error %v", err)
	}
}
