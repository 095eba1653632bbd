package cliflags

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tenetlang/tenet/eval/history"
)

// History is --record and --db: tenet eval and tenet report record their
// evaluation in the results history (eval/history, docs/history.md); the
// tenet history commands read it from --db.
type History struct {
	Record bool
	DB     string
	flags  *pflag.FlagSet // where --db is declared: Path tells --db "" from none
	// NoCaseLost is --no-case-lost (eval and report): the gate against the
	// last recorded evaluation (historycmd.Session.Gate); it reads --db too.
	NoCaseLost bool
}

// Add declares --record and --db on a command that records (eval,
// report): --db without --record is refused, since it would record
// nothing.
func (f *History) Add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.Record, "record", false, "record this evaluation (metrics, gates, every run, inputs' hashes, git commit, time) in the results history (docs/history.md)")
	cmd.Flags().BoolVar(&f.NoCaseLost, "no-case-lost", false, "gate: fail (exit 1) when a task or case was lost against the last recorded evaluation of the same contract (docs/history.md)")
	f.AddDB(cmd.Flags())
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if prev != nil {
			if err := prev(c, args); err != nil {
				return err
			}
		}
		if f.Record || f.NoCaseLost || c.Flags().Changed("db") {
			if _, err := f.Path(); err != nil {
				return err // before anything is judged
			}
		}
		if c.Flags().Changed("db") && !f.Record && !f.NoCaseLost {
			return errors.New("--db without --record or --no-case-lost: add --record to record this evaluation in that database, or --no-case-lost to compare it with the last one recorded there")
		}
		return nil
	}
}

// AddDB declares --db alone (the tenet history commands, on the group's
// persistent flags).
func (f *History) AddDB(fs *pflag.FlagSet) {
	f.flags = fs
	fs.StringVar(&f.DB, "db", "", "the history database file (default: $"+history.EnvDB+", else tenet/history.db in the user data directory)")
}

// Path is the database --db names, else history.DefaultPath.
func (f *History) Path() (string, error) {
	if f.DB == "-" {
		// A database is a file SQLite seeks in: no standard stream.
		return "", errors.New("--db -: want a file path (a history database cannot be standard input or output)")
	}
	if f.DB != "" {
		return f.DB, nil
	}
	if f.flags != nil && f.flags.Changed("db") {
		return "", errors.New("--db \"\": want a file path (without --db: the default database)")
	}
	return history.DefaultPath()
}
