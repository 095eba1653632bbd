package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
)

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tenet's version, bundle format version and cel-go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "tenet %s (bundle format %d, cel-go %s)\n", compiler.Version, bundle.FormatVersion, celenv.CELVersion)
			return nil
		},
	}
}
