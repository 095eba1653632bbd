package main

import (
	"fmt"

	"github.com/spf13/cobra"
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
				built, ok := buildDir(dir, cmd.ErrOrStderr())
				if !ok {
					bad = true
					continue
				}
				fmt.Fprintln(cmd.OutOrStdout(), built.Bundle.Summary())
			}
			if bad {
				return exitError{exitBad}
			}
			return nil
		},
	}
}
