package historycmd

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/history/regress"
	"github.com/tenetlang/tenet/eval/history/trend"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/atomicfile"
)

// diffCmd is tenet history diff A B.
func diffCmd(c *Context) *cobra.Command {
	var condition, contract, format, out string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "The tasks and cases lost and gained from evaluation A to B (paired transitions, McNemar p)",
		Long:  c.Help("history-diff"),
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := regress.ParseFormat(format)
			if err != nil {
				return err
			}
			db, err := c.Open()
			if err != nil {
				return err
			}
			defer db.Close()
			var sides [2]regress.Side
			for i, arg := range args {
				e, err := Resolve(db, arg)
				if err != nil {
					return err
				}
				recs, err := db.Runs(e.ID)
				if err != nil {
					return err
				}
				sides[i] = regress.Side{Name: fmt.Sprintf("evaluation %d", e.ID), ID: e.ID, Runs: recs}
			}
			if sides[0].ID == sides[1].ID {
				return fmt.Errorf("%s and %s are both evaluation %d: give two different evaluations (tenet history list)", args[0], args[1], sides[0].ID)
			}
			d, err := regress.Compute(sides[0], sides[1], regress.Options{Condition: condition, Contract: contract})
			if err != nil {
				return err
			}
			// Ids are the recording order (tenet history list); A after B
			// is allowed, and said.
			d.Reversed = sides[0].ID > sides[1].ID
			var buf bytes.Buffer
			if err := regress.Write(&buf, d, f); err != nil {
				return err
			}
			return writeOut(cmd.OutOrStdout(), out, buf.Bytes())
		},
	}
	cmd.Flags().StringVar(&condition, "condition", "", "diff only this condition (condition, or contract:condition)")
	cmd.Flags().StringVar(&contract, "contract", "", "diff only this contract's runs (it must be in both; the gate compares per contract)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, json or markdown")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the diff to this file, atomically (default: standard output)")
	return cmd
}

// trendCmd is tenet history trend.
func trendCmd(c *Context) *cobra.Command {
	var contract, metric, condition, format, out string
	var limit int
	cmd := &cobra.Command{
		Use:   "trend --contract C --metric M",
		Short: "One metric of a contract over its recorded evaluations (table, or an HTML plot)",
		Long:  c.Help("history-trend"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := trend.ParseFormat(format)
			if err != nil {
				return err
			}
			if err := trend.CheckMetric(metric); err != nil {
				return err
			}
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (every evaluation) or more", limit)
			}
			db, err := c.Open()
			if err != nil {
				return err
			}
			defer db.Close()
			pts, err := Points(db, history.Filter{Contract: contract, Condition: condition, Limit: limit}, metric)
			if err != nil {
				return err
			}
			s, err := trend.New(contract, metric, pts)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := trend.Write(&buf, s, f); err != nil {
				return err
			}
			return writeOut(cmd.OutOrStdout(), out, buf.Bytes())
		},
	}
	cmd.Flags().StringVar(&contract, "contract", "", "the contract (its name, as tenet history lists it)")
	cmd.Flags().StringVar(&metric, "metric", "", "the metric: "+strings.Join(trend.Metrics(), ", "))
	cmd.Flags().StringVar(&condition, "condition", "", "only this condition")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the last N evaluations recorded (0: all)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, json, markdown or html")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the trend to this file, atomically (default: standard output)")
	cmd.MarkFlagRequired("contract")
	cmd.MarkFlagRequired("metric")
	return cmd
}

// Points are metric's values in the evaluations f selects, one per
// evaluation and condition of f.Contract (only f.Condition when set).
func Points(db *history.DB, f history.Filter, metric string) ([]trend.Point, error) {
	if f.Condition != "" {
		// As diff's --condition: a condition named as the summary shows
		// it, without its " @ attack", when that names one condition.
		c, err := baseCondition(db, f)
		if err != nil {
			return nil, err
		}
		f.Condition = c
	}
	evs, err := db.List(f)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		what := "contract " + runs.Safe(f.Contract)
		hint := ""
		if f.Condition != "" {
			what += " with condition " + runs.Safe(f.Condition)
			all, err := db.List(history.Filter{Contract: f.Contract})
			if err != nil {
				return nil, err
			}
			var conds []string
			for _, e := range all {
				conds = append(conds, e.Conditions...)
			}
			slices.Sort(conds)
			if m := regress.SuggestCondition(f.Condition, slices.Compact(conds)); m != "" {
				hint = " (did you mean " + runs.Safe(m) + "?)"
			}
		}
		return nil, fmt.Errorf("no recorded evaluation of %s in %s%s: record one with tenet eval --record (tenet history list shows what is recorded)", what, db.Path(), hint)
	}
	var pts []trend.Point
	for _, e := range evs {
		ms, err := db.Metrics(e.ID)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if m.Contract != f.Contract || m.Name != metric || f.Condition != "" && m.Condition != f.Condition {
				continue
			}
			pts = append(pts, point(e, m))
		}
	}
	return pts, nil
}

// point is the one mapping from what the history recorded to a trend
// point. A rate the unknown labels change is recorded without a value
// (Known false); its point still carries the true denominator (Den: the
// runs or cases it is over, unknown ones included, N being 0 then) and
// the bounds when the evaluation computed them (--unknown=bounds), so
// that trend shows "—" beside the real n rather than 0. It expects the
// history to record, for such a rate, Known false and N or Den the
// denominator (an empty subset: both 0, no value and n 0).
func point(e history.Evaluation, m history.Metric) trend.Point {
	p := trend.Point{Evaluation: e.ID, Recorded: e.Recorded, Commit: e.Commit, Dirty: e.Dirty, Condition: m.Condition,
		Known: m.Known, Value: m.Value, Low: m.Low, High: m.High, Successes: m.Successes, N: m.N}
	if !m.Known {
		if p.N == 0 && m.Den > 0 {
			p.N = int(math.Round(m.Den))
		}
		// Without a value: unknown labels (the store counts them), or an
		// empty subset; the bounds when the evaluation computed them.
		p.Unknown = m.Unknown > 0 || (m.Bounds == nil && p.N > 0)
		if m.Bounds != nil {
			p.HasBounds, p.LowBound, p.HighBound = true, m.Bounds.Low, m.Bounds.High
		}
	}
	return p
}

// Resolve finds the evaluation an argument names: its id, "last" (the
// newest) or "last~N" (the Nth before the newest).
func Resolve(db *history.DB, arg string) (history.Evaluation, error) {
	back := -1
	switch {
	case arg == "last":
		back = 0
	case strings.HasPrefix(arg, "last~"):
		n, err := strconv.Atoi(strings.TrimPrefix(arg, "last~"))
		if err != nil || n < 0 {
			return history.Evaluation{}, fmt.Errorf("evaluation %s: want an id, last or last~N (N ≥ 0)", runs.Safe(arg))
		}
		back = n
	}
	if back >= 0 {
		evs, err := db.List(history.Filter{Limit: back + 1})
		if err != nil {
			return history.Evaluation{}, err
		}
		if len(evs) <= back {
			return history.Evaluation{}, fmt.Errorf("evaluation %s: %s holds only %d evaluations", arg, db.Path(), len(evs))
		}
		return evs[back], nil
	}
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id < 1 {
		return history.Evaluation{}, fmt.Errorf("evaluation %s: want an id (tenet history list shows them), last or last~N", runs.Safe(arg))
	}
	return db.Get(id) // not recorded: history.ErrNotFound, naming the database
}

// writeOut writes data to path atomically, or to stdout when path is ""
// ("-" is refused before the command runs: flagcheck).
func writeOut(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

// baseCondition is f.Condition, or the one recorded condition of
// f.Contract it names without its " @ attack" part.
func baseCondition(db *history.DB, f history.Filter) (string, error) {
	all, err := db.List(history.Filter{Contract: f.Contract})
	if err != nil {
		return "", err
	}
	var match []string
	for _, e := range all {
		for _, c := range e.Conditions {
			if c == f.Condition {
				return c, nil
			}
			if strings.HasPrefix(c, f.Condition+" @ ") && !slices.Contains(match, c) {
				match = append(match, c)
			}
		}
	}
	if len(match) == 1 {
		return match[0], nil
	}
	return f.Condition, nil
}
