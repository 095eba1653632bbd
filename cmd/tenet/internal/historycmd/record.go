package historycmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/cliflags"
)

// EnvTime fixes the time --record records (RFC 3339), for reproducible
// tests and goldens; unset, the wall clock.
const EnvTime = "TENET_HISTORY_TIME"

// Session is the history database of one tenet eval or tenet report with
// --record or --no-case-lost, opened by Prepare before anything is judged:
// a database that cannot be recorded into (not tenet's, damaged, of a
// newer schema, read-only) or, for the gate alone, does not exist is
// refused then, not after a long evaluation, and nothing is written.
type Session struct {
	f    *cliflags.History
	path string
	when time.Time
	db   *history.DB // nil without --record and --no-case-lost, and until Recorder creates a fresh one
	// fresh: there was no database when the command started (--record
	// creates it), so the gate has nothing to compare with and says that
	// this evaluation starts the history.
	fresh bool
}

// Prepare opens the database f names for what f asks: written with
// --record (migrated; when missing, only checked that it can be created:
// Recorder creates it), else read with
// --no-case-lost (a missing one is refused: a gate that passes on a
// mistyped --db would always pass). It also reads $TENET_HISTORY_TIME.
// Without either flag it opens nothing. Close releases the database.
func Prepare(f *cliflags.History) (*Session, error) {
	s := &Session{f: f}
	if !f.Record && !f.NoCaseLost {
		return s, nil
	}
	var err error
	if s.path, err = f.Path(); err != nil {
		return nil, err
	}
	if !f.Record {
		s.db, err = history.OpenExisting(s.path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("--no-case-lost: no history database at %s, so nothing to compare with (a mistyped --db?); add --record to start the history with this evaluation", s.path)
		}
		return s, err
	}
	s.when = time.Now() // when the command started (history.Evaluation.Recorded)
	if v := os.Getenv(EnvTime); v != "" {
		if s.when, err = time.Parse(time.RFC3339, v); err != nil {
			return nil, fmt.Errorf("$%s %q: want an RFC 3339 time (2026-01-02T15:04:05Z)", EnvTime, v)
		}
	}
	_, err = os.Stat(s.path)
	if s.fresh = errors.Is(err, fs.ErrNotExist); s.fresh {
		// Created when the evaluation is recorded: a command that fails
		// before leaves no empty database, which a later --no-case-lost
		// would take for a history.
		return s, history.CanCreate(s.path)
	}
	if s.db, err = history.Open(s.path); err != nil {
		return nil, err
	}
	return s, nil
}

// Close closes the database, if one was opened.
func (s *Session) Close() {
	if s != nil && s.db != nil {
		s.db.Close()
	}
}

// Recorder is what eval and report call after their report is written
// (reportout.Flags.Record): it records the Document with recs (in key
// order), the contracts given that the Document does not list (tenet
// report --contract: assemble.Given) and the hashes of inputs (open
// reopens one; nil: os.Open), then prints "recorded evaluation N in PATH"
// on cmd's stderr. nil without --record.
func (s *Session) Recorder(cmd *cobra.Command, recs []runs.Record, given []report.Contract, inputs []string, open func(string) (io.ReadCloser, error)) func(*report.Document) error {
	if !s.f.Record {
		return nil
	}
	return func(d *report.Document) error {
		hashed, err := history.HashInputs(inputs, open)
		if err != nil {
			return fmt.Errorf("recording the evaluation: %w", err)
		}
		cwd, _ := os.Getwd()
		commit, dirty := history.Git(cwd)
		if s.db == nil {
			if s.db, err = history.Open(s.path); err != nil {
				return err
			}
		}
		id, err := s.db.Record(history.NewEvaluation{Document: d, Runs: recs, Inputs: hashed, Commit: commit, Dirty: dirty, Recorded: s.when, Given: given})
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "recorded evaluation %d in %s\n", id, s.path)
		return nil
	}
}
