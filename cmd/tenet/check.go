package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/internal/cliflags"
)

func checkCmd() *cobra.Command {
	var cf cliflags.Cache
	cmd := &cobra.Command{
		Use:   "check DIR...",
		Short: "Type-check contracts and print every diagnostic",
		Long:  help("check"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// The directories are compiled in parallel; what each prints is
			// written in order, as if one after the other.
			c := cf.Cache()
			bs, errs, diags := make([]*tenet.Bundle, len(args)), make([]error, len(args)), make([]bytes.Buffer, len(args))
			inParallel(len(args), func(i int) { bs[i], errs[i] = checkDir(args[i], c, diagsTo(&diags[i])) })
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
	cf.Add(cmd)
	return cmd
}

// checkDir compiles dir for check. A directory is opened with the compile
// cache c (tenet.Open): the cache holds only compiles without a single
// diagnostic, so a hit is what a compile now would give, with nothing to
// print, and a miss is compiled (stored when clean). Anything else, and
// every path with --no-cache (c nil), is compiled by tenet.Build as
// always: Open would read a file as a bundle file, which check never does.
func checkDir(dir string, c *cache.Cache, diags tenet.LoadOption) (*tenet.Bundle, error) {
	if st, err := os.Stat(dir); c != nil && err == nil && st.IsDir() {
		return tenet.Open(dir, diags, tenet.WithCache(c))
	}
	return tenet.Build(dir, diags)
}
