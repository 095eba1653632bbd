// Package runsout is tenet report's -o/--out: the runs it read from
// several runs files — shards of one evaluation (tenet eval --shard i/n)
// or any other — written as one runs file in key order, the bytes tenet
// eval -o would have written for the same runs (docs/scale-out.md,
// "Sharding"). The runs were already checked as one set when read
// (runs.ReadFilesAt: a key in two files is a duplicate, refused), so that
// overlapping shards are refused before anything is written.
package runsout

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/paths"
)

// Flag is the --out flag: "" none, "-" standard output (the report then
// goes to --report-out: flagcheck refuses it otherwise).
type Flag struct {
	Out string
}

// Add declares -o/--out on cmd.
func (f *Flag) Add(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.Out, "out", "o", "", "write the runs read, merged in key order, to this runs file, atomically (-: stdout, with --report-out FILE); e.g. the shards of tenet eval --shard")
	flagcheck.AcceptDash(cmd, "out")
}

// Check refuses an output that is one of the inputs, or the report's file.
func (f *Flag) Check(inputs []string, reportOut string) error {
	if f.Out == "" || f.Out == "-" {
		return nil
	}
	if err := paths.CheckOutput(f.Out, inputs); err != nil {
		return err
	}
	if reportOut != "" && paths.SameFile(f.Out, reportOut) {
		return fmt.Errorf("--out and --report-out name the same file %s", f.Out)
	}
	return nil
}

// Write writes recs (runs.Write sorts them by key) to --out: to stdout for
// "-", else to a file of the set it returns, replaced only when the set is
// committed, with the report (reportout's Write: either both are replaced
// or neither). Nothing without --out. The caller Aborts the set when done
// (after a Commit, a no-op).
func (f *Flag) Write(stdout io.Writer, recs []runs.Record) (*atomicfile.Set, error) {
	set := &atomicfile.Set{}
	if f.Out == "" {
		return set, nil
	}
	var w io.Writer = stdout
	if f.Out != "-" {
		file, err := set.Create(f.Out, 0o644)
		if err != nil {
			return set, err
		}
		w = file
	}
	if err := runs.Write(w, recs); err != nil {
		return set, set.Cancel(err)
	}
	return set, nil
}

// Note tells, on w, a merge without --contract of runs a bundle judged
// that it evaluated no gate: the merged runs of a failing evaluation
// would otherwise exit 0 with no word of it. Nothing without --out (a
// report of runs files alone is a use of its own), with a contract, or
// when no run names a bundle (labels from elsewhere have no gates).
func (f *Flag) Note(w io.Writer, command, contract string, recs []runs.Record) {
	if f.Out == "" || contract != "" || !slices.ContainsFunc(recs, func(r runs.Record) bool { return r.Bundle != "" }) {
		return
	}
	fmt.Fprintf(w, "%s: no --contract: gates are not evaluated; add --contract X (the contract that judged the runs) to get the evaluation's verdict\n", command)
}
