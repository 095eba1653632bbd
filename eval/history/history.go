// Package history keeps the results history: every evaluation recorded by
// `tenet eval --record` or `tenet report --record` (its contracts and
// bundle ids, inputs and their hashes, per-condition metrics, gates, every
// judged run, git commit and time) in one embedded SQLite database, pure
// Go (modernc.org/sqlite, no cgo). docs/history.md describes the schema.
//
// Writers are safe side by side, in one process or several: the database
// is in WAL mode, every write transaction starts with BEGIN IMMEDIATE and
// waits up to BusyTimeout for the lock, and an evaluation is recorded in
// one transaction, so a reader sees it whole or not at all, and a writer
// killed mid-write leaves what was recorded before intact.
package history

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// EnvDB names the environment variable that overrides DefaultPath.
const EnvDB = "TENET_HISTORY_DB"

// BusyTimeout is how long a writer waits for another's transaction to end
// before it gives up with "database is locked".
const BusyTimeout = 30 * time.Second

// applicationID marks an SQLite file as a tenet history database
// (PRAGMA application_id, "TNTH"): a file of another program is refused
// rather than written to.
const applicationID = 0x544e5448

// ErrNotFound is the error of Get (and Runs, Metrics, Gates) for an
// evaluation id that is not recorded.
var ErrNotFound = errors.New("no such evaluation")

// ErrNoDatabase is OpenExisting's error when the file does not exist
// (errors.Is(err, fs.ErrNotExist) holds too).
var ErrNoDatabase = errors.New("no history database")

// DB is an open history database.
type DB struct {
	sql  *sql.DB
	path string
}

// Path is the file the database was opened from.
func (db *DB) Path() string { return db.path }

// DefaultPath is where the history is kept when no --db is given: the
// file $TENET_HISTORY_DB when set, else tenet/history.db in the user data
// directory — $XDG_DATA_HOME (ignored when relative), else ~/.local/share on Unix;
// ~/Library/Application Support on macOS; %AppData% on Windows (as
// os.UserConfigDir gives them: those systems keep data and configuration
// in one place).
func DefaultPath() (string, error) {
	if p := os.Getenv(EnvDB); p != "" {
		return p, nil
	}
	dir, err := dataDir()
	if err != nil {
		return "", fmt.Errorf("no user data directory for the history database (%v): give --db PATH or set %s", err, EnvDB)
	}
	return filepath.Join(dir, "tenet", "history.db"), nil
}

func dataDir() (string, error) {
	switch runtime.GOOS {
	case "darwin", "ios", "windows", "plan9":
		return os.UserConfigDir()
	}
	// The XDG base directory specification: a relative path is invalid
	// and is ignored, as if unset.
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share"), nil
}

// Open opens the history database at path for writing, creating the file
// and its parent directory when missing, and brings its schema to the
// current version (migrations). It refuses a file that is not a tenet
// history database (another SQLite database, or not SQLite at all) and one
// whose schema is newer than this tenet's, without changing it.
func Open(path string) (*DB, error) {
	return open(path, true, migrations)
}

// OpenExisting opens the database at path read-only, for the commands that
// only read: it never writes the file (no schema created, no migration,
// no WAL mode set). A missing file is ErrNoDatabase; an empty file, or a
// database of an older schema version (record once with this tenet to
// migrate it), is refused. Where SQLite cannot open the database
// read-only because its directory is not writable (a WAL database needs
// its -shm file), it is opened immutable: then a writer recording at the
// same moment is not seen, or seen half-way.
func OpenExisting(path string) (*DB, error) {
	return open(path, false, migrations)
}

func open(path string, write bool, steps []string) (*DB, error) {
	if path == "" {
		return nil, errors.New("history database: empty path")
	}
	// The driver reads what follows '?' as connection options.
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("history database %s: a path with '?' or '#' is not supported", path)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("history database %s is a directory, not a database file", path)
	case err == nil && !st.Mode().IsRegular():
		return nil, fmt.Errorf("history database %s is not a regular file", path)
	case err == nil && st.Size() == 0 && !write:
		return nil, fmt.Errorf("%s is empty: not a tenet history database (tenet eval --record --db %s records into it)", path, path)
	case errors.Is(err, fs.ErrNotExist) && !write:
		return nil, fmt.Errorf("%w at %s (record one with tenet eval --record): %w", ErrNoDatabase, path, fs.ErrNotExist)
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("history database %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("history database: %w", err)
	case write:
		// SQLite opens a file it may not write read-only, silently, and
		// refuses only the first write: after the whole evaluation.
		if err := writable(path); err != nil {
			return nil, err
		}
	}
	if !write {
		return openRead(path, steps)
	}
	// journal_mode is not in the connection string: it changes the file,
	// and a file that turns out not to be tenet's must stay as it was.
	dsn := fmt.Sprintf("%s?_busy_timeout=%d&_foreign_keys=1&_synchronous=FULL&_txlock=immediate", path, BusyTimeout.Milliseconds())
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("history database %s: %w", path, err)
	}
	db := &DB{sql: sdb, path: path}
	if err := db.migrate(context.Background(), steps); err != nil {
		sdb.Close()
		return nil, db.sqlErr(err)
	}
	return db, nil
}

// writable refuses an existing file the process may not write (its
// permissions). Opening it for writing changes nothing in it. Other
// errors (a read-only file system, say) are left to SQLite's open, which
// reports them at once.
func writable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) {
		return worded{fmt.Sprintf("cannot write %s: read-only (file or directory)", path), err}
	}
	if err == nil {
		f.Close()
	}
	return nil
}

// CanCreate reports whether a database could be created at path, which
// does not exist yet, without creating it: its directory is made (as Open
// would) and must take a new file. tenet eval --record checks this before
// judging and creates the database only when it records, so that a
// command that fails leaves no empty database behind.
func CanCreate(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("history database %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, ".tenet-history-probe-*")
	if errors.Is(err, fs.ErrPermission) {
		return worded{fmt.Sprintf("cannot create %s: its directory is read-only", path), err}
	}
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// openRead opens path read-only (SQLite's mode=ro), else immutable when
// SQLite cannot open it read-only for lack of write access to its
// directory, and checks it is a tenet history database at version
// len(steps).
func openRead(path string, steps []string) (*DB, error) {
	var lastErr error
	for _, mode := range []string{"mode=ro", "immutable=1"} {
		// A file: URI, so that SQLite applies mode and immutable; '%'
		// would start an escape in it.
		dsn := fmt.Sprintf("file:%s?%s&_busy_timeout=%d&_txlock=deferred", strings.ReplaceAll(path, "%", "%25"), mode, BusyTimeout.Milliseconds())
		sdb, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("history database %s: %w", path, err)
		}
		db := &DB{sql: sdb, path: path}
		err = db.checkRead(context.Background(), len(steps))
		if err == nil {
			return db, nil
		}
		sdb.Close()
		// The immutable attempt's error, when there is one, says more:
		// it read the file (an older schema, say).
		lastErr = err
		if !cannotOpenReadOnly(err) {
			break
		}
	}
	return nil, lastErr
}

// cannotOpenReadOnly reports SQLite's refusals of a read-only connection
// that an immutable one avoids: no -shm file and no right to create one.
func cannotOpenReadOnly(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY:
		return true
	}
	return false
}

// checkRead checks, without writing, that the database is tenet's at
// version want.
func (db *DB) checkRead(ctx context.Context, want int) error {
	if err := db.checkOwner(ctx, db.sql); err != nil {
		return err
	}
	var version int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return db.sqlErr(err)
	}
	switch {
	case version == 0:
		return fmt.Errorf("%s is empty: not a tenet history database (tenet eval --record --db %s records into it)", db.path, db.path)
	case version > want:
		return db.newer(version, want)
	case version < want:
		return fmt.Errorf("history database %s has schema version %d, older than this tenet's (%d), and reading does not migrate it: record one evaluation into it with this tenet (tenet eval … --record --db %s), which migrates it, then read it", db.path, version, want, db.path)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// notTenet says what is wrong with a file that is not a tenet history
// database.
func (db *DB) notTenet(why string) error {
	return fmt.Errorf("%s is not a tenet history database (%s): give --db a new file, or the file tenet --record wrote", db.path, why)
}

// migrate checks the file is a tenet history database (or empty) and
// applies the steps it lacks, in one immediate transaction, so that two
// processes opening a new file at once migrate it once.
func (db *DB) migrate(ctx context.Context, steps []string) error {
	// Checked once before WAL mode is set, which changes the file, and
	// again inside the transaction, where no other writer can interfere.
	if err := db.checkOwner(ctx, db.sql); err != nil {
		return err
	}
	// A database at the current version needs no write: readers (tenet
	// history) then take no write lock.
	var current int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("history database %s: %w", db.path, err)
	}
	if current > len(steps) {
		return db.newer(current, len(steps))
	}
	// WAL lets readers read while one writer writes, and makes a commit
	// one append to the log: a writer killed mid-write leaves the log's
	// torn tail, which SQLite ignores.
	if err := db.setWAL(ctx); err != nil {
		return fmt.Errorf("history database %s: setting WAL mode: %w", db.path, err)
	}
	if current == len(steps) {
		return nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("history database %s: %w", db.path, err)
	}
	defer tx.Rollback()
	if err := db.checkOwner(ctx, tx); err != nil {
		return err
	}
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("history database %s: %w", db.path, err)
	}
	if version > len(steps) {
		return db.newer(version, len(steps))
	}
	if version == len(steps) {
		return nil // nothing to write: the transaction rolls back
	}
	for v := version; v < len(steps); v++ {
		if _, err := tx.ExecContext(ctx, steps[v]); err != nil {
			return fmt.Errorf("history database %s: migration to schema version %d: %w", db.path, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, len(steps))); err != nil {
		return fmt.Errorf("history database %s: %w", db.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("history database %s: %w", db.path, err)
	}
	return nil
}

// setWAL sets WAL mode. On a new file another process may be migrating
// at the same moment: the change of journal mode then meets its write
// lock, and SQLite reports busy at once, without waiting (waiting could
// deadlock), so it is tried again until BusyTimeout.
func (db *DB) setWAL(ctx context.Context) error {
	deadline := time.Now().Add(BusyTimeout)
	for {
		var mode string
		err := db.sql.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// querier is what checkOwner reads through: the database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// checkOwner refuses a file that is neither a tenet history database nor
// an empty SQLite database.
func (db *DB) checkOwner(ctx context.Context, q querier) error {
	var appID, version, tables int
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return db.ownerErr(err)
	}
	switch {
	case appID == applicationID:
		return nil
	case appID != 0:
		return db.notTenet(fmt.Sprintf("an SQLite database with application id %#x", appID))
	}
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return db.ownerErr(err)
	}
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return db.ownerErr(err)
	}
	if tables > 0 || version != 0 {
		return db.notTenet("an SQLite database of another program")
	}
	return nil
}

func (db *DB) newer(version, known int) error {
	return fmt.Errorf("history database %s has schema version %d, newer than this tenet's (%d): use a newer tenet, or another --db", db.path, version, known)
}

// sqliteWhy words the driver's error for a file SQLite cannot read.
func sqliteWhy(err error) string {
	if strings.Contains(err.Error(), "file is not a database") {
		return "not an SQLite file"
	}
	return err.Error()
}

// ownerErr words an error met while checking whose file it is.
func (db *DB) ownerErr(err error) error {
	if e := db.sqlErr(err); e != err {
		return e
	}
	return db.notTenet(sqliteWhy(err))
}

// sqlErr words an SQLite error about the file itself: a tenet database
// damaged (its header still names tenet: restoring it is the remedy, not a
// new file), or a file or directory tenet may not write. Other errors are
// returned as they are.
func (db *DB) sqlErr(err error) error {
	var se *sqlite.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		if tenetHeader(db.path) {
			return worded{fmt.Sprintf("%s is damaged (SQLite: %s): restore it from a backup; `sqlite3 %s .recover` may save its records", db.path, strings.TrimSuffix(se.Error(), fmt.Sprintf(" (%d)", se.Code())), db.path), err}
		}
	case sqlite3.SQLITE_READONLY:
		return worded{fmt.Sprintf("cannot write %s: read-only (file or directory)", db.path), err}
	case sqlite3.SQLITE_CANTOPEN:
		// The file exists (Open and OpenExisting see to that), so SQLite
		// could not open it or its -wal/-shm beside it: a read-only
		// directory or mount, not another program's file. openRead
		// retries such a refusal immutable.
		if tenetHeader(db.path) {
			return worded{fmt.Sprintf("cannot open %s: a read-only directory or file system, or no access to it (SQLite: %s)", db.path, se.Error()), err}
		}
	}
	return err
}

// worded is an SQLite error said in tenet's words; the driver's error
// stays underneath (errors.As).
type worded struct {
	msg string
	err error
}

func (w worded) Error() string { return w.msg }
func (w worded) Unwrap() error { return w.err }

// tenetHeader reports whether the file's SQLite header carries tenet's
// application id (big-endian at byte 68), read directly: a damaged
// database may not answer PRAGMA application_id.
func tenetHeader(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [72]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return false
	}
	return string(h[:16]) == "SQLite format 3\x00" && binary.BigEndian.Uint32(h[68:]) == applicationID
}

// SchemaVersion is the schema version this package writes: the number of
// migrations.
func SchemaVersion() int { return len(migrations) }

// Version reads the database's schema version (PRAGMA user_version).
func (db *DB) Version() (int, error) {
	var v int
	err := db.sql.QueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}
