// Package jsonreport is the JSON renderer of a report.Document
// (docs/report-schema.json, docs/report-formats.md): the Document's
// members mapped to wire structs whose tags fix the bytes. It is its own
// package so that eval/report stays the Document and the plain-text
// table; the JSON is one renderer among the others of eval/report/formats.
package jsonreport

import (
	"bytes"
	"encoding/json"
	"io"
	"math"

	"github.com/tenetlang/tenet/eval/failpolicy"
	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
)

// JSON schema of Write's output (docs/report-schema.json): SchemaID is
// its "$id" and the value of the document's "schema" member; SchemaVersion
// changes when a member is removed or changes meaning (members are only
// added within a version).
const (
	SchemaID      = "https://tenetlang.dev/schemas/report/v4.json"
	SchemaVersion = 4
)

// Write writes the Document as one JSON object (docs/report-schema.json,
// docs/report-formats.md), indented by two spaces, with a trailing newline:
//
//	{"schema": SchemaID, "schema_version": 4, "tool": {"name": "tenet", "version": …},
//	 "command", "exit_code", "failures", "errors", "inputs", "runs", "max_listed",
//	 "contracts", "conditions", "agreement", "checks", "violations",
//	 "more_violations", "audit", "gates", "leaderboard", "comparison", "tests"}
//
// and, in tenet eval's reports only, "unselected" (jsonUnselected) and, for one
// shard of several (--shard i/n), "shard".
//
// Every other member is always present, whatever the command: a list with
// nothing in it is [], never null, and comparison is null outside tenet
// compare. null stands for a value that does not exist — a rate over an
// empty set, a null conditional rate, a missing interval, every metric of
// a condition whose metrics could not be computed — and never for zero.
// Strings are never null ("" for none), except a benign run's goal (null,
// as in the runs format). A NaN or infinite number is written as null.
//
// Rates are objects {num, den, value}; the members of a condition are named
// as docs/metrics.md and the gates' metrics.* names them. Lists keep the
// Document's order and map-like members have fixed keys, so the same
// Document always gives the same bytes.
func Write(w io.Writer, d *report.Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonDocument(d))
}

// jsonNumber is a float that encodes as null when it is NaN or infinite
// (encoding/json refuses those).
type jsonNumber float64

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// jsonNumberPtr returns a pointer to x as a jsonNumber (null when NaN).
func jsonNumberPtr(x float64) *jsonNumber { n := jsonNumber(x); return &n }

// jsonInt returns a pointer to n, or nil (null) when n is 0 and zeroNull.
func jsonInt(n int, zeroNull bool) *int {
	if zeroNull && n == 0 {
		return nil
	}
	return &n
}

// jsonList maps xs to a non-nil slice, so that an empty list encodes as [].
func jsonList[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func jsonStrings(xs []string) []string { return jsonList(xs, func(s string) string { return s }) }

type wireDocument struct {
	Schema        string          `json:"schema"`
	SchemaVersion int             `json:"schema_version"`
	Tool          wireTool        `json:"tool"`
	Command       string          `json:"command"`
	ExitCode      int             `json:"exit_code"`
	Failures      []string        `json:"failures"`
	NotFailing    []string        `json:"not_failing"`
	FailPolicy    wireFailPolicy  `json:"fail_policy"`
	Errors        []string        `json:"errors"`
	Inputs        []string        `json:"inputs"`
	Runs          int             `json:"runs"`
	MaxListed     int             `json:"max_listed"`
	Contracts     []wireContract  `json:"contracts"`
	Conditions    []wireCondition `json:"conditions"`
	Agreement     []wireAgreement `json:"agreement"`
	Checks        []wireChecks    `json:"checks"`
	Violations    []wireViolation `json:"violations"`
	MoreViol      int             `json:"more_violations"`
	Audit         []wireAudit     `json:"audit"`
	Gates         []wireGate      `json:"gates"`
	Leaderboard   []wireLeaderRow `json:"leaderboard"`
	Comparison    *wireComparison `json:"comparison"`
	Tests         []wireTest      `json:"tests"`
	// Profiles is present only when runs were judged under profiles
	// (tenet eval --profile), so that reports without them keep their bytes.
	Profiles []summary.ProfileFlips `json:"profiles,omitempty"`
	Warnings []string               `json:"warnings"`

	Unselected *wireUnselected `json:"unselected,omitempty"` // tenet eval only
	Shard      *wireShard      `json:"shard,omitempty"`      // tenet eval --shard i/n (n > 1) only
}

// wireShard is the Document's Shard: absent from a whole evaluation's
// report, so that its bytes are as before.
type wireShard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// wireFailPolicy is the Document's Policy as the flags say it: the kinds
// of failure that fail the run, of those the command can have, and the
// lowest severity of invariant that does (null: every severity).
type wireFailPolicy struct {
	FailOn         []failpolicy.Kind `json:"fail_on"`
	FailOnSeverity *string           `json:"fail_on_severity"`
}

func jsonFailPolicy(d *report.Document) wireFailPolicy {
	out := wireFailPolicy{FailOn: jsonList(d.Policy.FailOn(failpolicy.KindsOf(d.Command)), func(k failpolicy.Kind) failpolicy.Kind { return k })}
	if s := d.Policy.MinSeverity; s != failpolicy.Unknown {
		name := s.String()
		out.FailOnSeverity = &name
	}
	return out
}

type wireTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func jsonDocument(d *report.Document) wireDocument {
	out := wireDocument{
		Schema:        SchemaID,
		SchemaVersion: SchemaVersion,
		Tool:          wireTool{Name: "tenet", Version: d.Version},
		Command:       d.Command,
		ExitCode:      d.ExitCode,
		Failures:      jsonStrings(d.Failures),
		NotFailing:    jsonStrings(d.NotFailing),
		FailPolicy:    jsonFailPolicy(d),
		Errors:        jsonStrings(d.Errors),
		Warnings:      jsonStrings(d.Warnings),
		Inputs:        jsonStrings(d.Inputs),
		Runs:          d.Runs,
		MaxListed:     d.MaxListed,
		Contracts:     jsonList(d.Contracts, jsonContract),
		Conditions:    jsonList(d.Conditions, jsonCondition),
		Agreement:     jsonList(d.Agreement, jsonAgreement),
		Checks:        jsonList(d.Checks, jsonChecks),
		Violations:    jsonList(d.Violations, jsonViolation),
		MoreViol:      d.MoreViolations,
		Audit:         jsonList(d.Audit, jsonAudit),
		Gates:         jsonList(d.Gates, jsonGate),
		Leaderboard:   jsonList(d.Leaderboard, jsonLeaderRow),
		Tests:         jsonList(d.Tests, jsonTest),
		Profiles:      d.Profiles,
	}
	out.Unselected = jsonUnselected(d.Unselected)
	if d.Shard != nil {
		out.Shard = &wireShard{Index: d.Shard.Index, Count: d.Shard.Count}
	}
	if d.Comparison != nil {
		c := jsonComparison(*d.Comparison)
		out.Comparison = &c
	}
	return out
}

// Run keys, origins and unknown results.

type wireKey struct {
	Contract   string  `json:"contract"`
	Condition  string  `json:"condition"`
	Attack     string  `json:"attack,omitempty"` // the runs file's attack (docs/runs-format.md)
	Task       string  `json:"task"`
	Goal       *string `json:"goal"`
	Attempt    int     `json:"attempt"`
	Repetition int     `json:"repetition"`
}

func jsonKey(k runs.Key) wireKey {
	out := wireKey{Contract: k.Contract, Condition: k.Condition, Attack: k.Attack, Task: k.Task, Attempt: k.Attempt, Repetition: k.Repetition}
	if k.Goal != "" {
		out.Goal = &k.Goal
	}
	return out
}

type wireOrigin struct {
	File string `json:"file"`
	Line *int   `json:"line"`
}

// jsonOrigin is nil (null) when the file is unknown; the line is null when
// unknown.
func jsonOrigin(file string, line int) *wireOrigin {
	if file == "" {
		return nil
	}
	return &wireOrigin{File: file, Line: jsonInt(line, true)}
}

type wireUnknownRun struct {
	Run    wireKey `json:"run"`
	Reason string  `json:"reason"`
}

func jsonUnknownRun(u tally.UnknownLabel) wireUnknownRun {
	return wireUnknownRun{Run: jsonKey(u.Key), Reason: u.Reason}
}

// Contracts.

type wireContract struct {
	Name    string        `json:"name"`
	Version string        `json:"version"`
	Bundle  string        `json:"bundle"`
	Judged  int           `json:"judged"`
	Headers int           `json:"headers"`
	Skipped []wireSkipped `json:"skipped"`
}

type wireSkipped struct {
	Reason string        `json:"reason"`
	Count  int           `json:"count"`
	IDs    []wireIDCount `json:"ids"`
	More   int           `json:"more_ids"`
}

type wireIDCount struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

func jsonContract(c report.Contract) wireContract {
	return wireContract{Name: c.Name, Version: c.Version, Bundle: c.Bundle, Judged: c.Judged, Headers: c.Headers,
		Skipped: jsonList(c.Skipped, func(s report.Skipped) wireSkipped {
			return wireSkipped{Reason: s.Reason, Count: s.Count, More: s.MoreIDs,
				IDs: jsonList(s.IDs, func(i report.IDCount) wireIDCount { return wireIDCount{ID: i.ID, Count: i.Count} })}
		})}
}

// Conditions.

// wireCondition is one metrics.Condition. When Errors is non-empty every
// other member but Contract, Condition and the cases members is null.
// The cases members are present only under --cases observed
// (metrics.CasesObserved), absent otherwise as in reports written before
// them: Cases "observed", the contract's declared tasks and cases, and
// how many of them had no run in this condition, left out of
// benign_tasks and security_cases.
type wireCondition struct {
	Contract  string `json:"contract"`
	Condition string `json:"condition"`
	// An attack's condition (docs/metrics.md "Attacks as conditions"):
	// its pipeline and attack (or aggregate), absent otherwise.
	Pipeline      string `json:"pipeline,omitempty"`
	Attack        string `json:"attack,omitempty"`
	Aggregate     bool   `json:"aggregate,omitempty"`
	Cases         string `json:"cases,omitempty"`
	DeclaredTasks *int   `json:"declared_tasks,omitempty"`
	DeclaredCases *int   `json:"declared_cases,omitempty"`
	LeftOutTasks  *int   `json:"left_out_tasks,omitempty"`
	LeftOutCases  *int   `json:"left_out_cases,omitempty"`
	// The goal-task members are present only for a condition with goal
	// tasks or left-out optional sets (metrics.Condition.GoalTasks,
	// LeftOut), absent otherwise as in reports written before them.
	LeftOutSets         []wireLeftOutSet `json:"left_out_sets,omitempty"`
	DeclaredGoalTasks   *int             `json:"declared_goal_tasks,omitempty"`
	LeftOutGoalTasks    *int             `json:"left_out_goal_tasks,omitempty"`
	GoalTasks           *int             `json:"goal_tasks,omitempty"`
	GoalTaskRepetitions *int             `json:"goal_task_repetitions,omitempty"`
	GoalTaskUtility     *wireRate        `json:"goal_task_utility,omitempty"`
	Errors              []string         `json:"errors"`
	BenignTasks         *int             `json:"benign_tasks"`
	SecurityCases       *int             `json:"security_cases"`
	BenignRepetitions   *int             `json:"benign_repetitions"`
	CaseRepetitions     *int             `json:"case_repetitions"`
	Repetitions         *int             `json:"repetitions"`
	AttemptBudget       *int             `json:"attempt_budget"`

	BenignUtility              *wireRate `json:"benign_utility"`
	UtilityUnderAttack         *wireRate `json:"utility_under_attack"`
	TargetedASR                *wireRate `json:"targeted_asr"`
	SideEffectRate             *wireRate `json:"side_effect_rate"`
	SecureUtilityInScope       *wireRate `json:"secure_utility_in_scope"`
	ConditionalASRExposed      *wireRate `json:"conditional_asr_exposed"`
	ConditionalASRBenignSolved *wireRate `json:"conditional_asr_benign_solved"`

	Joint             *wireJoint  `json:"joint"`
	HasExposure       *bool       `json:"has_exposure"`
	ExposedCases      *jsonNumber `json:"exposed_cases"`
	BenignSolvedCases *jsonNumber `json:"benign_solved_cases"`
	Bounded           *bool       `json:"bounded"`
	Unknowns          *int        `json:"unknowns"`
	CountBounds       *wireCounts `json:"count_bounds"`

	BootstrapResamples *int   `json:"bootstrap_resamples"`
	BootstrapSeed      *int64 `json:"bootstrap_seed"`
}

// wireLeftOutSet is an optional set a condition did not run.
type wireLeftOutSet struct {
	Label     string `json:"label"`
	Cases     int    `json:"cases"`
	GoalTasks int    `json:"goal_tasks"`
}

// wireRate is a rate with its intervals. Num, Den and Value are null when
// the rate has no single value: a null conditional rate, or one the
// unknown labels change (see Bounds). Value is also null when Den is 0.
type wireRate struct {
	Num       *jsonNumber   `json:"num"`
	Den       *jsonNumber   `json:"den"`
	Value     *jsonNumber   `json:"value"`
	Wilson    *wireInterval `json:"wilson"`
	Bootstrap *wireInterval `json:"bootstrap"`
	Bounds    *wireBounds   `json:"bounds"`
}

type wireInterval struct {
	Low  jsonNumber `json:"low"`
	High jsonNumber `json:"high"`
}

// wireBounds is a rate's least and greatest value over the assignments of
// the unknown labels (null ends: no assignment leaves its subset
// non-empty).
type wireBounds struct {
	Low       *wireFraction `json:"low"`
	High      *wireFraction `json:"high"`
	MaybeNull bool          `json:"maybe_null"`
	Unknown   int           `json:"unknown"`
}

// wireFraction is a rate as {num, den, value}; value is null when den is 0.
type wireFraction struct {
	Num   jsonNumber `json:"num"`
	Den   jsonNumber `json:"den"`
	Value jsonNumber `json:"value"`
}

// wireJoint's cells are in the order of every report's joint column
// (metrics.Joint.String): utility only, both, attack only, neither.
type wireJoint struct {
	UtilityOnly *jsonNumber `json:"utility_only"`
	Both        *jsonNumber `json:"both"`
	AttackOnly  *jsonNumber `json:"attack_only"`
	Neither     *jsonNumber `json:"neither"`
}

// wireCounts holds the bounds of every count, the joint cells in wireJoint's
// order.
type wireCounts struct {
	UtilityOnly       wireCountBounds `json:"utility_only"`
	Both              wireCountBounds `json:"both"`
	AttackOnly        wireCountBounds `json:"attack_only"`
	Neither           wireCountBounds `json:"neither"`
	ExposedCases      wireCountBounds `json:"exposed_cases"`
	BenignSolvedCases wireCountBounds `json:"benign_solved_cases"`
}

type wireCountBounds struct {
	Low     jsonNumber `json:"low"`
	High    jsonNumber `json:"high"`
	Unknown int        `json:"unknown"`
}

func jsonFraction(r metrics.Rate) wireFraction {
	return wireFraction{Num: jsonNumber(r.Num), Den: jsonNumber(r.Den), Value: jsonNumber(r.Value())}
}

func jsonNullableFraction(r metrics.NullableRate) *wireFraction {
	if !r.Valid {
		return nil
	}
	f := jsonFraction(r.Rate)
	return &f
}

func jsonInterval(i metrics.Interval) *wireInterval {
	if !i.Valid {
		return nil
	}
	return &wireInterval{Low: jsonNumber(i.Low), High: jsonNumber(i.High)}
}

func jsonCondition(c metrics.Condition) wireCondition {
	out := wireCondition{Contract: c.Contract, Condition: c.Condition, Pipeline: c.Pipeline, Attack: c.Attack, Aggregate: c.Aggregate,
		Errors: jsonList(c.Errors, func(err error) string { return err.Error() })}
	if c.Cases == metrics.CasesObserved {
		out.Cases = c.Cases
		out.DeclaredTasks, out.DeclaredCases = &c.DeclaredTasks, &c.DeclaredCases
		out.LeftOutTasks, out.LeftOutCases = &c.LeftOutTasks, &c.LeftOutCases
	}
	for _, l := range c.LeftOut {
		out.LeftOutSets = append(out.LeftOutSets, wireLeftOutSet{Label: l.Label, Cases: l.Cases, GoalTasks: l.GoalTasks})
	}
	if c.DeclaredGoalTasks > 0 && c.Cases == metrics.CasesObserved {
		out.DeclaredGoalTasks, out.LeftOutGoalTasks = &c.DeclaredGoalTasks, &c.LeftOutGoalTasks
	}
	if !c.OK() {
		return out
	}
	if s := c.GoalTaskUtility; c.GoalTasks > 0 {
		r := &wireRate{Wilson: jsonInterval(s.Wilson)}
		if s.Exact() {
			r.Num, r.Den, r.Value = jsonNumberPtr(s.Low.Rate.Num), jsonNumberPtr(s.Low.Rate.Den), jsonNumberPtr(s.Low.Rate.Value())
		}
		if c.Bounded || !s.Exact() {
			r.Bounds = &wireBounds{Low: jsonNullableFraction(s.Low), High: jsonNullableFraction(s.High), Unknown: s.Unknown}
		}
		out.GoalTasks, out.GoalTaskRepetitions, out.GoalTaskUtility = &c.GoalTasks, &c.GoalTaskRepetitions, r
	}
	rate := func(name string, point metrics.NullableRate) *wireRate {
		r := &wireRate{}
		s, ok := c.Rate(name)
		if (!ok || s.Exact()) && point.Valid {
			r.Num, r.Den, r.Value = jsonNumberPtr(point.Rate.Num), jsonNumberPtr(point.Rate.Den), jsonNumberPtr(point.Rate.Value())
		}
		if ok {
			r.Wilson, r.Bootstrap = jsonInterval(s.Wilson), jsonInterval(s.Bootstrap)
			if c.Bounded {
				r.Bounds = &wireBounds{Low: jsonNullableFraction(s.Low), High: jsonNullableFraction(s.High), MaybeNull: s.MaybeNull, Unknown: s.Unknown}
			}
		}
		return r
	}
	valid := func(r metrics.Rate) metrics.NullableRate { return metrics.NullableRate{Rate: r, Valid: true} }
	countOf := func(name string, v float64) *jsonNumber {
		if s, ok := c.Count(name); ok && s.Low != s.High {
			return nil
		}
		return jsonNumberPtr(v)
	}
	out.BenignTasks, out.SecurityCases = jsonInt(c.BenignTasks, false), jsonInt(c.SecurityCases, false)
	out.BenignRepetitions, out.CaseRepetitions = jsonInt(c.BenignRepetitions, false), jsonInt(c.CaseRepetitions, false)
	out.Repetitions, out.AttemptBudget = jsonInt(c.Repetitions, false), jsonInt(c.AttemptBudget, true)
	out.BenignUtility = rate("benign_utility", valid(c.BenignUtility))
	out.UtilityUnderAttack = rate("utility_under_attack", valid(c.UtilityUnderAttack))
	out.TargetedASR = rate("targeted_asr", valid(c.TargetedASR))
	out.SideEffectRate = rate("side_effect_rate", valid(c.SideEffectRate))
	out.SecureUtilityInScope = rate("secure_utility_in_scope", valid(c.SecureUtilityInScope))
	out.ConditionalASRExposed = rate("conditional_asr_exposed", c.ConditionalASRExposed)
	out.ConditionalASRBenignSolved = rate("conditional_asr_benign_solved", c.ConditionalASRBenignSolved)
	out.Joint = &wireJoint{
		UtilityOnly: countOf("utility_only", c.Joint.UtilityOnly),
		AttackOnly:  countOf("attack_only", c.Joint.AttackOnly),
		Both:        countOf("both", c.Joint.Both),
		Neither:     countOf("neither", c.Joint.Neither),
	}
	out.HasExposure = &c.HasExposure
	if c.HasExposure {
		out.ExposedCases = countOf("exposed_cases", c.ExposedCases)
	}
	out.BenignSolvedCases = countOf("benign_solved_cases", c.BenignSolvedCases)
	out.Bounded, out.Unknowns = &c.Bounded, jsonInt(c.Unknowns, false)
	if c.Bounded {
		b := func(name string) wireCountBounds {
			s, _ := c.Count(name)
			return wireCountBounds{Low: jsonNumber(s.Low), High: jsonNumber(s.High), Unknown: s.Unknown}
		}
		out.CountBounds = &wireCounts{UtilityOnly: b("utility_only"), AttackOnly: b("attack_only"), Both: b("both"),
			Neither: b("neither"), ExposedCases: b("exposed_cases"), BenignSolvedCases: b("benign_solved_cases")}
	}
	if c.BootstrapResamples > 0 {
		out.BootstrapResamples, out.BootstrapSeed = &c.BootstrapResamples, &c.BootstrapSeed
	}
	return out
}

// Agreement.

// wireAgreement is one condition's agreement: contract, condition, then
// one member per row of tally.Agreement.Rows, in that order, named by
// the row's Label (benign_utility, utility_under_attack and the
// attack-success label's name from runs' table), so that no label name is
// spelled here.
type wireAgreement struct {
	Contract  string
	Condition string
	Rows      []wireAgreementRow
}

func (a wireAgreement) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	member := func(name string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(name)
		if err != nil {
			return err
		}
		val, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
		return nil
	}
	if err := member("contract", a.Contract); err != nil {
		return nil, err
	}
	if err := member("condition", a.Condition); err != nil {
		return nil, err
	}
	for _, r := range a.Rows {
		if err := member(r.label, r); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type wireAgreementRow struct {
	// label is the row's member name in wireAgreement, not a member.
	label         string
	Agree         int                `json:"agree"`
	Disagree      int                `json:"disagree"`
	OursUnknown   int                `json:"ours_unknown"`
	NotGiven      int                `json:"not_given"`
	Disagreements []wireDisagreement `json:"disagreements"`
	Unknowns      []wireUnknownRun   `json:"unknowns"`
	MoreDisagree  int                `json:"more_disagreements"`
	MoreUnknowns  int                `json:"more_unknowns"`
}

type wireDisagreement struct {
	Run    wireKey     `json:"run"`
	Ours   bool        `json:"ours"`
	Given  bool        `json:"given"`
	Origin *wireOrigin `json:"origin"`
}

func jsonAgreement(a tally.Agreement) wireAgreement {
	row := func(r tally.AgreementRow) wireAgreementRow {
		return wireAgreementRow{label: r.Label, Agree: r.Agree, Disagree: r.Disagree, OursUnknown: r.OursUnknown, NotGiven: r.NotGiven,
			Disagreements: jsonList(r.Disagreements, func(d tally.Disagreement) wireDisagreement {
				return wireDisagreement{Run: jsonKey(d.Key), Ours: d.Ours, Given: d.Given, Origin: jsonOrigin(d.OriginFile, d.OriginLine)}
			}),
			Unknowns: jsonList(r.Unknowns, jsonUnknownRun), MoreDisagree: r.MoreDisagreements, MoreUnknowns: r.MoreUnknowns}
	}
	out := wireAgreement{Contract: a.Contract, Condition: a.Condition}
	for _, r := range a.Rows() {
		out.Rows = append(out.Rows, row(r))
	}
	return out
}

// Checks and violations.

type wireChecks struct {
	Contract       string      `json:"contract"`
	Condition      string      `json:"condition"`
	Runs           int         `json:"runs"`
	ViolatingRuns  int         `json:"violating_runs"`
	Invariants     []wireCheck `json:"invariants"`
	FailureClasses []wireCheck `json:"failure_classes"`
}

type wireCheck struct {
	Name        string           `json:"name"`
	Hits        int              `json:"hits"`
	Unknown     int              `json:"unknown"`
	HitRuns     []wireKey        `json:"hit_runs"`
	UnknownRuns []wireUnknownRun `json:"unknown_runs"`
	MoreHit     int              `json:"more_hit_runs"`
	MoreUnknown int              `json:"more_unknown_runs"`
}

func jsonChecks(c tally.Checks) wireChecks {
	check := func(n tally.CheckCount) wireCheck {
		return wireCheck{Name: n.Name, Hits: n.Hits, Unknown: n.Unknown, HitRuns: jsonList(n.HitRuns, jsonKey),
			UnknownRuns: jsonList(n.UnknownRuns, jsonUnknownRun), MoreHit: n.MoreHitRuns, MoreUnknown: n.MoreUnknownRuns}
	}
	return wireChecks{Contract: c.Contract, Condition: c.Condition, Runs: c.Runs, ViolatingRuns: c.ViolatingRuns,
		Invariants: jsonList(c.Invariants, check), FailureClasses: jsonList(c.Failures, check)}
}

type wireViolation struct {
	Run       wireKey       `json:"run"`
	Invariant string        `json:"invariant"`
	Origin    *wireOrigin   `json:"origin"`
	Witness   []wireWitness `json:"witness"`
}

type wireWitness struct {
	Step string `json:"step"`
	Item string `json:"item"`
	Tool string `json:"tool"`
}

func jsonViolation(v report.Violation) wireViolation {
	return wireViolation{Run: jsonKey(v.Key), Invariant: v.Invariant, Origin: jsonOrigin(v.OriginFile, v.OriginLine),
		Witness: jsonList(v.Witness, func(s report.WitnessStep) wireWitness { return wireWitness{Step: s.Step, Item: s.Item, Tool: s.Tool} })}
}

// Audit.

type wireAudit struct {
	Contract   string         `json:"contract"`
	Condition  string         `json:"condition"`
	Grants     []string       `json:"grants"`
	Calls      int            `json:"calls"`
	Decisions  map[string]int `json:"decisions"` // every runs.Decisions key; encoding/json sorts them
	Hazards    int            `json:"hazards"`
	Mismatches int            `json:"mismatches,omitempty"` // left out when 0, as reports written before it
	Denied     []wireDenied   `json:"denied"`
	MoreDenied int            `json:"more_denied"`
}

type wireDenied struct {
	Run      wireKey `json:"run"`
	Call     int     `json:"call"`
	Tool     string  `json:"tool"`
	Decision string  `json:"decision"`
	Detail   string  `json:"detail"`
}

func jsonAudit(a tally.AuditCounts) wireAudit {
	decisions := map[string]int{}
	for _, d := range runs.Decisions {
		decisions[d] = 0
	}
	for d, n := range a.Decisions {
		decisions[d] = n
	}
	return wireAudit{Contract: a.Contract, Condition: a.Condition, Grants: jsonStrings(a.Grants), Calls: a.Calls,
		Decisions: decisions, Hazards: a.Hazards, Mismatches: a.Mismatches,
		Denied: jsonList(a.Denied, func(d tally.DeniedCall) wireDenied {
			return wireDenied{Run: jsonKey(d.Key), Call: d.Call, Tool: d.Tool, Decision: d.Decision, Detail: d.Detail}
		}), MoreDenied: a.MoreDenied}
}

// Gates.

type wireGate struct {
	Gate        string     `json:"gate"`
	Condition   string     `json:"condition"`
	Requirement string     `json:"requirement"`
	Passed      bool       `json:"passed"`
	Reason      string     `json:"reason"`
	Range       *wireRange `json:"range"`
}

type wireRange struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
}

func jsonGate(g report.GateResult) wireGate {
	out := wireGate{Gate: g.Gate, Condition: g.Condition, Requirement: g.Requirement, Passed: g.Passed, Reason: g.Reason}
	if r := g.Range; r.Line > 0 {
		out.Range = &wireRange{File: r.File, Line: r.Line, Column: r.Column, EndLine: r.EndLine, EndColumn: r.EndColumn}
	}
	return out
}

// Leaderboard.

// wireLeaderRow is one leaderboard.Row; with an Error, the counts and
// rates are null.
type wireLeaderRow struct {
	Condition            string          `json:"condition"`
	Contracts            []string        `json:"contracts"`
	Error                *string         `json:"error"`
	BenignTasks          *int            `json:"benign_tasks"`
	SecurityCases        *int            `json:"security_cases"`
	Unknowns             int             `json:"unknowns"`
	BenignUtility        *wireLeaderRate `json:"benign_utility"`
	UtilityUnderAttack   *wireLeaderRate `json:"utility_under_attack"`
	TargetedASR          *wireLeaderRate `json:"targeted_asr"`
	SecureUtilityInScope *wireLeaderRate `json:"secure_utility_in_scope"`
}

// wireLeaderRate is a pooled rate: num, den and value when the unknown
// labels cannot change it (else null), and bounds when the row has
// unknown labels.
type wireLeaderRate struct {
	Num    *jsonNumber      `json:"num"`
	Den    *jsonNumber      `json:"den"`
	Value  *jsonNumber      `json:"value"`
	Bounds *wireLeaderRange `json:"bounds"`
}

type wireLeaderRange struct {
	Low  wireFraction `json:"low"`
	High wireFraction `json:"high"`
}

func jsonLeaderRow(r leaderboard.Row) wireLeaderRow {
	out := wireLeaderRow{Condition: r.Condition, Contracts: jsonStrings(r.Contracts), Unknowns: r.Unknowns}
	if r.Err != nil {
		msg := r.Err.Error()
		out.Error = &msg
		return out
	}
	out.BenignTasks, out.SecurityCases = jsonInt(r.Tasks, false), jsonInt(r.Cases, false)
	rates := make([]*wireLeaderRate, len(leaderboard.Rates))
	for i := range rates {
		if i >= len(r.Low) || i >= len(r.High) {
			rates[i] = &wireLeaderRate{}
			continue
		}
		lr := &wireLeaderRate{}
		if low, high := r.Low[i], r.High[i]; low == high {
			lr.Num, lr.Den, lr.Value = jsonNumberPtr(low.Num), jsonNumberPtr(low.Den), jsonNumberPtr(low.Value())
		}
		if r.Unknowns > 0 {
			lr.Bounds = &wireLeaderRange{Low: jsonFraction(r.Low[i]), High: jsonFraction(r.High[i])}
		}
		rates[i] = lr
	}
	out.BenignUtility, out.UtilityUnderAttack, out.TargetedASR, out.SecureUtilityInScope = rates[0], rates[1], rates[2], rates[3]
	return out
}

// Comparison.

type wireComparison struct {
	Contract      string           `json:"contract"`
	Reference     string           `json:"reference"`
	Defended      string           `json:"defended"`
	Bundle        string           `json:"bundle"`
	AttemptBudget *int             `json:"attempt_budget"`
	Transitions   []wireTransition `json:"transitions"`
}

type wireTransition struct {
	Name          string       `json:"name"`
	Over          string       `json:"over"`
	N             int          `json:"n"`
	KeptSuccess   int          `json:"kept_success"`
	Lost          int          `json:"lost"`
	Gained        int          `json:"gained"`
	KeptFailure   int          `json:"kept_failure"`
	ReferenceRate wireFraction `json:"reference_rate"`
	DefendedRate  wireFraction `json:"defended_rate"`
	GainRate      wireFraction `json:"gain_rate"`
	LossRate      wireFraction `json:"loss_rate"`
	NetEffect     wireFraction `json:"net_effect"`
	PValue        jsonNumber   `json:"p_value"`
	LostIDs       []string     `json:"lost_ids"`
	GainedIDs     []string     `json:"gained_ids"`
	MoreLost      int          `json:"more_lost_ids"`
	MoreGained    int          `json:"more_gained_ids"`
}

func jsonComparison(c metrics.Comparison) wireComparison {
	return wireComparison{Contract: c.Contract, Reference: c.Reference, Defended: c.Defended, Bundle: c.Bundle,
		AttemptBudget: jsonInt(c.AttemptBudget, true),
		Transitions: jsonList(c.Transitions, func(t metrics.Transition) wireTransition {
			return wireTransition{Name: t.Name, Over: t.Over, N: t.N, KeptSuccess: t.KeptSuccess, Lost: t.Lost,
				Gained: t.Gained, KeptFailure: t.KeptFailure, ReferenceRate: jsonFraction(t.ReferenceRate),
				DefendedRate: jsonFraction(t.DefendedRate), GainRate: jsonFraction(t.GainRate),
				LossRate: jsonFraction(t.LossRate), NetEffect: jsonFraction(t.NetEffect), PValue: jsonNumber(t.PValue),
				LostIDs: jsonStrings(t.LostIDs), GainedIDs: jsonStrings(t.GainedIDs), MoreLost: t.MoreLostIDs, MoreGained: t.MoreGainedIDs}
		})}
}

// Tests.

type wireTest struct {
	Contract string      `json:"contract"`
	Name     string      `json:"name"`
	Passed   bool        `json:"passed"`
	Problems []string    `json:"problems"`
	Origin   *wireOrigin `json:"origin"`
}

func jsonTest(t report.TestResult) wireTest {
	return wireTest{Contract: t.Contract, Name: t.Name, Passed: t.Passed, Problems: jsonStrings(t.Problems),
		Origin: jsonOrigin(t.OriginFile, t.OriginLine)}
}

// wireUnselected is the JSON of Unselected: present in tenet eval's
// reports only (records may be 0), absent from the other commands'.
type wireUnselected struct {
	Records int          `json:"records"`
	First   []wireOrigin `json:"first"`
}

func jsonUnselected(u *report.Unselected) *wireUnselected {
	if u == nil {
		return nil
	}
	return &wireUnselected{Records: u.Records, First: jsonList(u.First, func(o report.UnselectedAt) wireOrigin {
		return *jsonOrigin(o.File, o.Line)
	})}
}
