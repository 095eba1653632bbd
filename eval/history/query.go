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
	"github.com/tenetlang/tenet/eval/runs"
)

// Evaluation is one recorded evaluation, as List and Get give it.
type Evaluation struct {
	// ID is the evaluation's number: ids are given in the order
	// evaluations were recorded (committed), never reused.
	ID       int64
	Recorded time.Time // UTC; the wall clock when the command started
	Command  string    // "eval" or "report"
	Version  string    // the compiler version of its report
	Commit   string    // git commit, "" when unknown
	Dirty    bool
	// Contracts are the contracts that judged its runs, sorted by name
	// then bundle id.
	Contracts []Contract
	// Conditions are its conditions' names as the report shows them
	// ("condition" or "condition @ attack"), sorted, each once, merged
	// across contracts: Contract.Conditions keeps which contract has
	// which, and Pairs counts the (contract, condition) pairs.
	Conditions []string
	Pairs      int
	Inputs     []Input // in the order given
	ExitCode   int
	Runs       int // the runs recorded (Runs gives them)
	Note       string
}

// Contract is a contract of an evaluation.
type Contract struct {
	Name string
	// Version is the contract's version, "" when it has none; when the
	// recording command did not know it (tenet report without
	// --contract), VersionUnknown is true and Version "".
	Version        string
	VersionUnknown bool
	BundleID       string // "sha256:<hex>", "" for runs labelled elsewhere
	// Conditions are the conditions of the contract of this name in the
	// evaluation, sorted (conditions are recorded per contract name).
	Conditions []string
}

// Input is one input file of an evaluation.
type Input struct {
	Path string
	// SHA256 (hex) and Size (bytes) are of the bytes tenet read; SHA256
	// is "" and Size -1 when tenet did not have them to hash (a pipe,
	// read once): unknown, never the hash or size of nothing.
	SHA256 string
	Size   int64
}

// Known reports whether the input was hashed.
func (in Input) Known() bool { return in.SHA256 != "" }

// Metric is one rate of one condition, as the JSON report names it
// (benign_utility, utility_under_attack, targeted_asr, …,
// goal_task_utility).
type Metric struct {
	Contract, Condition, Name string
	// Known says the rate has one value: Value = Num/Den, Successes =
	// Num rounded. It is false for a conditional rate with an empty
	// subset and for a rate the unknown labels change (--unknown bounds);
	// then Value and Num are NaN and Successes is 0 (meaningless: read
	// Bounds).
	Known     bool
	Value     float64
	Successes int
	Num       float64
	// Den and N are the rate's denominator (N rounded) whenever it is one
	// number: when Known, and when the unknown labels change only the
	// numerator (a rate over all tasks or cases: Bounds.LowDen ==
	// Bounds.HighDen). Otherwise Den is NaN and N is 0 (a conditional
	// rate whose subset the unknowns change, or an empty subset).
	Den float64
	N   int
	// Low and High are the 95% Wilson interval (under --unknown bounds,
	// the hull over the assignments of the unknowns); NaN when there is
	// none.
	Low, High float64
	// Unknown counts the unknown labels the rate reads (0 unless the
	// evaluation ran with --unknown bounds).
	Unknown int
	// Bounds are the least and greatest value of the rate over all
	// assignments of the unknown labels, as the report prints them
	// ("[0.0292, 0.8917] (7/240..214/240, 12 unknown)"); nil when Unknown
	// is 0 or when no assignment gives the rate a value, and for
	// evaluations recorded before schema version 3.
	Bounds *Bounds
}

// Bounds are a rate's least and greatest value over the assignments of
// its unknown labels (metrics.RateStats Low and High), each with its
// fraction: a conditional rate's denominator may differ between the two.
type Bounds struct {
	Low, High                        float64 // LowNum/LowDen, HighNum/HighDen
	LowNum, LowDen, HighNum, HighDen float64
	// MaybeNull says some assignment empties a conditional rate's subset
	// (the rate may have no value at all).
	MaybeNull bool
}

// Gate is one gate requirement's result, as the report has it.
type Gate struct {
	Contract, Gate, Condition, Requirement string
	Passed                                 bool
	NoRuns                                 bool   // the condition had no run: not evaluated
	Reason                                 string // why it failed
}

// Filter selects evaluations: each non-empty field must match (an
// evaluation with a contract of that name, a condition of that name, a
// bundle id with that prefix, "sha256:" optional). Limit > 0 keeps the
// newest Limit.
type Filter struct {
	Contract, Condition, Bundle string
	Limit                       int
}

func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	if f.Contract != "" {
		conds = append(conds, "id IN (SELECT evaluation_id FROM contracts WHERE name = ?)")
		args = append(args, f.Contract)
	}
	if f.Bundle != "" {
		b := f.Bundle
		if !strings.HasPrefix(b, "sha256:") {
			b = "sha256:" + b
		}
		conds = append(conds, `id IN (SELECT evaluation_id FROM contracts WHERE substr(bundle, 1, ?) = ?)`)
		args = append(args, len(b), b)
	}
	if f.Condition != "" {
		conds = append(conds, "id IN (SELECT evaluation_id FROM conditions WHERE condition = ?)")
		args = append(args, f.Condition)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// List returns the evaluations f selects, newest first: by id descending.
// Ids are the order evaluations were recorded (committed), whereas
// Recorded is the wall clock at the start of the command and may be out
// of order between concurrent writers.
func (db *DB) List(f Filter) ([]Evaluation, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("history: limit %d: want 0 (all) or more", f.Limit)
	}
	where, args := f.where()
	q := "SELECT id FROM evaluations" + where + " ORDER BY id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	ctx := context.Background()
	// One read transaction: the evaluations and their parts are of one
	// snapshot even while writers record.
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, db.readErr(err)
	}
	defer tx.Rollback()
	ids, err := queryAll(tx.QueryContext(ctx, q, args...))(func(rows *sql.Rows) (int64, error) {
		var id int64
		return id, rows.Scan(&id)
	})
	if err != nil {
		return nil, db.readErr(err)
	}
	out := make([]Evaluation, 0, len(ids))
	for _, id := range ids {
		e, err := get(ctx, tx, id)
		if err != nil {
			return nil, db.readErr(err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Last returns the newest evaluation f selects (f.Limit is ignored); ok is
// false when there is none.
func (db *DB) Last(f Filter) (Evaluation, bool, error) {
	f.Limit = 1
	l, err := db.List(f)
	if err != nil || len(l) == 0 {
		return Evaluation{}, false, err
	}
	return l[0], true, nil
}

// Get returns evaluation id; errors.Is(err, ErrNotFound) when there is
// none.
func (db *DB) Get(id int64) (Evaluation, error) {
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Evaluation{}, db.readErr(err)
	}
	defer tx.Rollback()
	e, err := get(ctx, tx, id)
	if errors.Is(err, ErrNotFound) {
		return Evaluation{}, db.notFound(id)
	} else if err != nil {
		return Evaluation{}, db.readErr(err)
	}
	return e, nil
}

func (db *DB) notFound(id int64) error {
	return fmt.Errorf("evaluation %d: %w in %s (tenet history list shows the recorded ones)", id, ErrNotFound, db.path)
}

func (db *DB) readErr(err error) error {
	if e := db.sqlErr(err); e != err {
		return e
	}
	return fmt.Errorf("reading history database %s: %w", db.path, err)
}

// queryAll scans every row of a query with scan.
func queryAll(rows *sql.Rows, err error) func(func(*sql.Rows) (int64, error)) ([]int64, error) {
	return func(scan func(*sql.Rows) (int64, error)) ([]int64, error) {
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, rows.Err()
	}
}

// each calls scan for each row of query over evaluation id.
func each(ctx context.Context, tx *sql.Tx, query string, id int64, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func get(ctx context.Context, tx *sql.Tx, id int64) (Evaluation, error) {
	e := Evaluation{ID: id}
	var recorded string
	err := tx.QueryRowContext(ctx, `SELECT recorded, command, version, git_commit, dirty, exit_code, runs, note FROM evaluations WHERE id = ?`, id).
		Scan(&recorded, &e.Command, &e.Version, &e.Commit, &e.Dirty, &e.ExitCode, &e.Runs, &e.Note)
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	} else if err != nil {
		return e, err
	}
	if e.Recorded, err = time.Parse(time.RFC3339Nano, recorded); err != nil {
		return e, fmt.Errorf("evaluation %d: recorded time %q: %w", id, recorded, err)
	}
	e.Recorded = e.Recorded.UTC()
	err = each(ctx, tx, `SELECT name, version, bundle FROM contracts WHERE evaluation_id = ? ORDER BY name, bundle, version`, id, func(r *sql.Rows) error {
		var c Contract
		var version sql.NullString
		err := r.Scan(&c.Name, &version, &c.BundleID)
		c.Version, c.VersionUnknown = version.String, !version.Valid
		e.Contracts = append(e.Contracts, c)
		return err
	})
	if err != nil {
		return e, err
	}
	byContract := map[string][]string{}
	err = each(ctx, tx, `SELECT contract, condition FROM conditions WHERE evaluation_id = ? ORDER BY contract, condition`, id, func(r *sql.Rows) error {
		var contract, c string
		err := r.Scan(&contract, &c)
		byContract[contract] = append(byContract[contract], c)
		e.Conditions = append(e.Conditions, c)
		e.Pairs++
		return err
	})
	if err != nil {
		return e, err
	}
	slices.Sort(e.Conditions)
	e.Conditions = slices.Compact(e.Conditions)
	for i, c := range e.Contracts {
		e.Contracts[i].Conditions = byContract[c.Name]
	}
	err = each(ctx, tx, `SELECT path, sha256, size FROM inputs WHERE evaluation_id = ? ORDER BY position`, id, func(r *sql.Rows) error {
		var in Input
		var sum sql.NullString
		var size sql.NullInt64
		err := r.Scan(&in.Path, &sum, &size)
		in.SHA256, in.Size = sum.String, -1
		if sum.Valid && size.Valid {
			in.Size = size.Int64
		}
		e.Inputs = append(e.Inputs, in)
		return err
	})
	return e, err
}

// exists reports ErrNotFound (worded) when id is not recorded.
func (db *DB) exists(ctx context.Context, tx *sql.Tx, id int64) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM evaluations WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return db.notFound(id)
	} else if err != nil {
		return db.readErr(err)
	}
	return nil
}

// read runs fn in a read transaction over evaluation id, which must exist.
func (db *DB) read(id int64, fn func(ctx context.Context, tx *sql.Tx) error) error {
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return db.readErr(err)
	}
	defer tx.Rollback()
	if err := db.exists(ctx, tx, id); err != nil {
		return err
	}
	if err := fn(ctx, tx); err != nil {
		return db.readErr(err)
	}
	return nil
}

// Runs returns the runs of evaluation id exactly as recorded, in key
// order: each decoded from its runs-file line.
func (db *DB) Runs(id int64) ([]runs.Record, error) {
	var out []runs.Record
	var want int
	err := db.read(id, func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT runs FROM evaluations WHERE id = ?`, id).Scan(&want); err != nil {
			return err
		}
		var buf bytes.Buffer
		return each(ctx, tx, `SELECT seq, line FROM runs WHERE evaluation_id = ? ORDER BY seq`, id, func(r *sql.Rows) error {
			var seq int
			var line []byte
			if err := r.Scan(&seq, &line); err != nil {
				return err
			}
			buf.Reset()
			buf.Write(line)
			buf.WriteByte('\n')
			recs, err := runs.Read("", &buf)
			if err != nil || len(recs) != 1 {
				return fmt.Errorf("evaluation %d, run %d: its runs-file line does not read back: %v", id, seq, err)
			}
			out = append(out, recs[0])
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(out) != want {
		return nil, fmt.Errorf("history database %s: evaluation %d holds %d runs, its record says %d", db.path, id, len(out), want)
	}
	return out, nil
}

// Metrics returns the per-condition rates of evaluation id, by contract,
// condition, then the JSON report's order of rates.
func (db *DB) Metrics(id int64) ([]Metric, error) {
	var out []Metric
	err := db.read(id, func(ctx context.Context, tx *sql.Tx) error {
		return each(ctx, tx, `SELECT contract, condition, name, known, value, num, den, low, high,
			unknown, maybe_null, bound_low, bound_low_num, bound_low_den, bound_high, bound_high_num, bound_high_den FROM metrics WHERE evaluation_id = ? ORDER BY contract, condition`, id, func(r *sql.Rows) error {
			var m Metric
			var value, num, den, low, high sql.NullFloat64
			var maybeNull bool
			var b [6]sql.NullFloat64
			if err := r.Scan(&m.Contract, &m.Condition, &m.Name, &m.Known, &value, &num, &den, &low, &high,
				&m.Unknown, &maybeNull, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]); err != nil {
				return err
			}
			m.Value, m.Num, m.Den, m.Low, m.High = orNaN(value), orNaN(num), orNaN(den), orNaN(low), orNaN(high)
			if b[0].Valid && b[3].Valid {
				m.Bounds = &Bounds{Low: b[0].Float64, LowNum: b[1].Float64, LowDen: b[2].Float64,
					High: b[3].Float64, HighNum: b[4].Float64, HighDen: b[5].Float64, MaybeNull: maybeNull}
			}
			m.fill()
			out = append(out, m)
			return nil
		})
	})
	slices.SortFunc(out, func(a, b Metric) int {
		return cmp.Or(cmp.Compare(a.Contract, b.Contract), cmp.Compare(a.Condition, b.Condition), cmp.Compare(rateRank(a.Name), rateRank(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	return out, err
}

// ConditionErrors returns, per {contract, condition} of evaluation id
// whose metrics were not computed, why.
func (db *DB) ConditionErrors(id int64) (map[[2]string][]string, error) {
	out := map[[2]string][]string{}
	err := db.read(id, func(ctx context.Context, tx *sql.Tx) error {
		return each(ctx, tx, `SELECT contract, condition, errors FROM conditions WHERE evaluation_id = ? AND errors != ''`, id, func(r *sql.Rows) error {
			var contract, condition, errs string
			if err := r.Scan(&contract, &condition, &errs); err != nil {
				return err
			}
			out[[2]string{contract, condition}] = strings.Split(errs, "\n")
			return nil
		})
	})
	return out, err
}

// Gates returns the gate results of evaluation id in the report's order.
func (db *DB) Gates(id int64) ([]Gate, error) {
	var out []Gate
	err := db.read(id, func(ctx context.Context, tx *sql.Tx) error {
		return each(ctx, tx, `SELECT contract, gate, condition, requirement, passed, no_runs, reason FROM gates WHERE evaluation_id = ? ORDER BY position`, id, func(r *sql.Rows) error {
			var g Gate
			err := r.Scan(&g.Contract, &g.Gate, &g.Condition, &g.Requirement, &g.Passed, &g.NoRuns, &g.Reason)
			out = append(out, g)
			return err
		})
	})
	return out, err
}

// fill sets Successes, N and, for a rate the unknowns change only in its
// numerator, Den (docs on Metric).
func (m *Metric) fill() {
	if !m.Known && m.Bounds != nil && !m.Bounds.MaybeNull && m.Bounds.LowDen == m.Bounds.HighDen {
		m.Den = m.Bounds.LowDen
	}
	if m.Known {
		m.Successes = int(math.Round(m.Num))
	}
	if !math.IsNaN(m.Den) {
		m.N = int(math.Round(m.Den))
	}
}

// rateRank is a rate's place in the JSON report: metrics.RateNames, then
// goal_task_utility.
func rateRank(name string) int {
	if i := slices.Index(metrics.RateNames, name); i >= 0 {
		return i
	}
	return len(metrics.RateNames)
}

func orNaN(v sql.NullFloat64) float64 {
	if !v.Valid {
		return math.NaN()
	}
	return v.Float64
}

// Check verifies the database: SQLite's integrity_check, and that every
// evaluation holds exactly the runs its record counts (a half-written
// evaluation would not). It returns nil, or every problem found.
func (db *DB) Check() error {
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return db.readErr(err)
	}
	defer tx.Rollback()
	var problems []string
	rows, err := tx.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return db.readErr(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return db.readErr(err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `SELECT e.id, e.runs, (SELECT count(*) FROM runs r WHERE r.evaluation_id = e.id) FROM evaluations e ORDER BY e.id`)
	if err != nil {
		return db.readErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var want, have int
		if err := rows.Scan(&id, &want, &have); err != nil {
			return db.readErr(err)
		}
		if want != have {
			problems = append(problems, fmt.Sprintf("evaluation %d: %d runs recorded, %d held", id, want, have))
		}
	}
	if err := rows.Err(); err != nil {
		return db.readErr(err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("history database %s: %s", db.path, strings.Join(problems, "; "))
	}
	return nil
}
