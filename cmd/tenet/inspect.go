package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/internal/cliflags"
)

func inspectCmd() *cobra.Command {
	var trust cliflags.Trust
	var cf cliflags.Cache
	var verify bool
	var format string
	cmd := &cobra.Command{
		Use:   "inspect (X.tnb|DIR|DIR-OF-CONTRACTS) [--format text|json]",
		Short: "Print a bundle's manifest, declarations, expressions and pattern programs",
		Long:  help("inspect"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(contractarg.InspectFormats, format) {
				return fmt.Errorf("unknown --format %q: want %s", format, strings.Join(contractarg.InspectFormats, ", "))
			}
			pol, err := trust.Policy()
			if err != nil {
				return err
			}
			return buildFailed(contractarg.Inspect(args[0], format, verify, cmd.OutOrStdout(), cmd.ErrOrStderr(), pol, cf.Cache(), cmd.CommandPath()))
		},
	}
	cmd.Flags().BoolVar(&verify, "verify", false, "compile every expression's text again and compare it with the compiled form byte for byte (slower than the check eval makes; docs/bundle.md)")
	cmd.Flags().StringVar(&format, "format", "text", "text (the listing) or json (docs/cli.md: tenet-inspect/1)")
	trust.Add(cmd)
	cf.Add(cmd)
	return cmd
}
