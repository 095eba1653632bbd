package history

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestOpenExistingWritesNothing: the read-only open of an empty file
// refuses it and leaves it empty (no schema written into it).
func TestOpenExistingWritesNothing(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "z.db")
	os.WriteFile(empty, nil, 0o644)
	_, err := OpenExisting(empty)
	want := empty + " is empty: not a tenet history database"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("OpenExisting(empty) = %v, want %q", err, want)
	}
	if st, _ := os.Stat(empty); st.Size() != 0 {
		t.Fatalf("OpenExisting wrote %d bytes into an empty file", st.Size())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("OpenExisting left %d files (-wal, -shm?), want the database alone", len(entries))
	}
	// A valid database read: not one byte of it changes.
	path := filepath.Join(dir, "h.db")
	db, _ := Open(path)
	if _, err := db.Record(fixture("mail", bundleA, []string{"baseline"}, 2)); err != nil {
		t.Fatal(err)
	}
	db.Close() // the last connection: the log is checkpointed into the file
	before, _ := os.ReadFile(path)
	r, err := OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := r.List(Filter{}); err != nil || len(l) != 1 {
		t.Fatalf("List = %d, %v", len(l), err)
	}
	if _, err := r.Record(fixture("mail", bundleA, []string{"baseline"}, 2)); err == nil {
		t.Fatal("Record through a read-only open succeeded")
	}
	r.Close()
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("reading changed the database file")
	}
}

// TestReadOnlyDirectory: a database in a directory tenet may not write is
// read (immutable when SQLite cannot make its -shm file) and recording
// into it says so plainly.
func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores file permissions")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	path := filepath.Join(dir, "h.db")
	readOnlyDatabase(t, path)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	r, err := OpenExisting(path)
	if err != nil {
		t.Fatalf("OpenExisting in a read-only directory: %v", err)
	}
	l, err := r.List(Filter{})
	if err != nil || len(l) != 1 || l[0].ID != 1 {
		t.Fatalf("List = %+v, %v", l, err)
	}
	if ms, err := r.Metrics(1); err != nil || len(ms) != 7 {
		t.Fatalf("Metrics = %d, %v", len(ms), err)
	}
	r.Close()
	_, err = Open(path)
	if want := "cannot write " + path + ": read-only (file or directory)"; err == nil || err.Error() != want {
		t.Fatalf("Open(read-only) = %v, want %q", err, want)
	}
}

// TestDamaged: a truncated tenet database is called damaged, with the
// remedy, never "give --db a new file".
func TestDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	db, _ := Open(path)
	for range 3 {
		if _, err := db.Record(fixture("mail", bundleA, []string{"baseline", "guarded"}, 50)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	b, _ := os.ReadFile(path)
	if len(b) < 8192 {
		t.Fatalf("database of %d bytes: too small to truncate", len(b))
	}
	os.WriteFile(path, b[:len(b)/2], 0o644)
	want := path + " is damaged (SQLite: database disk image is malformed): restore it from a backup; `sqlite3 " + path + " .recover` may save its records"
	var got []string
	if r, err := OpenExisting(path); err != nil {
		got = append(got, err.Error())
	} else {
		_, err := r.List(Filter{})
		got = append(got, fmt.Sprint(err))
		r.Close()
	}
	if _, err := Open(path); err != nil {
		got = append(got, err.Error())
	} else {
		got = append(got, "Open: no error")
	}
	for _, g := range got {
		if g != want && !strings.HasSuffix(g, ": "+want) {
			t.Errorf("got %q, want %q", g, want)
		}
		if strings.Contains(g, "new file") {
			t.Errorf("%q advises a new file for tenet's damaged database", g)
		}
	}
}

// TestOpenExistingOlderSchema: reading never migrates; an older database
// is refused with what to do, and is unchanged.
func TestOpenExistingOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db, err := open(path, true, migrations[:2])
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = OpenExisting(path)
	want := fmt.Sprintf("history database %s has schema version 2, older than this tenet's (%d), and reading does not migrate it", path, SchemaVersion())
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("OpenExisting(v2) = %v, want %q", err, want)
	}
	db, _ = open(path, true, migrations[:2])
	if v, _ := db.Version(); v != 2 {
		t.Fatalf("version %d after a read, want 2", v)
	}
	db.Close()
}

// TestMigrateFromV2: a version 2 database (inputs with ” for a pipe's
// hash, metrics without bounds) reads back after the migration to 3: the
// pipe's hash and size unknown, the bounds absent; new bounds round-trip.
func TestMigrateFromV2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db, err := open(path, true, migrations[:2])
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO evaluations (recorded, command, version, git_commit, dirty, exit_code, runs, note) VALUES ('2026-01-02T03:04:05Z', 'eval', '0.9', '', 0, 0, 0, 'v2')`,
		`INSERT INTO contracts VALUES (1, 'mail', '1.0', '` + bundleA + `')`,
		`INSERT INTO inputs VALUES (1, 0, 'a.jsonl', '` + strings.Repeat("ab", 32) + `', 12)`,
		`INSERT INTO inputs VALUES (1, 1, '/dev/fd/63', '', 0)`,
		`INSERT INTO conditions VALUES (1, 'mail', 'baseline', '')`,
		`INSERT INTO metrics VALUES (1, 'mail', 'baseline', 'benign_utility', 1, 0.75, 3, 4, 0.3, 0.95)`,
		`INSERT INTO metrics VALUES (1, 'mail', 'baseline', 'targeted_asr', 0, NULL, NULL, NULL, 0.01, 0.9)`,
	} {
		if _, err := db.sql.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if db, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != 4 {
		t.Fatalf("migrated to %d, want 4", v)
	}
	e, err := db.Get(1)
	if err != nil {
		t.Fatal(err)
	}
	wantIn := []Input{{Path: "a.jsonl", SHA256: strings.Repeat("ab", 32), Size: 12}, {Path: "/dev/fd/63", Size: -1}}
	if !reflect.DeepEqual(e.Inputs, wantIn) || e.Note != "v2" {
		t.Fatalf("inputs after migration = %+v (note %q), want %+v", e.Inputs, e.Note, wantIn)
	}
	ms, err := db.Metrics(1)
	if err != nil || len(ms) != 2 {
		t.Fatalf("Metrics = %+v, %v", ms, err)
	}
	if m := ms[0]; !m.Known || m.Value != 0.75 || m.Successes != 3 || m.N != 4 || m.Bounds != nil || m.Unknown != 0 {
		t.Fatalf("benign_utility after migration = %+v", m)
	}
	if m := ms[1]; m.Known || m.N != 0 || m.Bounds != nil || m.Low != 0.01 || m.High != 0.9 {
		t.Fatalf("targeted_asr after migration = %+v", m)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestBoundsRoundTrip: a conditional rate whose denominator the unknowns
// change keeps both fractions; N is then none (0), not a guess.
func TestBoundsRoundTrip(t *testing.T) {
	db, _ := openTemp(t)
	n := fixture("mail", bundleA, []string{"baseline"}, 1)
	id, err := db.Record(n)
	if err != nil {
		t.Fatal(err)
	}
	b := Bounds{Low: 7.0 / 240, LowNum: 7, LowDen: 240, High: 214.0 / 240, HighNum: 214, HighDen: 240}
	c := Bounds{Low: 0.25, LowNum: 1, LowDen: 4, High: 0.6, HighNum: 3, HighDen: 5, MaybeNull: true}
	if _, err := db.sql.Exec(`UPDATE metrics SET known = 0, value = NULL, num = NULL, den = NULL, unknown = 207,
		bound_low = ?, bound_low_num = ?, bound_low_den = ?, bound_high = ?, bound_high_num = ?, bound_high_den = ? WHERE evaluation_id = ? AND name = 'targeted_asr'`,
		b.Low, b.LowNum, b.LowDen, b.High, b.HighNum, b.HighDen, id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.Exec(`UPDATE metrics SET known = 0, value = NULL, num = NULL, den = NULL, unknown = 2, maybe_null = 1,
		bound_low = ?, bound_low_num = ?, bound_low_den = ?, bound_high = ?, bound_high_num = ?, bound_high_den = ? WHERE evaluation_id = ? AND name = 'conditional_asr_exposed'`,
		c.Low, c.LowNum, c.LowDen, c.High, c.HighNum, c.HighDen, id); err != nil {
		t.Fatal(err)
	}
	ms, err := db.Metrics(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		switch m.Name {
		case "targeted_asr":
			if m.Bounds == nil || *m.Bounds != b || m.N != 240 || m.Den != 240 || m.Unknown != 207 || m.Known {
				t.Errorf("targeted_asr = %+v (bounds %+v)", m, m.Bounds)
			}
		case "conditional_asr_exposed":
			if m.Bounds == nil || *m.Bounds != c || m.N != 0 || m.Unknown != 2 {
				t.Errorf("conditional_asr_exposed = %+v (bounds %+v)", m, m.Bounds)
			}
		}
	}
}

// TestReadOnlyMount: a database on a read-only file system (a read-only
// bind mount, which only root can make: skipped otherwise) is read, and
// recording into it is refused saying why. SQLite refuses it mode=ro (no
// -shm file can be made), so it is read immutable; the refusal once said
// the file was not a tenet history database.
func TestReadOnlyMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a bind mount needs root")
	}
	src, mnt := filepath.Join(t.TempDir(), "src"), filepath.Join(t.TempDir(), "mnt")
	for _, d := range []string{src, mnt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(filepath.Join(src, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Record(fixture("mail", bundleA, []string{"baseline"}, 2)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if out, err := exec.Command("mount", "--bind", src, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount --bind: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	if out, err := exec.Command("mount", "-o", "remount,ro,bind", mnt).CombinedOutput(); err != nil {
		t.Skipf("remount read-only: %v: %s", err, out)
	}
	path := filepath.Join(mnt, "h.db")
	r, err := OpenExisting(path)
	if err != nil {
		t.Fatalf("OpenExisting on a read-only mount: %v", err)
	}
	l, err := r.List(Filter{})
	if err != nil || len(l) != 1 || l[0].ID != 1 {
		t.Fatalf("List = %+v, %v", l, err)
	}
	r.Close()
	_, err = Open(path)
	if want := "cannot open " + path + ": a read-only directory or file system, or no access to it (SQLite: unable to open database file (14))"; err == nil || err.Error() != want {
		t.Fatalf("Open(read-only mount) = %v, want %q", err, want)
	}
}

// TestMigrateFromV3: version 4 makes a contract's unknown version NULL:
// tenet report's ” (it never knew one) become unknown, tenet eval's ”
// (a contract without a version) stay ”.
func TestMigrateFromV3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	db, err := open(path, true, migrations[:3])
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO evaluations (recorded, command, version, git_commit, dirty, exit_code, runs, note) VALUES ('2026-01-02T03:04:05Z', 'eval', '0.9', '', 0, 0, 0, '')`,
		`INSERT INTO evaluations (recorded, command, version, git_commit, dirty, exit_code, runs, note) VALUES ('2026-01-02T03:04:06Z', 'report', '0.9', '', 0, 0, 0, '')`,
		`INSERT INTO contracts VALUES (1, 'mail', '', '` + bundleA + `')`,
		`INSERT INTO contracts VALUES (1, 'web', '2.0', '` + bundleB + `')`,
		`INSERT INTO contracts VALUES (2, 'mail', '', '` + bundleA + `')`,
	} {
		if _, err := db.sql.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if db, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(); v != 4 {
		t.Fatalf("migrated to %d, want 4", v)
	}
	for id, want := range map[int64][]Contract{
		1: {{Name: "mail", BundleID: bundleA}, {Name: "web", Version: "2.0", BundleID: bundleB}},
		2: {{Name: "mail", VersionUnknown: true, BundleID: bundleA}},
	} {
		e, err := db.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(e.Contracts, want) {
			t.Errorf("evaluation %d contracts after migration = %+v, want %+v", id, e.Contracts, want)
		}
	}
	var idx int
	db.sql.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('contracts_by_name', 'contracts_by_bundle')`).Scan(&idx)
	if idx != 2 {
		t.Fatalf("%d of the contracts indexes after migration, want 2", idx)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}

// readOnlyDatabase records one evaluation in a new database at path,
// closes it (its -wal and -shm removed) and makes the file read-only.
func readOnlyDatabase(t *testing.T, path string) {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Record(fixture("mail", bundleA, []string{"baseline"}, 2)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	os.Remove(path + "-shm")
	os.Remove(path + "-wal")
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
}
