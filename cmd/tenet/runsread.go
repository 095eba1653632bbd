package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

// readRunsFailed prints the error of runs.ReadFilesAt on stderr — its
// lines ("file:line: reason") as they are, then a closing line with the
// command's prefix and the count, as tenet eval closes its bad records
// ("tenet eval: 7 bad records; nothing written") — and returns exit 2.
// Reading stops after 20 errors, so then the count is a lower bound.
func readRunsFailed(cmd *cobra.Command, err error) error {
	stderr := cmd.ErrOrStderr()
	var re *runs.ReadError
	if !errors.As(err, &re) {
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		return exitError{exitBad}
	}
	fmt.Fprintln(stderr, re.Error())
	var parts []string
	if re.Bad > 0 {
		parts = append(parts, report.Count(re.Bad, "bad record"))
	}
	if re.Unreadable > 0 {
		parts = append(parts, report.Count(re.Unreadable, "unreadable file"))
	}
	what := strings.Join(parts, " and ")
	if re.Stopped {
		what = "more than " + what + " (reading stopped)"
	}
	fmt.Fprintf(stderr, "%s: %s; nothing written\n", cmd.CommandPath(), what)
	return exitError{exitBad}
}
