package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/cmd/tenet/internal/completion"
	"github.com/tenetlang/tenet/cmd/tenet/internal/enforce"
	"github.com/tenetlang/tenet/cmd/tenet/internal/exportcmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/cmd/tenet/internal/fmtcmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/historycmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/initcmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/version"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/internal/errwriter"
	"github.com/tenetlang/tenet/internal/termstyle"
)

// Exit codes (docs/cli.md).
const (
	exitOK      = 0
	exitFailure = 1 // a gate, test or invariant failed
	exitBad     = 2 // bad contract, bad input or usage
)

// exitError carries an exit code out of a command; its message, if any, has
// already been printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func exit(code int) error { return exitError{code} }

// Main runs tenet with args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return MainContext(context.Background(), args, stdout, stderr)
}

// MainContext is Main with a context the commands see (cmd.Context()):
// when it is cancelled (tenet was interrupted), a command stops where it
// can, its error is not printed (the caller says it was interrupted) and
// the exit code is exitInterrupted.
func MainContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := errwriter.New(stdout) // checked once, after the command
	ctx = clistyle.WithStdout(ctx, termstyle.For(stdout, os.Getenv))
	return stdoutFailed(mainContext(ctx, args, out, stderr), out, stderr)
}

// stdoutFailed is the exit code and message after the command when
// standard output could not be written: exitBad, unless the command has
// already exited with exitBad (eval and report check their own writes and
// name the error) or was interrupted.
func stdoutFailed(code int, out *errwriter.Writer, stderr io.Writer) int {
	if out.Err() == nil || code == exitBad || code == exitInterrupted {
		return code
	}
	fmt.Fprintf(stderr, "tenet: cannot write standard output: %v\n", out.Err())
	return exitBad
}

// mainContext is MainContext with stdout checked by the caller.
func mainContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	var ee exitError
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		// Usage errors (unknown flag, wrong argument count) and plain failures.
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		if cmd.Runnable() && isUsageError(err) {
			fmt.Fprintf(stderr, "usage: %s (see %s --help)\n", cmd.UseLine(), cmd.CommandPath())
		}
		return exitBad
	}
}

// newRoot is tenet's command tree, writing to stdout and stderr.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:               "tenet",
		Short:             "Check, build and evaluate agent-evaluation contracts",
		Long:              "tenet judges agent transcripts against workflow contracts written in HCL with CEL criteria.\nSee docs/cli.md.",
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: flagcheck.Check, // docs/cli.md, Conventions
	}
	root.CompletionOptions.DisableDefaultCmd = true // tenet's own: completion.Command
	version.SetRoot(root)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(checkCmd(), buildCmd(), keygenCmd(), inspectCmd(), evalCmd(), explainCmd(), reportCmd(), compareCmd(), testCmd(), version.Command(), importCmd(), devCmd())
	root.AddCommand(enforce.Commands(enforce.Env{Help: help, Open: openContract, Exit: exit})...)
	root.AddCommand(fmtcmd.Command(fmtcmd.Env{Help: help("fmt"), Exit: exit}), completion.Command(help("completion")), initcmd.Command(help("init")), historycmd.New(historycmd.Env{Help: help, Exit: exit, Version: compiler.Version}))
	root.AddCommand(exportcmd.Command(exportcmd.Env{Help: help("export"), Version: compiler.Version, ReadFailed: readRunsFailed}))
	flagcheck.Install(root)
	return root
}

// isUsageError reports whether err is cobra's complaint about arguments or
// flags, after which the usage line helps.
func isUsageError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"arg(s)", "flag", "unknown command"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// helpTexts are the commands' long help, one file per command
// (help/NAME.txt): the CLI's prose, apart from the code that runs it.
//
//go:embed help/*.txt
var helpTexts embed.FS

// help is the long help of the command name: help/name.txt without its
// final newline ("" for a missing file, which TestHelpTexts refuses).
func help(name string) string {
	b, _ := helpTexts.ReadFile("help/" + name + ".txt")
	return strings.TrimSuffix(string(b), "\n")
}
