// Package trend is one metric's series over recorded evaluations (tenet
// history trend): the points, one per evaluation and condition, and their
// renderings as a table, JSON, Markdown, and an HTML page with a plot
// (plot.go; gonum/plot, deterministic SVG). It computes nothing: the
// values are the metrics each evaluation recorded.
package trend

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/lang/diag"
)

// Point is a metric's value in one condition of one recorded evaluation.
type Point struct {
	Evaluation int64
	Recorded   time.Time
	Commit     string // "" when unknown
	Dirty      bool   // the work tree had uncommitted changes
	Condition  string
	// Known is false when the metric had no value in that evaluation (no
	// denominator, or unknown labels that change it): Value is then
	// meaningless and every rendering says "—".
	Known bool
	Value float64
	// Low and High are the 95% interval; NaN when there is none (its
	// renderings say "—", the plot draws no error bar).
	Low, High float64
	// Successes/N is the value; when Known is false Successes means
	// nothing and N is still the denominator the rate is over (0 when it
	// has none).
	Successes, N int
	// Unknown says the metric has no value because unknown labels change
	// it (not because its denominator is empty); HasBounds that the
	// evaluation computed the range they leave, [LowBound, HighBound]
	// (--unknown=bounds).
	Unknown             bool
	HasBounds           bool
	LowBound, HighBound float64
}

// Series is a metric's points for one contract, in recording order
// (evaluation id: tenet history list's order; recorded times can
// disagree with it when several writers record at once).
type Series struct {
	Contract string
	Metric   string
	Points   []Point
}

// Metrics are the names a series may follow: the report's rates
// (metrics.RateNames, then goal_task_utility), as the history records them.
func Metrics() []string { return append(slices.Clone(metrics.RateNames), metrics.GoalTaskUtilityName) }

// CheckMetric refuses a name that is not one of Metrics, suggesting the
// closest one.
func CheckMetric(name string) error {
	all := Metrics()
	if slices.Contains(all, name) {
		return nil
	}
	hint := ""
	if s := diag.Suggest(name, all); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Errorf("--metric %s: no such metric%s; the metrics are %s", runs.Safe(name), hint, strings.Join(all, ", "))
}

// New builds the series of metric over pts, sorted by evaluation id (the
// recording order), then condition. It refuses an unknown metric and a
// series without points (nothing recorded names it, say so rather than
// draw an empty plot).
func New(contract, metric string, pts []Point) (Series, error) {
	if err := CheckMetric(metric); err != nil {
		return Series{}, err
	}
	if len(pts) == 0 {
		return Series{}, fmt.Errorf("no recorded evaluation of contract %s has %s: record evaluations with tenet eval --record", runs.Safe(contract), metric)
	}
	s := Series{Contract: contract, Metric: metric, Points: slices.Clone(pts)}
	for i, p := range s.Points {
		// A value that is not a number is no value: never drawn or
		// encoded as one.
		if p.Known && math.IsNaN(p.Value) {
			s.Points[i].Known = false
		}
	}
	slices.SortStableFunc(s.Points, func(a, b Point) int {
		return cmp.Or(cmp.Compare(a.Evaluation, b.Evaluation), cmp.Compare(a.Condition, b.Condition))
	})
	return s, nil
}

// Evaluations are the series' evaluation ids in recording order, each
// once.
func (s Series) Evaluations() []int64 {
	var out []int64
	for _, p := range s.Points {
		if len(out) == 0 || out[len(out)-1] != p.Evaluation {
			out = append(out, p.Evaluation)
		}
	}
	return out
}

// Valueless are the conditions without a value in any evaluation,
// sorted: the plot draws nothing for them and names them under it.
func (s Series) Valueless() []string {
	var out []string
	for _, c := range s.Conditions() {
		if !slices.ContainsFunc(s.Points, func(p Point) bool { return p.Condition == c && p.Known }) {
			out = append(out, c)
		}
	}
	return out
}

// Conditions are the series' conditions, sorted.
func (s Series) Conditions() []string {
	var out []string
	for _, p := range s.Points {
		out = append(out, p.Condition)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Format is a rendering of a series.
type Format string

// The formats of Write.
const (
	Table    Format = "table"
	JSON     Format = "json"
	Markdown Format = "markdown"
	HTML     Format = "html"
)

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{Table, JSON, Markdown, HTML} {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format %s: want table, json, markdown or html", runs.Safe(s))
}

// Write renders s in format f; the bytes depend only on s.
func Write(w io.Writer, s Series, f Format) error {
	switch f {
	case Table:
		return writeTable(w, s)
	case JSON:
		return writeJSON(w, s)
	case Markdown:
		return writeMarkdown(w, s)
	case HTML:
		return writeHTML(w, s)
	}
	return fmt.Errorf("trend: unknown format %q", string(f))
}
