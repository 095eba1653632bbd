package metrics

import (
	"github.com/tenetlang/tenet/eval/runs"
	"slices"
)

// AuditCounts counts, for one (contract, condition), the authorization
// decisions over every call of its runs (DESIGN §7), the nested calls
// flagged as hazards, and the grants the runs were audited against.
type AuditCounts struct {
	Contract, Condition string
	Grants              []string       // sorted
	Calls               int            // calls audited
	Decisions           map[string]int // decision → calls
	Hazards             int            // nested calls
	// Denied lists the runs with a call that was not authorized, sorted
	// by key, with the first such call's decision and detail.
	Denied []DeniedCall
}

// DeniedCall names a run's first call that was not authorized.
type DeniedCall struct {
	Key      runs.Key
	Call     int
	Tool     string
	Decision string
	Detail   string
}

// Name is the condition's display name, as Condition.Name.
func (a AuditCounts) Name() string { return runs.ConditionName(a.Contract, a.Condition) }

// CountAudit returns the audit counts of every (contract, condition) whose
// runs were audited, sorted.
func CountAudit(recs []runs.Record) []AuditCounts {
	var out []AuditCounts
	for _, g := range groups(recs) {
		a := AuditCounts{Contract: g[0].Key.Contract, Condition: g[0].Key.Condition, Decisions: map[string]int{}}
		grants := map[string]bool{}
		audited := false
		for _, r := range g {
			if r.Grant == "" {
				continue
			}
			audited = true
			grants[r.Grant] = true
			var first *runs.AuditEntry
			for i, e := range r.Audit {
				a.Calls++
				a.Decisions[e.Decision]++
				if e.Hazard {
					a.Hazards++
				}
				if e.Decision != runs.Authorized && first == nil {
					first = &r.Audit[i]
				}
			}
			if first != nil {
				a.Denied = append(a.Denied, DeniedCall{Key: r.Key, Call: first.Call, Tool: first.Tool, Decision: first.Decision, Detail: first.Detail})
			}
		}
		if !audited {
			continue
		}
		for n := range grants {
			a.Grants = append(a.Grants, n)
		}
		slices.Sort(a.Grants)
		out = append(out, a)
	}
	return out
}
