package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
)

func checkCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check DIR...",
		Short: "Type-check contracts and print every diagnostic",
		Long:  help("check"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := false
			for _, dir := range args {
				b, err := tenet.Build(dir, diagsTo(cmd.ErrOrStderr()))
				if err != nil {
					bad = true
					if !errors.As(err, new(*tenet.BuildError)) { // else printed as diagnostics
						fmt.Fprintln(cmd.ErrOrStderr(), err)
					}
					continue
				}
				fmt.Fprintln(cmd.OutOrStdout(), b.Contract().Summary())
			}
			if bad {
				return exitError{exitBad}
			}
			return nil
		},
	}
}
