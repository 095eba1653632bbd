package tally

import (
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// TestCountAuditMismatches counts the audited calls whose result disagrees
// with their request.
func TestCountAuditMismatches(t *testing.T) {
	rec := func(task string, audit ...runs.AuditEntry) runs.Record {
		return runs.Record{Key: runs.Key{Condition: "m", Task: task, Attempt: 1, Repetition: 1}, Grant: "g", Audit: audit}
	}
	as := CountAudit([]runs.Record{
		rec("a", runs.AuditEntry{Call: 0, Tool: "send", Decision: runs.Authorized, Parent: -1, Mismatch: `tool "send" ran, "read" was requested`},
			runs.AuditEntry{Call: 1, Tool: "read", Decision: runs.Authorized, Parent: -1}),
		rec("b", runs.AuditEntry{Call: 0, Tool: "send", Decision: runs.Authorized, Parent: -1, Mismatch: "other arguments ran than were requested"}),
	})
	if len(as) != 1 || as[0].Calls != 3 || as[0].Mismatches != 2 || len(as[0].Denied) != 0 {
		t.Fatalf("got %+v, want 3 calls, 2 mismatches, none denied", as)
	}
}
