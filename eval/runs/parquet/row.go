package parquet

import (
	"github.com/tenetlang/tenet/eval/runs"
)

// Row is one run as a Parquet row: the file's schema is this struct's
// (parquet-go's struct tags), column by column in docs/export.md. A Go
// program reads a file with parquet-go's GenericReader[Row] and gets each
// run back with Row.Record.
//
// A label is two columns: its value, a nullable boolean (null when the
// label is unknown or absent, never false), and the reason it is unknown
// (null when it is known or absent). So null with a reason is unknown,
// null without one is absent (attack_success on a benign run, exposed
// where the contract declares no exposure criterion). Invariants and
// failure classes are the same pair as MAPs keyed by name. Strings that
// the runs format leaves out when empty (attack, goal, bundle, grant,
// origin file, an audit entry's detail and mismatch) are null when empty;
// so are the numbers it leaves out when 0 (attempt_budget, origin_line)
// and an audit entry's parent when -1. Maps and the audit list are never
// null: no entries is an empty map or list.
type Row struct {
	Contract   string  `parquet:"contract,dict"`
	Condition  string  `parquet:"condition,dict"`
	Attack     *string `parquet:"attack,optional,dict"`
	Task       string  `parquet:"task,dict"`
	Goal       *string `parquet:"goal,optional,dict"`
	GoalTask   bool    `parquet:"goal_task"`
	Attempt    int64   `parquet:"attempt"`
	Repetition int64   `parquet:"repetition"`

	Utility       *bool `parquet:"utility,optional"`
	AttackSuccess *bool `parquet:"attack_success,optional"`
	SideEffect    *bool `parquet:"side_effect,optional"`
	Exposed       *bool `parquet:"exposed,optional"`

	UtilityUnknownReason       *string `parquet:"utility_unknown_reason,optional"`
	AttackSuccessUnknownReason *string `parquet:"attack_success_unknown_reason,optional"`
	SideEffectUnknownReason    *string `parquet:"side_effect_unknown_reason,optional"`
	ExposedUnknownReason       *string `parquet:"exposed_unknown_reason,optional"`

	GivenUtility       *bool `parquet:"given_utility,optional"`
	GivenAttackSuccess *bool `parquet:"given_attack_success,optional"`
	GivenSideEffect    *bool `parquet:"given_side_effect,optional"`

	Invariants               map[string]*bool             `parquet:"invariants"`
	InvariantsUnknownReasons map[string]string            `parquet:"invariants_unknown_reasons"`
	Failures                 map[string]*bool             `parquet:"failures"`
	FailuresUnknownReasons   map[string]string            `parquet:"failures_unknown_reasons"`
	Witnesses                map[string]map[string]string `parquet:"witnesses"`

	Bundle        *string           `parquet:"bundle,optional,dict"`
	AttemptBudget *int64            `parquet:"attempt_budget,optional"`
	Grant         *string           `parquet:"grant,optional,dict"`
	Audit         []AuditRow        `parquet:"audit,list"`
	OriginFile    *string           `parquet:"origin_file,optional,dict"`
	OriginLine    *int64            `parquet:"origin_line,optional"`
	Excerpt       map[string]string `parquet:"excerpt"`
}

// AuditRow is one element of the audit list: runs.AuditEntry.
type AuditRow struct {
	Call     int64   `parquet:"call"`
	Tool     string  `parquet:"tool,dict"`
	Decision string  `parquet:"decision,dict"`
	Detail   *string `parquet:"detail,optional"`
	Parent   *int64  `parquet:"parent,optional"`
	Hazard   bool    `parquet:"hazard"`
	Mismatch *string `parquet:"mismatch,optional"`
}

// rowOf maps a record to its row (the mapping of docs/export.md).
func rowOf(r runs.Record) Row {
	row := Row{
		Contract: r.Key.Contract, Condition: r.Key.Condition, Attack: nonEmpty(r.Key.Attack),
		Task: r.Key.Task, Goal: nonEmpty(r.Key.Goal), GoalTask: r.GoalTask,
		Attempt: int64(r.Key.Attempt), Repetition: int64(r.Key.Repetition),
		GivenUtility: r.Given.Utility, GivenAttackSuccess: r.Given.AttackSuccess, GivenSideEffect: r.Given.SideEffect,
		Invariants: map[string]*bool{}, InvariantsUnknownReasons: map[string]string{},
		Failures: map[string]*bool{}, FailuresUnknownReasons: map[string]string{},
		Witnesses: map[string]map[string]string{}, Excerpt: map[string]string{},
		Bundle: nonEmpty(r.Bundle), AttemptBudget: nonZero(r.AttemptBudget), Grant: nonEmpty(r.Grant),
		Audit: make([]AuditRow, 0, len(r.Audit)), OriginFile: nonEmpty(r.OriginFile), OriginLine: nonZero(r.OriginLine),
	}
	row.Utility, row.UtilityUnknownReason = label(r.Utility)
	row.AttackSuccess, row.AttackSuccessUnknownReason = label(r.AttackSuccess)
	row.SideEffect, row.SideEffectUnknownReason = label(r.SideEffect)
	if r.HasExposed {
		row.Exposed, row.ExposedUnknownReason = label(r.Exposed)
	}
	checks(r.Invariants, row.Invariants, row.InvariantsUnknownReasons)
	checks(r.Failures, row.Failures, row.FailuresUnknownReasons)
	for k, steps := range r.Witnesses {
		row.Witnesses[k] = steps
	}
	for k, v := range r.Excerpt {
		row.Excerpt[k] = v
	}
	for _, e := range r.Audit {
		a := AuditRow{Call: int64(e.Call), Tool: e.Tool, Decision: e.Decision, Detail: nonEmpty(e.Detail), Hazard: e.Hazard, Mismatch: nonEmpty(e.Mismatch)}
		if e.Parent != -1 {
			p := int64(e.Parent)
			a.Parent = &p
		}
		row.Audit = append(row.Audit, a)
	}
	return row
}

// Record maps a row back to the record it was written from, as a runs file
// reads it back (an empty map or audit is nil).
func (row Row) Record() runs.Record {
	r := runs.Record{
		Key: runs.Key{Contract: row.Contract, Condition: row.Condition, Attack: deref(row.Attack), Task: row.Task,
			Goal: deref(row.Goal), Attempt: int(row.Attempt), Repetition: int(row.Repetition)},
		GoalTask: row.GoalTask,
		Utility:  unlabel(row.Utility, row.UtilityUnknownReason), AttackSuccess: unlabel(row.AttackSuccess, row.AttackSuccessUnknownReason),
		SideEffect: unlabel(row.SideEffect, row.SideEffectUnknownReason), Exposed: unlabel(row.Exposed, row.ExposedUnknownReason),
		Given:      runs.Given{Utility: row.GivenUtility, AttackSuccess: row.GivenAttackSuccess, SideEffect: row.GivenSideEffect},
		Invariants: unchecks(row.Invariants, row.InvariantsUnknownReasons), Failures: unchecks(row.Failures, row.FailuresUnknownReasons),
		Bundle: deref(row.Bundle), AttemptBudget: int(derefInt(row.AttemptBudget)), Grant: deref(row.Grant),
		OriginFile: deref(row.OriginFile), OriginLine: int(derefInt(row.OriginLine)),
	}
	r.HasExposed = !r.Exposed.Absent()
	if len(row.Witnesses) > 0 {
		r.Witnesses = row.Witnesses
	}
	if len(row.Excerpt) > 0 {
		r.Excerpt = row.Excerpt
	}
	for _, a := range row.Audit {
		e := runs.AuditEntry{Call: int(a.Call), Tool: a.Tool, Decision: a.Decision, Detail: deref(a.Detail), Parent: -1, Hazard: a.Hazard, Mismatch: deref(a.Mismatch)}
		if a.Parent != nil {
			e.Parent = int(*a.Parent)
		}
		r.Audit = append(r.Audit, e)
	}
	return r
}

// label is a label's two columns: its value (nil unless known) and the
// reason it is unknown (nil unless unknown).
func label(l runs.Label) (*bool, *string) {
	switch {
	case l.Known:
		v := l.Value
		return &v, nil
	case l.Absent():
		return nil, nil
	}
	why := l.Reason
	return nil, &why
}

func unlabel(v *bool, why *string) runs.Label {
	switch {
	case v != nil:
		return runs.Bool(*v)
	case why != nil:
		return runs.Unknown(*why)
	}
	return runs.Label{}
}

// checks fills a check group's two maps: every name with its value (nil
// when unknown), and the unknown ones' reasons.
func checks(m map[string]runs.Label, vals map[string]*bool, reasons map[string]string) {
	for name, l := range m {
		v, why := label(l)
		vals[name] = v
		if why != nil {
			reasons[name] = *why
		}
	}
}

func unchecks(vals map[string]*bool, reasons map[string]string) map[string]runs.Label {
	if len(vals) == 0 {
		return nil
	}
	m := make(map[string]runs.Label, len(vals))
	for name, v := range vals {
		if v != nil {
			m[name] = runs.Bool(*v)
		} else {
			m[name] = runs.Unknown(reasons[name])
		}
	}
	return m
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonZero(n int) *int64 {
	if n == 0 {
		return nil
	}
	v := int64(n)
	return &v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func derefInt(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}
