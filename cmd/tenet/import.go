package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang/toolimport"
)

// importCmd is `tenet import SOURCE FILE`: tool definitions → tool blocks.
func importCmd() *cobra.Command {
	out, strict := "", false
	cmd := &cobra.Command{
		Use:   "import (mcp|openai|anthropic) FILE",
		Short: "Write tool blocks from MCP, OpenAI or Anthropic tool definitions",
		Long:  help("import"),
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := toolimport.ImportFile(args[0], args[1])
			if out == "-" {
				out = "" // standard output, the default
			}
			if err == nil && out != "" {
				err = paths.CheckOutput(out, args[1:])
			}
			if err != nil {
				return err
			}
			res.WriteWarnings(cmd.ErrOrStderr())
			switch {
			case strict && len(res.Warnings) > 0:
				fmt.Fprintf(cmd.ErrOrStderr(), "%d warnings and --strict: nothing written\n", len(res.Warnings))
				return exitError{exitFailure}
			case out != "":
				return atomicfile.Write(out, res.Text, 0o644)
			}
			_, err = cmd.OutOrStdout().Write(res.Text)
			return err
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the tool blocks to this file (default and -: standard output)")
	flagcheck.AcceptDash(cmd, "out")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 and write nothing when anything could not be expressed")
	return cmd
}
