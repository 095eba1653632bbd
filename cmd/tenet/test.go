package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/tester"
	"github.com/tenetlang/tenet/lang"
)

func testCmd() *cobra.Command {
	var rf reportFlags
	var lim limitFlags
	cmd := &cobra.Command{
		Use:   "test DIR",
		Short: "Run a contract's test blocks: judge each test transcript and compare labels",
		Long:  help("test"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := lim.check(); err != nil {
				return err
			}
			if err := rf.check(append([]string{dir}, lang.SourceFiles(dir)...)); err != nil {
				return err
			}
			built, ok := buildDir(dir, cmd.ErrOrStderr())
			if !ok {
				return exitError{exitBad}
			}
			p, err := eval.Load(built.Data)
			if err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			lim.apply(p)
			specs := compiler.Tests(built.Module)
			if len(specs) == 0 && rf.format == "table" && rf.out == "" {
				fmt.Fprintf(cmd.OutOrStdout(), "no tests in %s\n", dir)
				return nil
			}
			var results []report.TestResult
			for _, r := range tester.Run(p, dir, specs) {
				results = append(results, report.TestResult(r))
			}
			m := p.Bundle.Manifest
			c := report.Contract{Name: m.Contract, Version: m.Version, Bundle: p.ID}
			return rf.write(cmd, report.BuildTests(compiler.Version, c, results))
		},
	}
	rf.add(cmd)
	lim.add(cmd)
	return cmd
}
