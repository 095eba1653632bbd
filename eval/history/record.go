package history

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// NewEvaluation is what Record stores: a report Document with the runs it
// was built from, and where they came from.
type NewEvaluation struct {
	Document *report.Document
	// Runs are the judged runs, in key order (runs.Key.Compare), no key
	// twice: every one is stored as its runs-file line.
	Runs []runs.Record
	// Inputs are the files read (transcripts or runs files), in the order
	// given, with their hashes (HashInputs).
	Inputs []Input
	// Commit and Dirty are the git commit of the working directory and
	// whether its tree had changes (Git); "" when unknown.
	Commit string
	Dirty  bool
	// Recorded is when: the wall clock, or a fixed time in tests; stored
	// in UTC. The zero time is refused.
	Recorded time.Time
	Note     string
	// Given are the contracts the command was given whose runs the
	// Document does not list (tenet report --contract): their names and
	// versions are recorded, and runs of their bundles get their version.
	Given []report.Contract
}

// Record stores e as a new evaluation, in one transaction: it is recorded
// whole or not at all. It returns the evaluation's id.
func (db *DB) Record(e NewEvaluation) (int64, error) {
	if e.Document == nil {
		return 0, errors.New("history: Record without a report Document")
	}
	if e.Recorded.IsZero() {
		return 0, errors.New("history: Record without a time")
	}
	for i := 1; i < len(e.Runs); i++ {
		if e.Runs[i].Key.Compare(e.Runs[i-1].Key) <= 0 {
			return 0, fmt.Errorf("history: run %s after run %s: runs are recorded in key order, each key once", e.Runs[i].Key, e.Runs[i-1].Key)
		}
	}
	// Encoded before the transaction, so that the write lock is held for
	// the inserts only.
	lines := make([]string, len(e.Runs))
	var buf bytes.Buffer
	for i, r := range e.Runs {
		buf.Reset()
		if err := runs.EncodeLine(&buf, r); err != nil {
			return 0, fmt.Errorf("history: run %s: %w", r.Key, err)
		}
		lines[i] = strings.TrimSuffix(buf.String(), "\n")
	}
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return 0, db.writeErr(err)
	}
	defer tx.Rollback()
	d := e.Document
	res, err := tx.ExecContext(ctx, `INSERT INTO evaluations (recorded, command, version, git_commit, dirty, exit_code, runs, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Recorded.UTC().Format(time.RFC3339Nano), d.Command, d.Version, e.Commit, e.Dirty, d.ExitCode, len(e.Runs), e.Note)
	if err != nil {
		return 0, db.writeErr(err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, db.writeErr(err)
	}
	ins := inserter{tx: tx, ctx: ctx, id: id}
	for _, c := range contractsOf(d, e.Given, e.Runs) {
		version := sql.NullString{String: c.Version, Valid: !c.VersionUnknown}
		ins.exec(`INSERT INTO contracts (evaluation_id, name, version, bundle) VALUES (?, ?, ?, ?)`, c.Name, version, c.BundleID)
	}
	for i, in := range e.Inputs {
		sum, size := sql.NullString{String: in.SHA256, Valid: in.Known()}, sql.NullInt64{Int64: in.Size, Valid: in.Known()}
		ins.exec(`INSERT INTO inputs (evaluation_id, position, path, sha256, size) VALUES (?, ?, ?, ?, ?)`, i, in.Path, sum, size)
	}
	for _, c := range d.Conditions {
		var why []string
		for _, err := range c.Errors {
			why = append(why, err.Error())
		}
		ins.exec(`INSERT INTO conditions (evaluation_id, contract, condition, errors) VALUES (?, ?, ?, ?)`, c.Contract, c.Condition, strings.Join(why, "\n"))
		for _, m := range metricsOf(c) {
			b := Bounds{Low: math.NaN(), LowNum: math.NaN(), LowDen: math.NaN(), High: math.NaN(), HighNum: math.NaN(), HighDen: math.NaN()}
			if m.Bounds != nil {
				b = *m.Bounds
			}
			// num and den stay NULL unless known (their meaning since
			// version 1); the bounds hold the rest.
			num, den := m.Num, m.Den
			if !m.Known {
				num, den = math.NaN(), math.NaN()
			}
			ins.exec(`INSERT INTO metrics (evaluation_id, contract, condition, name, known, value, num, den, low, high,
				unknown, maybe_null, bound_low, bound_low_num, bound_low_den, bound_high, bound_high_num, bound_high_den) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				m.Contract, m.Condition, m.Name, m.Known, nullReal(m.Value), nullReal(num), nullReal(den), nullReal(m.Low), nullReal(m.High),
				m.Unknown, b.MaybeNull, nullReal(b.Low), nullReal(b.LowNum), nullReal(b.LowDen), nullReal(b.High), nullReal(b.HighNum), nullReal(b.HighDen))
		}
	}
	for i, g := range d.Gates {
		ins.exec(`INSERT INTO gates (evaluation_id, position, contract, gate, condition, requirement, passed, no_runs, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			i, g.Contract, g.Gate, g.Condition, g.Requirement, g.Passed, g.NoRuns, g.Reason)
	}
	if ins.err == nil {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO runs (evaluation_id, seq, contract, condition, attack, task, goal, attempt, repetition, bundle, utility, attack_success, side_effect, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return 0, db.writeErr(err)
		}
		defer stmt.Close()
		for i, r := range e.Runs {
			k := r.Key
			if _, err := stmt.ExecContext(ctx, id, i, k.Contract, k.Condition, k.Attack, k.Task, k.Goal, k.Attempt, k.Repetition, r.Bundle,
				labelText(r.Utility), labelText(r.AttackSuccess), labelText(r.SideEffect), lines[i]); err != nil {
				return 0, db.writeErr(err)
			}
		}
	}
	if ins.err != nil {
		return 0, db.writeErr(ins.err)
	}
	if err := tx.Commit(); err != nil {
		return 0, db.writeErr(err)
	}
	return id, nil
}

func (db *DB) writeErr(err error) error {
	if e := db.sqlErr(err); e != err {
		return e
	}
	return fmt.Errorf("recording in history database %s: %w", db.path, err)
}

// inserter runs the inserts of one evaluation, keeping the first error.
type inserter struct {
	tx  *sql.Tx
	ctx context.Context
	id  int64
	err error
}

func (in *inserter) exec(query string, args ...any) {
	if in.err != nil {
		return
	}
	_, in.err = in.tx.ExecContext(in.ctx, query, append([]any{in.id}, args...)...)
}

// nullReal is v for the database: NULL for NaN (none).
func nullReal(v float64) sql.NullFloat64 {
	return sql.NullFloat64{Float64: v, Valid: !math.IsNaN(v)}
}

// labelText is a label as the runs table stores it: "true", "false",
// "unknown" (never folded into false), or "" when absent.
func labelText(l runs.Label) string {
	switch {
	case l.Absent():
		return ""
	case !l.Known:
		return "unknown"
	case l.Value:
		return "true"
	default:
		return "false"
	}
}

// contractsOf are the contracts of d (tenet eval), those given (tenet
// report --contract) and those the runs name, each (name, bundle) once,
// sorted. A run's contract has the version of its bundle's contract in d
// or given; a bundle in neither (tenet report of runs without the
// contract that judged them) has an unknown version, not "".
func contractsOf(d *report.Document, given []report.Contract, recs []runs.Record) []Contract {
	seen := map[[2]string]bool{}
	var out []Contract
	add := func(c Contract) {
		if k := [2]string{c.Name, c.BundleID}; !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	versions := map[string]string{}
	for _, c := range slices.Concat(d.Contracts, given) {
		add(Contract{Name: c.Name, Version: c.Version, BundleID: c.Bundle})
		versions[c.Bundle] = c.Version
	}
	for _, r := range recs {
		v, known := versions[r.Bundle]
		add(Contract{Name: r.Key.Contract, Version: v, VersionUnknown: !known, BundleID: r.Bundle})
	}
	slices.SortFunc(out, func(a, b Contract) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.BundleID, b.BundleID), cmp.Compare(a.Version, b.Version))
	})
	return out
}

// metricsOf are the rates of c as the JSON report has them, in its order
// (metrics.RateNames, then goal_task_utility when c has goal tasks); none
// when c's metrics were not computed.
func metricsOf(c metrics.Condition) []Metric {
	if !c.OK() {
		return nil
	}
	valid := func(r metrics.Rate) metrics.NullableRate { return metrics.NullableRate{Rate: r, Valid: true} }
	points := map[string]metrics.NullableRate{
		"benign_utility":                valid(c.BenignUtility),
		"utility_under_attack":          valid(c.UtilityUnderAttack),
		"targeted_asr":                  valid(c.TargetedASR),
		"side_effect_rate":              valid(c.SideEffectRate),
		"secure_utility_in_scope":       valid(c.SecureUtilityInScope),
		"conditional_asr_exposed":       c.ConditionalASRExposed,
		"conditional_asr_benign_solved": c.ConditionalASRBenignSolved,
	}
	var out []Metric
	one := func(name string, point metrics.NullableRate, s metrics.RateStats, ok bool) {
		m := Metric{Contract: c.Contract, Condition: c.Condition, Name: name, Value: math.NaN(), Num: math.NaN(), Den: math.NaN(), Low: math.NaN(), High: math.NaN()}
		// As the JSON report: a rate the unknown labels change has no
		// value, only its bounds and interval (the hull over the
		// assignments).
		if (!ok || s.Exact()) && point.Valid && point.Rate.Den > 0 {
			m.Known, m.Value, m.Num, m.Den = true, point.Rate.Value(), point.Rate.Num, point.Rate.Den
		}
		if ok && s.Wilson.Valid {
			m.Low, m.High = s.Wilson.Low, s.Wilson.High
		}
		if ok {
			m.Unknown = s.Unknown
		}
		if ok && !s.Exact() {
			if s.Low.Valid && s.High.Valid {
				m.Bounds = &Bounds{Low: s.Low.Rate.Value(), LowNum: s.Low.Rate.Num, LowDen: s.Low.Rate.Den,
					High: s.High.Rate.Value(), HighNum: s.High.Rate.Num, HighDen: s.High.Rate.Den, MaybeNull: s.MaybeNull}
			}
		}
		m.fill()
		out = append(out, m)
	}
	for _, name := range metrics.RateNames {
		s, ok := c.Rate(name)
		one(name, points[name], s, ok)
	}
	if c.GoalTasks > 0 {
		s := c.GoalTaskUtility
		one(metrics.GoalTaskUtilityName, s.Low, s, true)
	}
	return out
}
