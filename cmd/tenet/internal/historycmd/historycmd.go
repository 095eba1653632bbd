// Package historycmd is `tenet history`: the commands that read the
// results history (eval/history, docs/history.md) — list and show here,
// each subcommand in a file of its own, listed in subcommands.go — and
// Recorder, what `tenet eval --record` and `tenet report --record` call
// once their report is written. Help texts and exit codes come from
// cmd/tenet through Env.
package historycmd

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/internal/cliflags"
)

// Env is what the history commands take from cmd/tenet.
type Env struct {
	Help func(name string) string // the help text of help/NAME.txt
	Exit func(code int) error     // an error that exits with code, printing nothing
	// Version is the tenet version an export records (compiler.Version).
	Version string
}

// Context is what every subcommand gets: Env and the group's --db.
type Context struct {
	Env
	DB *cliflags.History
}

// New builds `tenet history` with the subcommands of subcommands.go.
func New(env Env) *cobra.Command {
	c := &Context{Env: env, DB: &cliflags.History{}}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List, show, diff and follow the evaluations recorded with --record",
		Long:  env.Help("history"),
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	c.DB.AddDB(cmd.PersistentFlags())
	for _, sub := range subcommands {
		cmd.AddCommand(sub(c))
	}
	return cmd
}

// Open opens the database --db names (else the default) for reading: a
// missing file is an error that says nothing was recorded there.
func (c *Context) Open() (*history.DB, error) {
	path, err := c.DB.Path()
	if err != nil {
		return nil, err
	}
	db, err := history.OpenExisting(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no history database at %s: nothing recorded there yet (tenet eval --record records an evaluation), or --db names the wrong file", path)
	}
	return db, err
}

// Formats of the history commands.
const (
	FormatTable = "table"
	FormatJSON  = "json"
)

// CheckFormat refuses a --format the history commands do not write.
func CheckFormat(f string) error {
	if f != FormatTable && f != FormatJSON {
		return fmt.Errorf("--format %q: want table or json", f)
	}
	return nil
}
