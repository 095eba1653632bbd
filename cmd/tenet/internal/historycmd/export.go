package historycmd

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/exportcmd"
	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/eval/runs"
)

// exportCmd is `tenet history export ID -o OUT`: the runs one evaluation
// recorded, written as `tenet export` writes runs files (Parquet by
// default), so that a recorded evaluation can be queried without its runs
// file. The Parquet footer names the evaluation (history.* keys).
func exportCmd(c *Context) *cobra.Command {
	var out, format string
	cmd := &cobra.Command{
		Use:   "export (ID|last|last~N) -o OUT.parquet [--format parquet|jsonl]",
		Short: "Export the runs of one recorded evaluation as Parquet or as a runs file",
		Long:  c.Help("history-export"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := exportcmd.CheckFormat(format)
			if err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("no output: name the file to write with --out (-o)")
			}
			// "-" is standard output for the text format only (flagcheck
			// declares "-" per flag, not per format, so the command
			// refuses it for Parquet itself, in flagcheck's words).
			if out == "-" && f != exportcmd.JSONL {
				return fmt.Errorf("--out -: tenet history export cannot write this to standard output; name a file (Parquet is binary, and its readers seek to its footer; --format jsonl writes to standard output)")
			}
			db, err := c.Open()
			if err != nil {
				return err
			}
			defer db.Close()
			e, err := Resolve(db, args[0])
			if err != nil {
				return err
			}
			recs, err := db.Runs(e.ID)
			if err != nil {
				return err
			}
			meta := map[string]string{
				"history.evaluation": strconv.FormatInt(e.ID, 10),
				"history.recorded":   e.Recorded.UTC().Format(time.RFC3339),
			}
			if e.Commit != "" {
				meta["history.commit"] = e.Commit
			}
			if out == "-" {
				return runs.Write(cmd.OutOrStdout(), recs) // the bytes exportcmd.Write gives a file
			}
			return exportcmd.Write(out, f, recs, c.Version, meta)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "file to write, atomically (required; - is standard output with --format jsonl only: Parquet is binary, and its readers seek to its footer)")
	flagcheck.AcceptDash(cmd, "out")
	cmd.Flags().StringVar(&format, "format", string(exportcmd.Parquet), "parquet (docs/export.md) or jsonl (the recorded runs as one runs file, in key order)")
	return cmd
}
