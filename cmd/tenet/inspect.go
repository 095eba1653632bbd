package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/internal/cliflags"
)

func inspectCmd() *cobra.Command {
	var trust cliflags.Trust
	var cf cliflags.Cache
	var verify bool
	cmd := &cobra.Command{
		Use:   "inspect (X.tnb|DIR)",
		Short: "Print a bundle's manifest, declarations, expressions and pattern programs",
		Long:  help("inspect"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pol, err := trust.Policy()
			if err != nil {
				return err
			}
			tb, err := openContract(args[0], cmd.ErrOrStderr(), pol, cf.Cache())
			if err != nil {
				return err
			}
			size := 0
			if st, err := os.Stat(args[0]); err == nil && !st.IsDir() {
				size = int(st.Size())
			}
			issues, err := tb.Inspect(cmd.OutOrStdout(), size, verify)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			b := tb.Contract()
			if issues.Len() > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s: %d of %d expressions and %d of %d patterns do not run what their text says (marked MISMATCH above): the bundle was altered after it was compiled, and eval refuses it\n",
					cmd.CommandPath(), args[0], len(issues.Exprs), len(b.Exprs), len(issues.Patterns), len(b.Plan.Patterns))
				return exitError{exitBad}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&verify, "verify", false, "compile every expression's text again and compare it with the compiled form byte for byte (slower than the check eval makes; docs/bundle.md)")
	trust.Add(cmd)
	cf.Add(cmd)
	return cmd
}
