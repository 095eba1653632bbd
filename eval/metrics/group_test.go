package metrics

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestGroupMatchesWholeSlice: a Group fed a condition's runs in key order
// gives what Compute, Agree, CountChecks and CountAudit give for it.
func TestGroupMatchesWholeSlice(t *testing.T) {
	recs := worked()
	yes := true
	recs[0].Given.Utility = &yes
	recs[1].Invariants = map[string]runs.Label{"i": runs.False(), "j": runs.Unknown("why")}
	recs[1].Grant = "g"
	recs[1].Audit = []runs.AuditEntry{{Call: 0, Tool: "t", Decision: runs.SchemaFields, Detail: "d", Parent: -1}}
	for _, opt := range []Options{{}, {Unknown: UnknownBounds}} {
		g := NewGroup(recs[0].Key.Contract, recs[0].Key.Condition)
		sorted := Groups(recs)[0]
		for _, r := range sorted {
			if err := g.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := Compute(recs, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		c, err := g.Compute(nil, opt, true)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := g.Audit()
		if !reflect.DeepEqual(c, cs[0]) || !reflect.DeepEqual(g.Agreement(), tally.Agree(recs)[0]) ||
			!reflect.DeepEqual(g.Checks(), tally.CountChecks(recs)[0]) || !reflect.DeepEqual(a, tally.CountAudit(recs)[0]) {
			t.Errorf("%+v: the group differs from the whole-slice functions", opt)
		}
	}
}

func TestGroupErrors(t *testing.T) {
	recs := Groups(worked())[0]
	g := NewGroup(recs[0].Key.Contract, recs[0].Key.Condition)
	if _, err := g.Compute(nil, Options{}, false); err == nil || !strings.Contains(err.Error(), "has no runs") {
		t.Errorf("empty group: %v", err)
	}
	if err := g.Add(recs[1]); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(recs[0]); err == nil || !strings.Contains(err.Error(), "key order") {
		t.Errorf("out of order: %v", err)
	}
	other := recs[2]
	other.Key.Condition += "x"
	if err := g.Add(other); err == nil || !strings.Contains(err.Error(), "added to condition") {
		t.Errorf("another condition: %v", err)
	}
	if _, err := g.Compute(nil, Options{Unknown: "x"}, false); err == nil {
		t.Error("bad options: no error")
	}
	if g.Len() != 1 {
		t.Errorf("Len %d, want 1", g.Len())
	}
}
