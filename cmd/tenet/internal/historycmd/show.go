package historycmd

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/runs"
)

func showCmd(c *Context) *cobra.Command {
	format := FormatTable
	var withRuns bool
	cmd := &cobra.Command{
		Use:   "show (ID|last|last~N)",
		Short: "Show one recorded evaluation: metadata, inputs, metrics, gates",
		Long:  c.Help("history-show"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := CheckFormat(format); err != nil {
				return err
			}
			db, err := c.Open()
			if err != nil {
				return err
			}
			defer db.Close()
			e, err := Resolve(db, args[0]) // diffcmd.go: an id, last or last~N
			if err != nil {
				return err
			}
			s, err := load(db, e.ID, withRuns)
			if err != nil {
				return err
			}
			if format == FormatJSON {
				return writeJSON(cmd.OutOrStdout(), s.json())
			}
			return s.writeTable(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&format, "format", FormatTable, "table or json")
	cmd.Flags().BoolVar(&withRuns, "runs", false, "list every recorded run with its labels")
	return cmd
}

// shown is what show prints of one evaluation.
type shown struct {
	e       history.Evaluation
	metrics []history.Metric
	errs    map[[2]string][]string
	gates   []history.Gate
	runs    []runs.Record // with --runs only
	listRun bool
}

func load(db *history.DB, id int64, withRuns bool) (*shown, error) {
	s := &shown{listRun: withRuns}
	var err error
	if s.e, err = db.Get(id); err != nil {
		return nil, err
	}
	if s.metrics, err = db.Metrics(id); err != nil {
		return nil, err
	}
	if s.errs, err = db.ConditionErrors(id); err != nil {
		return nil, err
	}
	if s.gates, err = db.Gates(id); err != nil {
		return nil, err
	}
	if withRuns {
		if s.runs, err = db.Runs(id); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// number renders a rate's value with four decimals, "—" for none.
// UnhashedInput is what show prints for an input whose hash and size are
// unknown (JSON: null): a pipe or device was read once, not kept.
const UnhashedInput = "not hashed: a pipe or device, read once and not kept (hash and size unknown)"

// versionText is a contract's version as show prints it: a contract
// without one, and one whose version the recording command did not know
// (tenet report without --contract), each say so.
func versionText(c history.Contract) string {
	switch {
	case c.VersionUnknown:
		return "(version unknown)"
	case c.Version == "":
		return "(no version)"
	}
	return runs.Printable(c.Version)
}

func number(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.4f", v)
}

func (s *shown) writeTable(w io.Writer) error {
	var b bytes.Buffer
	e := s.e
	fmt.Fprintf(&b, "evaluation %d\n", e.ID)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "recorded\t%s\n", e.Recorded.Format(time.RFC3339))
	fmt.Fprintf(tw, "command\ttenet %s (exit %d, compiler %s)\n", e.Command, e.ExitCode, e.Version)
	commit := orDash(e.Commit)
	if e.Dirty {
		commit += " (work tree had changes)"
	}
	fmt.Fprintf(tw, "commit\t%s\n", commit)
	for _, c := range e.Contracts {
		fmt.Fprintf(tw, "contract\t%s %s %s\n", orDash(runs.Printable(c.Name)), versionText(c), orDash(c.BundleID))
	}
	fmt.Fprintf(tw, "runs\t%d\n", e.Runs)
	if e.Note != "" {
		fmt.Fprintf(tw, "note\t%s\n", runs.Printable(e.Note))
	}
	tw.Flush()
	fmt.Fprintf(&b, "\ninputs\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, in := range e.Inputs {
		if !in.Known() { // history.HashInputs: no regular file, so nothing to read again
			fmt.Fprintf(tw, "  %s\t%s\n", runs.Printable(in.Path), UnhashedInput)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d bytes\n", runs.Printable(in.Path), in.SHA256, in.Size)
	}
	if len(e.Inputs) == 0 {
		fmt.Fprintln(tw, "  —")
	}
	tw.Flush()
	fmt.Fprintf(&b, "\nmetrics\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "contract\tcondition\tmetric\tvalue\tfraction\t95% interval")
	for _, m := range s.metrics {
		frac, interval := "—", "—"
		value := number(m.Value)
		if m.Known {
			frac = fraction(m.Num, m.Den)
		} else if m.Unknown > 0 {
			value, frac = boundsCells(m)
		}
		if !math.IsNaN(m.Low) {
			interval = fmt.Sprintf("[%.4f, %.4f]", m.Low, m.High)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", runs.Printable(m.Contract), runs.Printable(m.Condition), m.Name, value, frac, interval)
	}
	tw.Flush()
	for _, k := range sortedKeys(s.errs) {
		fmt.Fprintf(&b, "%s: metrics not computed: %s\n", runs.ConditionName(k[0], k[1]), strings.Join(s.errs[k], "; "))
	}
	fmt.Fprintf(&b, "\ngates\n")
	if len(s.gates) == 0 {
		fmt.Fprintln(&b, "  none")
	}
	for _, g := range s.gates {
		verdict := "passed"
		switch {
		case g.NoRuns:
			verdict = "not evaluated: the condition has no runs"
		case !g.Passed:
			verdict = "FAILED: " + g.Reason
		}
		fmt.Fprintf(&b, "  %s %s (%s): %s — %s\n", runs.Printable(g.Contract), runs.Printable(g.Gate), runs.Printable(g.Condition), g.Requirement, verdict)
	}
	if s.listRun {
		fmt.Fprintf(&b, "\nruns\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  run\tutility\tattack_success\tside_effect")
		for _, r := range s.runs {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Key, label(r.Utility), label(r.AttackSuccess), label(r.SideEffect))
		}
		tw.Flush()
	}
	_, err := w.Write(b.Bytes())
	return err
}

// fraction renders num/den as reports do: whole counts as such, others
// with two decimals (repetitions averaged).
func fraction(num, den float64) string {
	count := func(x float64) string {
		if x == math.Trunc(x) {
			return strconv.FormatFloat(x, 'f', 0, 64)
		}
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return count(num) + "/" + count(den)
}

// boundsCells are the value and fraction cells of a rate the unknown
// labels change, as the report words them: "[0.0292, 0.8917]" and
// "7/240..214/240, 207 unknown" (", or null" when an assignment empties a
// conditional rate's subset; "—" when none gives it a value).
func boundsCells(m history.Metric) (string, string) {
	b := m.Bounds
	if b == nil {
		return "—", fmt.Sprintf("(%d unknown)", m.Unknown)
	}
	frac := fmt.Sprintf("%s..%s, %d unknown", fraction(b.LowNum, b.LowDen), fraction(b.HighNum, b.HighDen), m.Unknown)
	if b.MaybeNull {
		frac += ", or null"
	}
	return fmt.Sprintf("[%.4f, %.4f]", b.Low, b.High), frac
}

// label is a run's label as show prints it: true, false, unknown, or —
// when the run has none.
func label(l runs.Label) string {
	switch {
	case l.Absent():
		return "—"
	case !l.Known:
		return "unknown"
	}
	return fmt.Sprint(l.Value)
}

func sortedKeys(m map[[2]string][]string) [][2]string {
	out := slices.Collect(maps.Keys(m))
	slices.SortFunc(out, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

type showJSON struct {
	Schema     string          `json:"schema"`
	Evaluation evaluationJSON  `json:"evaluation"`
	Metrics    []metricJSON    `json:"metrics"`
	Errors     []conditionErrs `json:"condition_errors"`
	Gates      []gateJSON      `json:"gates"`
	// Runs are the runs as runs-file records (docs/runs-format.md), with
	// --runs only.
	Runs []json.RawMessage `json:"runs,omitempty"`
}

type metricJSON struct {
	Contract  string   `json:"contract"`
	Condition string   `json:"condition"`
	Name      string   `json:"name"`
	Known     bool     `json:"known"`
	Value     *float64 `json:"value"`
	Num       *float64 `json:"num"`
	Den       *float64 `json:"den"`
	Low       *float64 `json:"wilson_low"`
	High      *float64 `json:"wilson_high"`
	// N is the denominator when it is one number, even without a value
	// (history.Metric.N); null otherwise.
	N       *int        `json:"n"`
	Unknown int         `json:"unknown"`
	Bounds  *boundsJSON `json:"bounds"`
}

// boundsJSON is a rate's range over the assignments of its unknown labels,
// as the JSON report's "bounds" has it; null when no unknown changes it.
type boundsJSON struct {
	Low       fractionJSON `json:"low"`
	High      fractionJSON `json:"high"`
	MaybeNull bool         `json:"maybe_null"`
}

type fractionJSON struct {
	Value float64 `json:"value"`
	Num   float64 `json:"num"`
	Den   float64 `json:"den"`
}

type conditionErrs struct {
	Contract  string   `json:"contract"`
	Condition string   `json:"condition"`
	Errors    []string `json:"errors"`
}

type gateJSON struct {
	Contract    string `json:"contract"`
	Gate        string `json:"gate"`
	Condition   string `json:"condition"`
	Requirement string `json:"requirement"`
	Passed      bool   `json:"passed"`
	NoRuns      bool   `json:"no_runs"`
	Reason      string `json:"reason"`
}

func ptr(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

func (s *shown) json() showJSON {
	out := showJSON{Schema: "tenet-history-show/1", Evaluation: jsonEvaluation(s.e), Metrics: []metricJSON{}, Errors: []conditionErrs{}, Gates: []gateJSON{}}
	for _, m := range s.metrics {
		mj := metricJSON{Contract: m.Contract, Condition: m.Condition, Name: m.Name, Known: m.Known,
			Value: ptr(m.Value), Num: ptr(m.Num), Den: ptr(m.Den), Low: ptr(m.Low), High: ptr(m.High), Unknown: m.Unknown}
		if !math.IsNaN(m.Den) {
			mj.N = &m.N
		}
		if b := m.Bounds; b != nil {
			mj.Bounds = &boundsJSON{Low: fractionJSON{b.Low, b.LowNum, b.LowDen}, High: fractionJSON{b.High, b.HighNum, b.HighDen}, MaybeNull: b.MaybeNull}
		}
		out.Metrics = append(out.Metrics, mj)
	}
	for _, k := range sortedKeys(s.errs) {
		out.Errors = append(out.Errors, conditionErrs{Contract: k[0], Condition: k[1], Errors: s.errs[k]})
	}
	for _, g := range s.gates {
		out.Gates = append(out.Gates, gateJSON{Contract: g.Contract, Gate: g.Gate, Condition: g.Condition, Requirement: g.Requirement, Passed: g.Passed, NoRuns: g.NoRuns, Reason: g.Reason})
	}
	if s.listRun {
		out.Runs = []json.RawMessage{}
		for _, r := range s.runs {
			var b bytes.Buffer
			if runs.EncodeLine(&b, r) == nil {
				out.Runs = append(out.Runs, json.RawMessage(bytes.TrimSpace(b.Bytes())))
			}
		}
	}
	return out
}
