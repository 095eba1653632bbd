package trend

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tenetlang/tenet/eval/runs"
)

// title is the series' one-line title.
func (s Series) title() string {
	return fmt.Sprintf("trend of %s, contract %s: %s, %s", s.Metric, runs.Safe(s.Contract),
		count(len(s.Evaluations()), "evaluation"), count(len(s.Conditions()), "condition"))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

var head = []string{"evaluation", "recorded", "commit", "condition", "value", "interval (95%)", "n"}

// cells are a point's table cells: the value with its count, the interval,
// "—" for each when the metric had no value.
func (p Point) cells() []string {
	value, interval := "—", "—"
	switch {
	case p.Known:
		value = fmt.Sprintf("%.4f (%d/%d)", p.Value, p.Successes, p.N)
	case p.Unknown && p.HasBounds:
		value = fmt.Sprintf("— (unknown labels; bounds [%.4f, %.4f])", p.LowBound, p.HighBound)
	case p.Unknown:
		value = "— (unknown labels)"
	}
	if p.Known && p.hasInterval() {
		interval = fmt.Sprintf("[%.4f, %.4f]", p.Low, p.High)
	}
	return []string{strconv.FormatInt(p.Evaluation, 10), p.Recorded.UTC().Format(time.RFC3339), commitText(p.Commit, p.Dirty),
		runs.Printable(p.Condition), value, interval, strconv.Itoa(p.N)}
}

func (p Point) hasInterval() bool { return !math.IsNaN(p.Low) && !math.IsNaN(p.High) }

// commitText is a commit shortened to 12 hex digits, "+dirty" when the work
// tree had changes, "—" when unknown.
func commitText(c string, dirty bool) string {
	if c == "" {
		return "—"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	c = runs.Printable(c)
	if dirty {
		c += "+dirty"
	}
	return c
}

func writeTable(w io.Writer, s Series) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, s.title())
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, p := range s.Points {
		fmt.Fprintln(tw, strings.Join(p.cells(), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

func mdCell(s string) string {
	return strings.NewReplacer("\\", "\\\\", "|", "\\|", "`", "\\`", "*", "\\*", "_", "\\_", "<", "&lt;", ">", "&gt;").Replace(s)
}

func writeMarkdown(w io.Writer, s Series) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", mdCell(s.title()))
	fmt.Fprintf(bw, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for _, p := range s.Points {
		cs := p.cells()
		for i := range cs {
			cs[i] = mdCell(cs[i])
		}
		fmt.Fprintf(bw, "| %s |\n", strings.Join(cs, " | "))
	}
	return bw.Flush()
}

// SchemaID names the JSON form of a series.
const SchemaID = "tenet-history-trend/1"

type wireSeries struct {
	Schema   string      `json:"schema"`
	Contract string      `json:"contract"`
	Metric   string      `json:"metric"`
	Points   []wirePoint `json:"points"`
}

// wirePoint: value, low and high are null when the metric had no value.
type wirePoint struct {
	Evaluation int64    `json:"evaluation"`
	Recorded   string   `json:"recorded"`
	Commit     *string  `json:"commit"`
	Dirty      bool     `json:"dirty"`
	Condition  string   `json:"condition"`
	Value      *float64 `json:"value"`
	Low        *float64 `json:"low"`
	High       *float64 `json:"high"`
	Successes  *int     `json:"successes"` // null with value
	N          int      `json:"n"`         // the denominator, value or not
	// Unknown: unknown labels change the rate (value null); Bounds the
	// range they leave, [low, high], when computed.
	Unknown bool       `json:"unknown"`
	Bounds  *[]float64 `json:"bounds"`
}

func writeJSON(w io.Writer, s Series) error {
	out := wireSeries{Schema: SchemaID, Contract: s.Contract, Metric: s.Metric, Points: []wirePoint{}}
	for _, p := range s.Points {
		wp := wirePoint{Evaluation: p.Evaluation, Recorded: p.Recorded.UTC().Format(time.RFC3339Nano), Dirty: p.Dirty,
			Condition: p.Condition, N: p.N, Unknown: p.Unknown}
		if p.Unknown && p.HasBounds {
			b := []float64{p.LowBound, p.HighBound}
			wp.Bounds = &b
		}
		if p.Commit != "" {
			c := p.Commit
			wp.Commit = &c
		}
		if p.Known {
			v, k := p.Value, p.Successes
			wp.Value, wp.Successes = &v, &k
		}
		if p.Known && p.hasInterval() {
			lo, hi := p.Low, p.High
			wp.Low, wp.High = &lo, &hi
		}
		out.Points = append(out.Points, wp)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
