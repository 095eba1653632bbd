package historycmd

import (
	"fmt"
	"io"
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

// Recorder is what eval and report call after their report is written
// (reportout.Flags.Record): it records the Document with recs (in key
// order), the contracts given that the Document does not list (tenet
// report --contract: assemble.Given) and the hashes of inputs (open
// reopens one; nil: os.Open) in the database of f, then prints "recorded
// evaluation N in PATH" on cmd's stderr. nil without --record.
func Recorder(cmd *cobra.Command, f *cliflags.History, recs []runs.Record, given []report.Contract, inputs []string, open func(string) (io.ReadCloser, error)) func(*report.Document) error {
	if !f.Record {
		return nil
	}
	return func(d *report.Document) error {
		path, err := f.Path()
		if err != nil {
			return err
		}
		when := time.Now()
		if s := os.Getenv(EnvTime); s != "" {
			if when, err = time.Parse(time.RFC3339, s); err != nil {
				return fmt.Errorf("$%s %q: want an RFC 3339 time (2026-01-02T15:04:05Z)", EnvTime, s)
			}
		}
		hashed, err := history.HashInputs(inputs, open)
		if err != nil {
			return fmt.Errorf("recording the evaluation: %w", err)
		}
		cwd, _ := os.Getwd()
		commit, dirty := history.Git(cwd)
		db, err := history.Open(path)
		if err != nil {
			return err
		}
		defer db.Close()
		id, err := db.Record(history.NewEvaluation{Document: d, Runs: recs, Inputs: hashed, Commit: commit, Dirty: dirty, Recorded: when, Given: given})
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "recorded evaluation %d in %s\n", id, path)
		return nil
	}
}
