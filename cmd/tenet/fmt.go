package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/format"
)

// fmtCmd is `tenet fmt [-check] [DIR|FILE]...`: rewrite contract files in
// canonical layout (package lang/format).
func fmtCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fmt [-check] [DIR|FILE]...",
		Short: "Rewrite contract files in canonical layout",
		Long:  help("fmt"),
		// -check is written with one dash, as in gofmt and terraform fmt,
		// which pflag would read as -c -h -e -c -k: arguments are parsed here.
		DisableFlagParsing:    true,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			check := false
			var paths []string
		args:
			for i, a := range args {
				switch {
				case a == "--":
					paths = append(paths, args[i+1:]...)
					break args
				case a == "-check" || a == "--check":
					check = true
				case a == "-h" || a == "-help" || a == "--help":
					return cmd.Help()
				case strings.HasPrefix(a, "-") && a != "-":
					return fmt.Errorf("unknown flag: %s", a)
				default:
					paths = append(paths, a)
				}
			}
			if len(paths) == 0 {
				paths = []string{"."}
			}
			return runFmt(paths, check, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().Bool("check", false, "write nothing; list the files that are not formatted and exit 1 if any")
	return cmd
}

// runFmt formats the contract files of paths (directories or files): the
// errors of files that do not parse on stderr, the names of the files it
// changed (or, with check, would change) on stdout.
func runFmt(paths []string, check bool, stdout, stderr io.Writer) error {
	res, err := format.Run(paths, !check)
	for _, f := range res.Failed {
		compiler.SortDiagnostics(f.Diags)
		diag.WriteText(stderr, "", map[string]*hcl.File{f.Name: f.File}, f.Diags)
	}
	if err != nil {
		return err
	}
	for _, f := range res.Changed {
		fmt.Fprintln(stdout, f)
	}
	switch {
	case len(res.Failed) > 0:
		return exitError{exitBad}
	case check && len(res.Changed) > 0:
		return exitError{exitFailure}
	}
	return nil
}
