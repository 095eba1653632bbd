// Package exportcmd is the command tenet export: runs files (and decision
// logs), read as tenet report reads them, written as one file another tool
// reads — Parquet (eval/runs/parquet) for DuckDB, pandas or Spark, or the
// merged runs file in key order (jsonl) — atomically (internal/atomicfile);
// `--schema` prints the Parquet schema. Loading nothing of a contract, it
// takes from cmd/tenet only its help, the version reports record, and how
// a failed read of runs files is printed.
package exportcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runs/parquet"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/paths"
)

// Env is what the command takes from cmd/tenet.
type Env struct {
	Help string
	// Version is the tenet version the Parquet footer records: the one
	// reports record (compiler.Version).
	Version string
	// ReadFailed prints the error of runs.ReadFilesAt as tenet report does
	// and returns the exit-2 error.
	ReadFailed func(cmd *cobra.Command, err error) error
}

// Format is an export format (--format).
type Format string

// The formats, Parquet the default.
const (
	Parquet Format = "parquet"
	JSONL   Format = "jsonl"
)

// Command is `tenet export RUNS.jsonl... -o OUT [--format parquet|jsonl]`
// and `tenet export --schema`.
func Command(env Env) *cobra.Command {
	var out, format string
	var schema bool
	var maxRecord int
	cmd := &cobra.Command{
		Use:   "export RUNS.jsonl... -o OUT.parquet [--format parquet|jsonl]",
		Short: "Export runs files as Parquet (DuckDB, pandas, Spark) or as one merged runs file",
		Long:  env.Help,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := CheckFormat(format)
			if err != nil {
				return err
			}
			if schema {
				if len(args) > 0 || out != "" || f != Parquet {
					return fmt.Errorf("--schema prints the Parquet schema and exports nothing: give it no runs files, no --out and no --format jsonl")
				}
				_, err := io.WriteString(cmd.OutOrStdout(), parquet.FileSchema().String()+"\n")
				return err
			}
			if len(args) == 0 {
				return fmt.Errorf("requires at least 1 arg(s), only received 0: the runs files to export")
			}
			if out == "" {
				return fmt.Errorf("no output: name the file to write with --out (-o)")
			}
			if maxRecord < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", maxRecord)
			}
			if err := paths.CheckInputs(args); err != nil {
				return err
			}
			if err := paths.CheckOutput(out, args); err != nil {
				return err
			}
			recs, _, err := runs.ReadFilesAt(runs.ReadOptions{MaxRecordBytes: maxRecord, Foreign: decisionlog.Foreign}, args...)
			if err != nil {
				return env.ReadFailed(cmd, err)
			}
			if len(recs) == 0 {
				// An empty export would look like a result.
				return fmt.Errorf("no runs in %s: nothing to export (an empty file, or not a runs file?)", strings.Join(args, ", "))
			}
			return Write(out, f, recs, env.Version, nil)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "file to write, atomically (required; not -: Parquet is binary, and its readers seek to its footer)")
	cmd.Flags().StringVar(&format, "format", string(Parquet), "parquet (docs/export.md) or jsonl (the runs merged into one runs file, in key order)")
	cmd.Flags().BoolVar(&schema, "schema", false, "print the Parquet schema of the export (docs/export.md) and export nothing")
	cmd.Flags().IntVar(&maxRecord, "max-record-bytes", runs.DefaultMaxRecordBytes, "longest runs-file record (line) accepted, in bytes")
	return cmd
}

// CheckFormat reads --format.
func CheckFormat(s string) (Format, error) {
	for _, f := range []Format{Parquet, JSONL} {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format %q: want parquet or jsonl", s)
}

// Write writes recs to path in format f, atomically: the file is replaced
// only once it is whole, and left as it was on an error. meta adds keys to
// a Parquet file's footer (parquet.Options.Metadata).
func Write(path string, f Format, recs []runs.Record, version string, meta map[string]string) error {
	file, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return err
	}
	switch f {
	case JSONL:
		err = runs.Write(file, recs)
	default:
		err = parquet.Write(file, recs, parquet.Options{Version: version, Metadata: meta})
	}
	if err != nil {
		file.Abort()
		return fmt.Errorf("export %s: %w", path, err)
	}
	return file.Commit()
}
