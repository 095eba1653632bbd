package main

import (
	"bytes"
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
			// The directories are compiled in parallel; what each prints is
			// written in order, as if one after the other.
			bs, errs, diags := make([]*tenet.Bundle, len(args)), make([]error, len(args)), make([]bytes.Buffer, len(args))
			inParallel(len(args), func(i int) { bs[i], errs[i] = tenet.Build(args[i], diagsTo(&diags[i])) })
			bad := false
			for i, err := range errs {
				diags[i].WriteTo(cmd.ErrOrStderr())
				if err != nil {
					bad = true
					if !errors.As(err, new(*tenet.BuildError)) { // else printed as diagnostics
						fmt.Fprintln(cmd.ErrOrStderr(), err)
					}
					continue
				}
				fmt.Fprintln(cmd.OutOrStdout(), bs[i].Contract().Summary())
			}
			if bad {
				return exitError{exitBad}
			}
			return nil
		},
	}
}
