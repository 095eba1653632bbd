package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/cliflags"
)

func testCmd() *cobra.Command {
	var rf reportFlags
	var lim cliflags.Limits
	var run string
	var verbose bool
	var fo cliflags.FailOn
	cmd := &cobra.Command{
		Use:   "test (DIR|DIR-OF-CONTRACTS) [--run REGEX] [-v]",
		Short: "Run a contract's test blocks: judge each test transcript and compare labels",
		Long:  help("test"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := contractarg.TestSelection(run)
			if err != nil {
				return err
			}
			a, err := contractarg.Resolve(args[0])
			if err != nil {
				return err
			}
			if err := lim.Check(); err != nil {
				return err
			}
			if err := rf.Check(append([]string{args[0]}, contractarg.Sources(a)...)); err != nil {
				return err
			}
			d, err := contractarg.Test(a, tenet.TestOptions{MaxPatternThreads: lim.Threads, RunTimeout: lim.Timeout, Select: sel}, cmd.ErrOrStderr())
			if err != nil {
				return buildFailed(err)
			}
			if len(d.Tests)+len(d.Warnings) == 0 && rf.ShowsFailures() {
				fmt.Fprintf(cmd.OutOrStdout(), "no tests in %s\n", args[0])
				return nil
			}
			d.ListPassed = verbose
			d.SetPolicy(fo.Policy)
			return rf.write(cmd, d, nil)
		},
	}
	rf.Add(cmd)
	lim.Add(cmd)
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose name matches this regular expression (Go syntax)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every test, passed ones too (by default the table lists failures and the counts)")
	fo.Add(cmd, report.CommandTest)
	return cmd
}
