package regress

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
)

// Format is a rendering of a diff.
type Format string

// The formats of Write.
const (
	Table    Format = "table"
	JSON     Format = "json"
	Markdown Format = "markdown"
)

// Formats lists the formats in the order help texts name them.
func Formats() []Format { return []Format{Table, JSON, Markdown} }

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("--format %s: want table, json or markdown", runs.Safe(s))
}

// Write renders d in format f. The output depends only on d.
func Write(w io.Writer, d Diff, f Format) error {
	switch f {
	case Table:
		return writeTable(w, d)
	case JSON:
		return writeJSON(w, d)
	case Markdown:
		return writeMarkdown(w, d)
	}
	return fmt.Errorf("regress: unknown format %q", string(f))
}

// Definition is the definition of a regression as the reports print it
// (Classify).
const Definition = "A task is lost when its benign utility went true → false. A case is lost when its utility under attack went true → false, or its attack success or side effect went false → true; it is gained when one of them moved the other way and none regressed."

// Headline is the diff's one-line summary: "regressions: 1 task lost, 2
// cases lost; improvements: 1 task gained, 0 cases gained".
func (d Diff) Headline() string {
	lt, lc := d.Regressions()
	gt, gc := d.Improvements()
	return fmt.Sprintf("regressions: %s lost, %s lost; improvements: %s gained, %s gained",
		count(lt, "task"), count(lc, "case"), count(gt, "task"), count(gc, "case"))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (d Diff) title() string {
	return fmt.Sprintf("history diff: A = %s, B = %s", d.A.Name, d.B.Name)
}

// bundleLine says whether a contract's bundle changed.
func bundleLine(c Contract) string {
	if c.BundleSame {
		return fmt.Sprintf("contract %s: bundle %s in both", shown(c.Name), orNone(c.BundleA))
	}
	return fmt.Sprintf("contract %s: bundle changed, A %s, B %s (the labels may differ because the contract changed)", shown(c.Name), orNone(c.BundleA), orNone(c.BundleB))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func shown(s string) string {
	if s == "" {
		return `""`
	}
	return runs.Safe(s)
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = runs.Printable(id)
	}
	return strings.Join(out, ", ")
}

// pValue renders a p-value with four significant digits, as tenet compare
// does ("<5e-324" for one below the smallest float64).
func pValue(p float64) string {
	if p == 0 {
		return "<5e-324"
	}
	return strconv.FormatFloat(p, 'g', 4, 64)
}

var transitionHead = []string{"property", "over", "N", "kept_success", "lost", "gained", "kept_failure", "rate_A", "rate_B", "net_effect", "p_value"}

func transitionRow(t metrics.Transition) []string {
	return []string{t.Name, t.Over, strconv.Itoa(t.N), strconv.Itoa(t.KeptSuccess), strconv.Itoa(t.Lost), strconv.Itoa(t.Gained),
		strconv.Itoa(t.KeptFailure), t.ReferenceRate.String(), t.DefendedRate.String(), t.NetEffect.String(), pValue(t.PValue)}
}

// idLines are a condition's lost and gained ids, regressions first.
func idLines(c Condition) [][2]string {
	out := [][2]string{{"lost tasks", idList(c.LostTasks)}, {"lost cases", idList(c.LostCases)},
		{"gained tasks", idList(c.GainedTasks)}, {"gained cases", idList(c.GainedCases)}}
	if len(c.Missing) > 0 {
		out = append(out, [2]string{"not in B (counted lost)", idList(c.Missing)})
	}
	if len(c.New) > 0 {
		out = append(out, [2]string{"new in B (not paired)", idList(c.New)})
	}
	return out
}

// onlyLines name the conditions in one side only: A's lost all their
// tasks and cases (Classify), B's are new.
func onlyLines(d Diff) [][2]string {
	var out [][2]string
	if len(d.Vanished) > 0 {
		var vs []string
		for _, v := range d.Vanished {
			vs = append(vs, fmt.Sprintf("%s (%s, %s)", v.Name, count(len(v.Tasks), "task"), count(len(v.Cases), "case")))
		}
		out = append(out, [2]string{"only in A (not evaluated in B: its tasks and cases count as lost)", strings.Join(vs, ", ")})
	}
	if len(d.OnlyB) > 0 {
		out = append(out, [2]string{"only in B (new, not paired)", strings.Join(d.OnlyB, ", ")})
	}
	return out
}

const transitionNote = "lost/gained per property are the raw transitions A → B as tenet compare counts them: for targeted_asr and side_effect_rate a gain is the attack's."

func writeTable(w io.Writer, d Diff) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, d.title())
	if n := d.Note(); n != "" {
		fmt.Fprintln(bw, n)
	}
	for _, c := range d.Contracts {
		fmt.Fprintln(bw, bundleLine(c))
	}
	fmt.Fprintln(bw, d.Headline())
	for _, c := range d.Conditions {
		fmt.Fprintf(bw, "\ncondition %s\n", c.Name) // built of runs.Safe parts
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(transitionHead, "\t"))
		for _, t := range c.Transitions {
			fmt.Fprintln(tw, strings.Join(transitionRow(t), "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, l := range idLines(c) {
			fmt.Fprintf(bw, "  %s: %s\n", l[0], l[1])
		}
	}
	if len(d.Conditions) == 0 {
		fmt.Fprintln(bw, "\nno condition is in both evaluations: nothing is paired")
	}
	for _, o := range onlyLines(d) {
		fmt.Fprintf(bw, "\n%s: %s\n", o[0], o[1])
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, Definition)
	fmt.Fprintln(bw, transitionNote)
	fmt.Fprintln(bw, "p_value: exact two-sided McNemar test on lost vs gained.")
	return bw.Flush()
}

// mdCell escapes a text for a Markdown table cell or line.
func mdCell(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "|", "\\|", "`", "\\`", "*", "\\*", "_", "\\_", "<", "&lt;", ">", "&gt;", "\n", " ")
	return r.Replace(s)
}

func writeMarkdown(w io.Writer, d Diff) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", mdCell(d.title()))
	if n := d.Note(); n != "" {
		fmt.Fprintf(bw, "%s\n\n", mdCell(n))
	}
	for _, c := range d.Contracts {
		fmt.Fprintf(bw, "- %s\n", mdCell(bundleLine(c)))
	}
	fmt.Fprintf(bw, "\n**%s**\n", mdCell(d.Headline()))
	for _, c := range d.Conditions {
		fmt.Fprintf(bw, "\n## %s\n\n", mdCell(c.Name))
		fmt.Fprintf(bw, "| %s |\n|%s\n", strings.Join(transitionHead, " | "), strings.Repeat(" --- |", len(transitionHead)))
		for _, t := range c.Transitions {
			cells := transitionRow(t)
			for i := range cells {
				cells[i] = mdCell(cells[i])
			}
			fmt.Fprintf(bw, "| %s |\n", strings.Join(cells, " | "))
		}
		fmt.Fprintln(bw)
		for _, l := range idLines(c) {
			fmt.Fprintf(bw, "- %s: %s\n", l[0], mdCell(l[1]))
		}
	}
	if len(d.Conditions) == 0 {
		fmt.Fprintln(bw, "\nNo condition is in both evaluations: nothing is paired.")
	}
	for _, o := range onlyLines(d) {
		fmt.Fprintf(bw, "\n%s: %s\n", mdCell(strings.ToUpper(o[0][:1])+o[0][1:]), mdCell(o[1]))
	}
	fmt.Fprintf(bw, "\n%s %s\n", mdCell(Definition), mdCell(transitionNote))
	return bw.Flush()
}

// SchemaID names the JSON form of a diff.
const SchemaID = "tenet-history-diff/1"

type wireDiff struct {
	Schema string   `json:"schema"`
	A      wireSide `json:"a"`
	B      wireSide `json:"b"`
	// Note is Diff.Note (null when A was recorded before B).
	Note         *string         `json:"note"`
	Contracts    []wireContract  `json:"contracts"`
	Regressions  wireCounts      `json:"regressions"`
	Improvements wireCounts      `json:"improvements"`
	Conditions   []wireCondition `json:"conditions"`
	OnlyA        []string        `json:"only_a"`
	OnlyB        []string        `json:"only_b"`
	Vanished     []wireVanished  `json:"vanished"`
}

type wireVanished struct {
	Contract  string   `json:"contract"`
	Condition string   `json:"condition"`
	Tasks     []string `json:"tasks"`
	Cases     []string `json:"cases"`
}

type wireSide struct {
	Name string `json:"name"`
	ID   *int64 `json:"id"` // null: not recorded
}

type wireContract struct {
	Name       string `json:"name"`
	BundleA    string `json:"bundle_a"`
	BundleB    string `json:"bundle_b"`
	BundleSame bool   `json:"bundle_same"`
}

type wireCounts struct {
	Tasks int `json:"tasks"`
	Cases int `json:"cases"`
}

type wireCondition struct {
	Contract    string           `json:"contract"`
	Condition   string           `json:"condition"`
	LostTasks   []string         `json:"lost_tasks"`
	LostCases   []string         `json:"lost_cases"`
	GainedTasks []string         `json:"gained_tasks"`
	GainedCases []string         `json:"gained_cases"`
	Missing     []string         `json:"missing"`
	New         []string         `json:"new"`
	Transitions []wireTransition `json:"transitions"`
}

type wireTransition struct {
	Name        string       `json:"name"`
	Over        string       `json:"over"`
	N           int          `json:"n"`
	KeptSuccess int          `json:"kept_success"`
	Lost        int          `json:"lost"`
	Gained      int          `json:"gained"`
	KeptFailure int          `json:"kept_failure"`
	RateA       wireFraction `json:"rate_a"`
	RateB       wireFraction `json:"rate_b"`
	NetEffect   wireFraction `json:"net_effect"`
	PValue      float64      `json:"p_value"`
	LostIDs     []string     `json:"lost_ids"`
	GainedIDs   []string     `json:"gained_ids"`
}

type wireFraction struct {
	Num   float64  `json:"num"`
	Den   float64  `json:"den"`
	Value *float64 `json:"value"` // null when den is 0
}

func fraction(r metrics.Rate) wireFraction {
	f := wireFraction{Num: r.Num, Den: r.Den}
	if v := r.Value(); !math.IsNaN(v) {
		f.Value = &v
	}
	return f
}

func list(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeJSON(w io.Writer, d Diff) error {
	out := wireDiff{Schema: SchemaID, A: side(d.A), B: side(d.B), Contracts: []wireContract{}, Conditions: []wireCondition{},
		OnlyA: list(d.OnlyA), OnlyB: list(d.OnlyB), Vanished: []wireVanished{}}
	if n := d.Note(); n != "" {
		out.Note = &n
	}
	for _, v := range d.Vanished {
		out.Vanished = append(out.Vanished, wireVanished{v.Contract, v.Name, list(v.Tasks), list(v.Cases)})
	}
	out.Regressions.Tasks, out.Regressions.Cases = d.Regressions()
	out.Improvements.Tasks, out.Improvements.Cases = d.Improvements()
	for _, c := range d.Contracts {
		out.Contracts = append(out.Contracts, wireContract(c))
	}
	for _, c := range d.Conditions {
		wc := wireCondition{Contract: c.Contract, Condition: c.Condition, LostTasks: list(c.LostTasks), LostCases: list(c.LostCases),
			GainedTasks: list(c.GainedTasks), GainedCases: list(c.GainedCases), Missing: list(c.Missing), New: list(c.New), Transitions: []wireTransition{}}
		for _, t := range c.Transitions {
			wc.Transitions = append(wc.Transitions, wireTransition{Name: t.Name, Over: t.Over, N: t.N, KeptSuccess: t.KeptSuccess,
				Lost: t.Lost, Gained: t.Gained, KeptFailure: t.KeptFailure, RateA: fraction(t.ReferenceRate), RateB: fraction(t.DefendedRate),
				NetEffect: fraction(t.NetEffect), PValue: t.PValue, LostIDs: list(t.LostIDs), GainedIDs: list(t.GainedIDs)})
		}
		out.Conditions = append(out.Conditions, wc)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func side(s SideInfo) wireSide {
	ws := wireSide{Name: s.Name}
	if s.ID != 0 {
		id := s.ID
		ws.ID = &id
	}
	return ws
}
