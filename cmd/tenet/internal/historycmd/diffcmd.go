package historycmd

import (
	"bytes"
	"fmt"
	"io"
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
	var condition, format, out string
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
			d, err := regress.Compute(sides[0], sides[1], regress.Options{Condition: condition})
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := regress.Write(&buf, d, f); err != nil {
				return err
			}
			return writeOut(cmd.OutOrStdout(), out, buf.Bytes())
		},
	}
	cmd.Flags().StringVar(&condition, "condition", "", "diff only this condition (condition, or contract:condition)")
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
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N evaluations (0: all)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, json, markdown or html")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the trend to this file, atomically (default: standard output)")
	cmd.MarkFlagRequired("contract")
	cmd.MarkFlagRequired("metric")
	return cmd
}

// Points are metric's values in the evaluations f selects, one per
// evaluation and condition of f.Contract (only f.Condition when set).
func Points(db *history.DB, f history.Filter, metric string) ([]trend.Point, error) {
	evs, err := db.List(f)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		what := "contract " + runs.Safe(f.Contract)
		if f.Condition != "" {
			what += " with condition " + runs.Safe(f.Condition)
		}
		return nil, fmt.Errorf("no recorded evaluation of %s in %s: record one with tenet eval --record (tenet history list shows what is recorded)", what, db.Path())
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
			pts = append(pts, trend.Point{Evaluation: e.ID, Recorded: e.Recorded, Commit: e.Commit, Dirty: e.Dirty, Condition: m.Condition,
				Known: m.Known, Value: m.Value, Low: m.Low, High: m.High, Successes: m.Successes, N: m.N})
		}
	}
	return pts, nil
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
