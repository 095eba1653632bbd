package cliflags

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
)

// History is --record and --db: tenet eval and tenet report record their
// evaluation in the results history (eval/history, docs/history.md); the
// tenet history commands read it from --db.
type History struct {
	Record bool
	DB     string
	// NoCaseLost is --no-case-lost (eval and report): the gate against the
	// last recorded evaluation (historycmd.Gate); it reads --db too.
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
		if c.Flags().Changed("db") && !f.Record && !f.NoCaseLost {
			return errors.New("--db without --record: add --record to record this evaluation in that database")
		}
		return nil
	}
}

// flagSet is the part of a pflag.FlagSet AddDB needs (a command's flags
// or its persistent flags).
type flagSet interface {
	StringVar(p *string, name, value, usage string)
}

// AddDB declares --db alone (the tenet history commands, on the group's
// persistent flags).
func (f *History) AddDB(fs flagSet) {
	fs.StringVar(&f.DB, "db", "", "the history database file (default: $"+history.EnvDB+", else tenet/history.db in the user data directory)")
}

// Path is the database --db names, else history.DefaultPath.
func (f *History) Path() (string, error) {
	if f.DB != "" {
		return f.DB, nil
	}
	return history.DefaultPath()
}
