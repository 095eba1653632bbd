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
	name := m.Contract
	if m.Version != "" {
		name += " " + m.Version
	}
	return fmt.Sprintf("ok: contract %s: %s, %s, %s, %s, %s, %s", name,
		count(len(b.Decls.Tools), "tool"), count(len(b.Decls.Scopes[0].Predicates), "predicate"), count(len(b.Plan.Tasks), "task"),
		count(len(b.Plan.Goals), "goal"), count(len(b.Plan.Cases), "security case"), count(len(b.Plan.Sources), "source"))
}

// count renders "1 task", "2 tasks".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
