package history

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 123456789, time.UTC)

const bundleA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const bundleB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// fixtureRuns makes the runs of contract over conditions, tasks benign
// tasks each with one attacked case: in condition i, task j's attack
// succeeds when (i+j) is odd; utility holds on even j.
func fixtureRuns(contract, bundle string, conditions []string, tasks int) []runs.Record {
	var out []runs.Record
	for i, c := range conditions {
		for j := range tasks {
			task := fmt.Sprintf("task_%04d", j)
			k := runs.Key{Contract: contract, Condition: c, Task: task, Attempt: 1, Repetition: 1}
			out = append(out, runs.Record{Bundle: bundle, Key: k, Utility: runs.Bool(j%2 == 0), AttemptBudget: 1,
				OriginFile: "transcripts.jsonl", OriginLine: j + 1})
			k.Goal = "goal_x"
			out = append(out, runs.Record{Bundle: bundle, Key: k, Utility: runs.Bool(j%2 == 0), AttackSuccess: runs.Bool((i+j)%2 == 1),
				SideEffect: runs.Bool((i+j)%2 == 1), AttemptBudget: 1})
		}
	}
	runs.SortRecords(out)
	return out
}

func fixture(contract, bundle string, conditions []string, tasks int) NewEvaluation {
	recs := fixtureRuns(contract, bundle, conditions, tasks)
	d := assemble.Build(assemble.Input{Command: report.CommandEval, Version: "0.test",
		Contracts: []report.Contract{{Name: contract, Version: "1.0.0", Bundle: bundle}}}, recs)
	d.Gates = []report.GateResult{{Contract: contract, Gate: "safe", Condition: conditions[0], Requirement: "metrics.targeted_asr <= 0.1", Passed: false, Reason: "targeted_asr = 0.5"}}
	d.ExitCode = 1
	return NewEvaluation{Document: d, Runs: recs, Commit: "0123456789abcdef0123456789abcdef01234567", Dirty: true, Recorded: t0,
		Inputs: []Input{{Path: "b.jsonl", SHA256: strings.Repeat("1", 64), Size: 10}, {Path: "a.jsonl", SHA256: strings.Repeat("2", 64), Size: 20}}}
}

func openTemp(t testing.TB) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "history.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func lines(t testing.TB, recs []runs.Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := runs.Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRecordGetRunsMetricsGates(t *testing.T) {
	db, _ := openTemp(t)
	e := fixture("mail", bundleA, []string{"baseline", "guarded"}, 4)
	id, err := db.Record(e)
	if err != nil {
		t.Fatal(err)
	}
	if id != 1 {
		t.Fatalf("id %d, want 1", id)
	}
	got, err := db.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	want := Evaluation{ID: 1, Recorded: t0, Command: "eval", Version: "0.test", Commit: e.Commit, Dirty: true,
		Contracts: []Contract{{Name: "mail", Version: "1.0.0", BundleID: bundleA, Conditions: []string{"baseline", "guarded"}}}, Conditions: []string{"baseline", "guarded"},
		Pairs: 2, Inputs: e.Inputs, ExitCode: 1, Runs: 16}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Get:\n got %+v\nwant %+v", got, want)
	}
	rs, err := db.Runs(id)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := lines(t, rs), lines(t, e.Runs); a != b {
		t.Fatalf("Runs differ from those recorded:\n%s\nwant\n%s", a, b)
	}
	ms, err := db.Metrics(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 14 {
		t.Fatalf("%d metrics, want 7 rates × 2 conditions: %+v", len(ms), ms)
	}
	// guarded (i=1): attacks succeed on even j: tasks 0 and 2 of 4.
	var asr Metric
	for _, m := range ms {
		if m.Condition == "guarded" && m.Name == "targeted_asr" {
			asr = m
		}
	}
	if !asr.Known || asr.Value != 0.5 || asr.Successes != 2 || asr.N != 4 || asr.Contract != "mail" {
		t.Fatalf("guarded targeted_asr = %+v, want 2/4 known", asr)
	}
	if math.Abs(asr.Low-0.1500) > 5e-5 || math.Abs(asr.High-0.8500) > 5e-5 {
		t.Fatalf("guarded targeted_asr interval [%v, %v], want Wilson [0.1500, 0.8500]", asr.Low, asr.High)
	}
	if ms[0].Name != "benign_utility" || ms[0].Condition != "baseline" || ms[6].Name != "conditional_asr_benign_solved" {
		t.Fatalf("metrics not in the report's order: %+v", ms[:7])
	}
	// exposure is not declared: conditional_asr_exposed has no value.
	if m := ms[5]; m.Name != "conditional_asr_exposed" || m.Known || !math.IsNaN(m.Value) {
		t.Fatalf("conditional_asr_exposed = %+v, want unknown (NaN)", m)
	}
	gs, err := db.Gates(id)
	if err != nil {
		t.Fatal(err)
	}
	wantG := []Gate{{Contract: "mail", Gate: "safe", Condition: "baseline", Requirement: "metrics.targeted_asr <= 0.1", Reason: "targeted_asr = 0.5"}}
	if !reflect.DeepEqual(gs, wantG) {
		t.Fatalf("Gates = %+v, want %+v", gs, wantG)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestMissingEvaluation(t *testing.T) {
	db, _ := openTemp(t)
	if _, err := db.Get(999); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "evaluation 999") {
		t.Fatalf("Get(999) = %v, want ErrNotFound naming 999", err)
	}
	for name, f := range map[string]func() error{
		"Runs":    func() error { _, err := db.Runs(7); return err },
		"Metrics": func() error { _, err := db.Metrics(7); return err },
		"Gates":   func() error { _, err := db.Gates(7); return err },
	} {
		if err := f(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s(7) = %v, want ErrNotFound", name, err)
		}
	}
	if _, ok, err := db.Last(Filter{}); ok || err != nil {
		t.Fatalf("Last on an empty database: ok %v, err %v", ok, err)
	}
}

func TestListFilters(t *testing.T) {
	db, _ := openTemp(t)
	rec := func(e NewEvaluation) {
		t.Helper()
		if _, err := db.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	rec(fixture("mail", bundleA, []string{"baseline", "guarded"}, 2)) // 1
	rec(fixture("bank", bundleB, []string{"gpt @ important"}, 2))     // 2
	rec(fixture("mail", bundleB, []string{"guarded"}, 2))             // 3
	ids := func(f Filter) []int64 {
		t.Helper()
		l, err := db.List(f)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, e := range l {
			out = append(out, e.ID)
		}
		return out
	}
	for _, c := range []struct {
		f    Filter
		want []int64
	}{
		{Filter{}, []int64{3, 2, 1}},
		{Filter{Limit: 2}, []int64{3, 2}},
		{Filter{Contract: "mail"}, []int64{3, 1}},
		{Filter{Condition: "guarded"}, []int64{3, 1}},
		{Filter{Condition: "gpt @ important"}, []int64{2}},
		{Filter{Bundle: bundleB}, []int64{3, 2}},
		{Filter{Bundle: "bbbbbbbb"}, []int64{3, 2}},
		{Filter{Bundle: "sha256:aaaa"}, []int64{1}},
		{Filter{Contract: "mail", Bundle: "aaaa"}, []int64{1}},
		{Filter{Contract: "nope"}, nil},
	} {
		if got := ids(c.f); !reflect.DeepEqual(got, c.want) {
			t.Errorf("List(%+v) = %v, want %v", c.f, got, c.want)
		}
	}
	last, ok, err := db.Last(Filter{Contract: "bank"})
	if err != nil || !ok || last.ID != 2 || !reflect.DeepEqual(last.Conditions, []string{"gpt @ important"}) {
		t.Fatalf("Last(bank) = %+v %v %v", last, ok, err)
	}
	if _, err := db.List(Filter{Limit: -1}); err == nil {
		t.Fatal("List with limit -1: no error")
	}
}

// TestReportContracts: a tenet report Document lists no contracts; the
// runs name them, but not their version, which is unknown (not "").
func TestReportContracts(t *testing.T) {
	db, _ := openTemp(t)
	e := fixture("mail", bundleA, []string{"baseline"}, 2)
	e.Document.Contracts, e.Document.Command = nil, report.CommandReport
	id, err := db.Record(e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Contract{{Name: "mail", VersionUnknown: true, BundleID: bundleA, Conditions: []string{"baseline"}}}; !reflect.DeepEqual(got.Contracts, want) || got.Command != "report" {
		t.Fatalf("contracts %+v command %q, want %+v report", got.Contracts, got.Command, want)
	}
}

// TestConditionsPerContract: two contracts sharing a condition name keep
// which condition is whose; Conditions merges the names, Pairs counts
// (contract, condition).
func TestConditionsPerContract(t *testing.T) {
	db, _ := openTemp(t)
	recs := append(fixtureRuns("bank", bundleB, []string{"baseline", "guarded", "strict"}, 1), fixtureRuns("mail", bundleA, []string{"baseline"}, 1)...)
	runs.SortRecords(recs)
	d := assemble.Build(assemble.Input{Command: report.CommandReport, Version: "0.test"}, recs)
	id, err := db.Record(NewEvaluation{Document: d, Runs: recs, Recorded: t0})
	if err != nil {
		t.Fatal(err)
	}
	e, err := db.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	want := []Contract{{Name: "bank", VersionUnknown: true, BundleID: bundleB, Conditions: []string{"baseline", "guarded", "strict"}},
		{Name: "mail", VersionUnknown: true, BundleID: bundleA, Conditions: []string{"baseline"}}}
	if !reflect.DeepEqual(e.Contracts, want) || !reflect.DeepEqual(e.Conditions, []string{"baseline", "guarded", "strict"}) || e.Pairs != 4 {
		t.Fatalf("contracts %+v, conditions %v, pairs %d", e.Contracts, e.Conditions, e.Pairs)
	}
}

func TestRecordRefusesUnsortedRuns(t *testing.T) {
	db, _ := openTemp(t)
	e := fixture("mail", bundleA, []string{"baseline"}, 2)
	e.Runs[0], e.Runs[1] = e.Runs[1], e.Runs[0]
	if _, err := db.Record(e); err == nil || !strings.Contains(err.Error(), "key order") {
		t.Fatalf("Record of unsorted runs: %v", err)
	}
	if l, _ := db.List(Filter{}); len(l) != 0 {
		t.Fatalf("a refused evaluation was recorded: %+v", l)
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Open(dir) = %v", err)
	}
	text := filepath.Join(dir, "notes.txt")
	content := []byte(strings.Repeat("not a database at all\n", 100))
	os.WriteFile(text, content, 0o644)
	if _, err := Open(text); err == nil || !strings.Contains(err.Error(), "not a tenet history database (not an SQLite file)") {
		t.Errorf("Open(text file) = %v", err)
	}
	if b, _ := os.ReadFile(text); !bytes.Equal(b, content) {
		t.Error("Open changed a file that is not a database")
	}
	// Another program's SQLite database.
	other := filepath.Join(dir, "other.db")
	sdb, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	before, _ := os.ReadFile(other)
	if _, err := Open(other); err == nil || !strings.Contains(err.Error(), "SQLite database of another program") {
		t.Errorf("Open(other program's db) = %v", err)
	}
	if after, _ := os.ReadFile(other); !bytes.Equal(before, after) {
		t.Error("Open changed another program's database")
	}
	if _, err := OpenExisting(filepath.Join(dir, "missing.db")); !errors.Is(err, ErrNoDatabase) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenExisting(missing) = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("OpenExisting created the file")
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	db, path := openTemp(t)
	if _, err := db.sql.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err := Open(path)
	want := fmt.Sprintf("has schema version %d, newer than this tenet's (%d)", SchemaVersion()+1, SchemaVersion())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Open(newer) = %v, want %q", err, want)
	}
}

// TestMigrateFromV1: a database written at schema version 1 (no note
// column, no runs index) is migrated on Open; what it held reads back.
func TestMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := open(path, true, migrations[:1])
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := db.Version(); v != 1 {
		t.Fatalf("version %d, want 1", v)
	}
	line := `{"contract":"mail","condition":"baseline","task":"t","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true}}`
	for _, q := range []string{
		`INSERT INTO evaluations (recorded, command, version, git_commit, dirty, exit_code, runs) VALUES ('2026-01-02T03:04:05Z', 'report', '0.9', 'abc', 0, 0, 1)`,
		`INSERT INTO contracts VALUES (1, 'mail', '', '')`,
		`INSERT INTO conditions VALUES (1, 'mail', 'baseline', '')`,
		`INSERT INTO runs VALUES (1, 0, 'mail', 'baseline', '', 't', '', 1, 1, '', 'true', '', '', '` + line + `')`,
	} {
		if _, err := db.sql.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := db.sql.Exec(`SELECT note FROM evaluations`); err == nil {
		t.Fatal("schema version 1 already has the note column: the test proves no migration")
	}
	db.Close()

	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != SchemaVersion() || v != 4 {
		t.Fatalf("migrated to version %d, want %d", v, SchemaVersion())
	}
	e, err := db.Get(1)
	if err != nil {
		t.Fatal(err)
	}
	want := Evaluation{ID: 1, Recorded: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Command: "report", Version: "0.9", Commit: "abc",
		Contracts: []Contract{{Name: "mail", VersionUnknown: true, Conditions: []string{"baseline"}}}, Conditions: []string{"baseline"}, Pairs: 1, Runs: 1}
	if !reflect.DeepEqual(e, want) {
		t.Fatalf("after migration Get = %+v, want %+v", e, want)
	}
	rs, err := db.Runs(1)
	if err != nil || len(rs) != 1 || rs[0].Key.Task != "t" || !rs[0].Utility.Value {
		t.Fatalf("after migration Runs = %+v, %v", rs, err)
	}
	var idx int
	db.sql.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'runs_by_case'`).Scan(&idx)
	if idx != 1 {
		t.Fatal("migration 2's index is missing")
	}
	n := fixture("mail", bundleA, []string{"baseline"}, 1)
	n.Note = "after"
	if id, err := db.Record(n); err != nil || id != 2 {
		t.Fatalf("Record after migration: %d %v", id, err)
	}
	if e, _ := db.Get(2); e.Note != "after" {
		t.Fatalf("note %q", e.Note)
	}
}

func TestHashInputs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.jsonl")
	os.WriteFile(p, []byte("abc"), 0o644)
	got, err := HashInputs([]string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Input{{Path: p, SHA256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Size: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("HashInputs = %+v, want %+v", got, want)
	}
	if _, err := HashInputs([]string{filepath.Join(dir, "nope")}, nil); err == nil {
		t.Fatal("HashInputs of a missing file: no error")
	}
	// Standard input: no file of that name, tenet's copy from open.
	spooled := func(name string) (io.ReadCloser, error) {
		if name != "<stdin>" {
			t.Fatalf("open(%q): only standard input is no file", name)
		}
		return io.NopCloser(strings.NewReader("abc")), nil
	}
	got, err = HashInputs([]string{"<stdin>", p}, spooled)
	want = []Input{{Path: "<stdin>", SHA256: want[0].SHA256, Size: 3}, want[0]}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("HashInputs(<stdin>) = %+v %v, want %+v", got, err, want)
	}

}

func TestDefaultPath(t *testing.T) {
	t.Setenv(EnvDB, "/x/h.db")
	if p, err := DefaultPath(); err != nil || p != "/x/h.db" {
		t.Fatalf("DefaultPath with %s = %q %v", EnvDB, p, err)
	}
	t.Setenv(EnvDB, "")
	t.Setenv("XDG_DATA_HOME", "/data")
	if p, _ := DefaultPath(); p != "/data/tenet/history.db" {
		t.Fatalf("DefaultPath with XDG_DATA_HOME = %q", p)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if p, _ := DefaultPath(); p != "/home/u/.local/share/tenet/history.db" {
		t.Fatalf("DefaultPath = %q", p)
	}
	// The XDG specification: a relative value is ignored.
	t.Setenv("XDG_DATA_HOME", "rel")
	if p, err := DefaultPath(); err != nil || p != "/home/u/.local/share/tenet/history.db" {
		t.Fatalf("DefaultPath with a relative XDG_DATA_HOME = %q %v, want the fallback", p, err)
	}
}

func TestGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Setenv(EnvGitHubSHA, "feedface")
	if c, d := Git(dir); c != "feedface" || d {
		t.Fatalf("outside a work tree: %q %v, want $GITHUB_SHA", c, d)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	os.WriteFile(filepath.Join(dir, "f"), []byte("1"), 0o644)
	run("add", "f")
	run("commit", "-q", "-m", "one")
	head := run("rev-parse", "HEAD")
	if c, d := Git(dir); c != head || d {
		t.Fatalf("clean tree: %q %v, want %s clean", c, d, head)
	}
	os.WriteFile(filepath.Join(dir, "f"), []byte("2"), 0o644)
	if c, d := Git(dir); c != head || !d {
		t.Fatalf("changed tree: %q %v, want %s dirty", c, d, head)
	}
}

// TestUnknownNotFolded: under --unknown bounds a rate the unknown labels
// change is stored without a value (never as 0), with its interval.
func TestUnknownNotFolded(t *testing.T) {
	db, _ := openTemp(t)
	recs := fixtureRuns("mail", bundleA, []string{"baseline"}, 2)
	recs[0].Utility = runs.Unknown("no final message") // task_0000, benign
	d := assemble.Build(assemble.Input{Command: report.CommandReport, Version: "0.test", Metrics: metrics.Options{Unknown: metrics.UnknownBounds}}, recs)
	if d.ExitCode != 0 {
		t.Fatalf("exit %d: %v", d.ExitCode, d.Errors)
	}
	id, err := db.Record(NewEvaluation{Document: d, Runs: recs, Recorded: t0})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := db.Metrics(id)
	if err != nil {
		t.Fatal(err)
	}
	m := ms[0]
	// task_0000 unknown, task_0001 false: 0/2 to 1/2; the denominator
	// is 2 whatever the unknown is.
	if m.Name != "benign_utility" || m.Known || !math.IsNaN(m.Value) || !math.IsNaN(m.Num) || m.Successes != 0 || m.Den != 2 || m.N != 2 || m.Unknown != 1 ||
		math.IsNaN(m.Low) || math.IsNaN(m.High) {
		t.Fatalf("benign_utility with an unknown label = %+v, want no value, n 2, an interval", m)
	}
	if want := (Bounds{Low: 0, LowNum: 0, LowDen: 2, High: 0.5, HighNum: 1, HighDen: 2}); m.Bounds == nil || *m.Bounds != want {
		t.Fatalf("bounds = %+v, want %+v", m.Bounds, want)
	}
	// A rate no unknown reads keeps its value and no bounds.
	if u := ms[1]; u.Name != "utility_under_attack" || !u.Known || u.Value != 0.5 || u.Successes != 1 || u.N != 2 || u.Unknown != 0 || u.Bounds != nil {
		t.Fatalf("utility_under_attack = %+v", u)
	}
	var num, den sql.NullFloat64
	db.sql.QueryRow(`SELECT num, den FROM metrics WHERE evaluation_id = ? AND name = 'benign_utility'`, id).Scan(&num, &den)
	if num.Valid || den.Valid {
		t.Fatalf("metrics.num, den of a rate without a value = %v, %v: want NULL", num, den)
	}
	rs, _ := db.Runs(id)
	if got := rs[0].Utility; got.Known || got.Reason != "no final message" {
		t.Fatalf("the unknown label reads back as %+v", got)
	}
	var stored string
	db.sql.QueryRow(`SELECT utility FROM runs WHERE evaluation_id = ? AND seq = 0`, id).Scan(&stored)
	if stored != "unknown" {
		t.Fatalf("runs.utility = %q, want unknown", stored)
	}
}

// TestRecordAllOrNothing: an insert failing halfway through the runs (a
// trigger here) leaves nothing of the evaluation.
func TestRecordAllOrNothing(t *testing.T) {
	db, _ := openTemp(t)
	if _, err := db.sql.Exec(`CREATE TRIGGER fail_sixth BEFORE INSERT ON runs WHEN NEW.seq = 5 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Record(fixture("mail", bundleA, []string{"baseline"}, 4)); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Record = %v, want the trigger's error", err)
	}
	for _, table := range []string{"evaluations", "contracts", "inputs", "conditions", "metrics", "gates", "runs"} {
		var n int
		db.sql.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
		if n != 0 {
			t.Errorf("%s holds %d rows of a failed Record", table, n)
		}
	}
}

// TestRecordContractVersions: a report Document lists no contracts; the
// contract given (tenet report --contract) gives its runs their version,
// and runs of a bundle no contract given names have an unknown version.
func TestRecordContractVersions(t *testing.T) {
	db, _ := openTemp(t)
	recs := append(fixtureRuns("mail", bundleA, []string{"baseline"}, 1), fixtureRuns("web", bundleB, []string{"baseline"}, 1)...)
	runs.SortRecords(recs)
	d := assemble.Build(assemble.Input{Command: report.CommandReport, Version: "0.test"}, recs)
	id, err := db.Record(NewEvaluation{Document: d, Runs: recs, Recorded: t0,
		Given: []report.Contract{{Name: "mail", Version: "1.2.0", Bundle: bundleA}}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := db.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	want := []Contract{{Name: "mail", Version: "1.2.0", BundleID: bundleA, Conditions: []string{"baseline"}},
		{Name: "web", VersionUnknown: true, BundleID: bundleB, Conditions: []string{"baseline"}}}
	if !reflect.DeepEqual(e.Contracts, want) {
		t.Fatalf("contracts = %+v, want %+v", e.Contracts, want)
	}
}
