package tally

import (
	"github.com/tenetlang/tenet/eval/runs"
	"slices"
	"strconv"
)

// AuditCounts counts, for one (contract, condition), the authorization
// decisions over every call of its runs (docs/metrics.md), the nested calls
// flagged as hazards, and the grants the runs were audited against.
type AuditCounts struct {
	Contract, Condition string
	AttackOf                           // an attack's condition: its pipeline and attack
	Grants              []string       // sorted
	Calls               int            // calls audited
	Decisions           map[string]int // decision → calls
	Hazards             int            // nested calls
	// Mismatches counts calls whose result says another tool or other
	// arguments ran than were requested, or answers another call id.
	Mismatches int
	// Denied lists the runs with a call that was not authorized, sorted
	// by key, with the first such call's decision and detail; MoreDenied
	// counts such runs a report left out of Denied (metrics.Group.AddUnlisted), so
	// that len(Denied) + MoreDenied is the number of runs with such a call.
	Denied     []DeniedCall
	MoreDenied int
}

// DeniedCall names a run's first call that was not authorized.
type DeniedCall struct {
	Key      runs.Key
	Call     int
	Tool     string
	Decision string
	Detail   string
	// Text is the call rendered short when the run's excerpt has it
	// (runs.Record.Excerpt), else "".
	Text string
}

// Name is the condition's display name, as Condition.Name.
func (a AuditCounts) Name() string { return a.name(a.Contract, a.Condition) }

// CountAudit returns the audit counts of every (contract, condition) whose
// runs were audited, sorted.
func CountAudit(recs []runs.Record) []AuditCounts {
	var out []AuditCounts
	for _, g := range ConditionGroups(recs) {
		acc := NewAttackAuditAcc(groupName(g))
		for _, r := range g {
			acc.Add(r, true)
		}
		if a, ok := acc.Result(); ok {
			out = append(out, a)
		}
	}
	return out
}

// AuditAcc counts the audit of one condition's runs, added in key order.
type AuditAcc struct {
	a       AuditCounts
	grants  map[string]bool
	audited bool
}

// NewAuditAcc returns an empty AuditAcc for (contract, condition).
func NewAuditAcc(contract, condition string) *AuditAcc {
	return &AuditAcc{a: AuditCounts{Contract: contract, Condition: condition, Decisions: map[string]int{}}, grants: map[string]bool{}}
}

// Add counts r's calls; list says whether a run with a call not
// authorized is named in Denied or only counted in MoreDenied.
func (acc *AuditAcc) Add(r runs.Record, list bool) {
	if r.Grant == "" {
		return
	}
	a := &acc.a
	acc.audited = true
	acc.grants[r.Grant] = true
	var first *runs.AuditEntry
	for i, e := range r.Audit {
		a.Calls++
		a.Decisions[e.Decision]++
		if e.Hazard {
			a.Hazards++
		}
		if e.Mismatch != "" {
			a.Mismatches++
		}
		if e.Decision != runs.Authorized && first == nil {
			first = &r.Audit[i]
		}
	}
	if first != nil && !list {
		a.MoreDenied++
	} else if first != nil {
		a.Denied = append(a.Denied, DeniedCall{Key: r.Key, Call: first.Call, Tool: first.Tool, Decision: first.Decision, Detail: first.Detail,
			Text: r.Excerpt["call:"+strconv.Itoa(first.Call)]})
	}
}

// Result returns the counts; false when no run was audited.
func (acc *AuditAcc) Result() (AuditCounts, bool) {
	if !acc.audited {
		return AuditCounts{}, false
	}
	a := acc.a
	a.Grants = nil
	for n := range acc.grants {
		a.Grants = append(a.Grants, n)
	}
	slices.Sort(a.Grants)
	return a, true
}
