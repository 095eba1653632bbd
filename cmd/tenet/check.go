package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
)

func checkCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check DIR",
		Short: "Type-check a contract and print every diagnostic",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, ok := compileDir(args[0], cmd.ErrOrStderr())
			if !ok {
				return exitError{exitBad}
			}
			fmt.Fprintln(cmd.OutOrStdout(), summary(b))
			return nil
		},
	}
}

// summary describes a checked contract in one line.
func summary(b *bundle.Bundle) string {
	m := b.Manifest
	return fmt.Sprintf("ok: contract %s %s: %d tools, %d predicates, %d tasks, %d goals, %d security cases, %d sources",
		m.Contract, m.Version, len(b.Decls.Tools), len(b.Decls.Predicates), len(b.Plan.Tasks), len(b.Plan.Goals), len(b.Plan.Cases), len(b.Plan.Sources))
}
