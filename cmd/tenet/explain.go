package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/explain"
	"github.com/tenetlang/tenet/internal/cliflags"
)

func explainCmd() *cobra.Command {
	var key, source, format string
	var lim cliflags.Limits
	var inf cliflags.Inputs
	var trust cliflags.Trust
	var cf cliflags.Cache
	cmd := &cobra.Command{
		Use:   "explain (DIR|X.tnb) --run KEY FILES...",
		Short: "Show how one run's labels came about",
		Long:  help("explain"),
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return errors.New("--run KEY is required")
			}
			if err := lim.Check(); err != nil {
				return err
			}
			list, err := inf.Expand(args[0], args[1:])
			if err != nil {
				return err
			}
			defer list.Close()
			pol, err := trust.Policy()
			if err != nil {
				return err
			}
			progs, err := loadPrograms(args[0], cmd.ErrOrStderr(), pol, cf.Cache(), false)
			if err != nil {
				return err
			}
			p := progs[0]
			lim.Apply(p)
			src, err := cliflags.SourcePlan(p, source, format)
			if err != nil {
				return err
			}
			ex, err := explain.Find(p, src, list.Files, list.Open, key)
			if err != nil {
				return err
			}
			explain.Write(cmd.OutOrStdout(), p.Bundle, ex)
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "run", "", "the run to explain: condition/task[/goal] or FILE:LINE")
	cliflags.AddReading(cmd, &source, &format)
	lim.Add(cmd)
	inf.Add(cmd)
	trust.Add(cmd)
	cf.Add(cmd)
	return cmd
}
