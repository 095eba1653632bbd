package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/lang"
)

func testCmd() *cobra.Command {
	var rf reportFlags
	var lim cliflags.Limits
	cmd := &cobra.Command{
		Use:   "test DIR",
		Short: "Run a contract's test blocks: judge each test transcript and compare labels",
		Long:  help("test"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := lim.Check(); err != nil {
				return err
			}
			if err := rf.Check(append([]string{dir}, lang.SourceFiles(dir)...)); err != nil {
				return err
			}
			b, err := tenet.Build(dir, diagsTo(cmd.ErrOrStderr()))
			if err != nil {
				return buildFailed(err)
			}
			if len(b.Tests()) == 0 && rf.ShowsFailures() {
				fmt.Fprintf(cmd.OutOrStdout(), "no tests in %s\n", dir)
				return nil
			}
			d, err := b.Test(tenet.TestOptions{MaxPatternThreads: lim.Threads, RunTimeout: lim.Timeout})
			if err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			return rf.write(cmd, d, nil)
		},
	}
	rf.Add(cmd)
	lim.Add(cmd)
	return cmd
}
