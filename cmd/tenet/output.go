package main

import (
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/cmd/tenet/internal/reportout"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/atomicfile"
)

// reportFlags are the report flags eval, report, compare and test share
// (cmd/tenet/internal/reportout).
type reportFlags struct{ reportout.Flags }

// write writes d as the flags say (reportout.Flags.Write) and returns the
// error that gives d's exit code.
func (f *reportFlags) write(cmd *cobra.Command, d *report.Document, set *atomicfile.Set) error {
	if err := f.Write(cmd.OutOrStdout(), cmd.ErrOrStderr(), d, set, clistyle.Stdout(cmd.Context())); err != nil {
		return err // metric errors: main prints them after the command path
	}
	if d.ExitCode == exitFailure {
		return exitError{exitFailure}
	}
	return nil
}
