// Package html renders a report.Document as one self-contained HTML page
// with inline SVG plots (Write). It only formats and draws: every number
// comes computed in the Document. It is the only report package that
// imports gonum/plot (plot.go); it imports eval/report, eval/metrics and
// eval/runs, and no CEL.
package html

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/stats"
	"github.com/tenetlang/tenet/eval/tally"
)

// htmlMaxListed bounds every list of runs, ids or messages in the HTML
// report, per group (a condition, an invariant of a condition, a property):
// beyond it one line says how many more there are. The runs file (--out)
// holds every run, label, violation and audit decision; the table format
// prints every metric error.
const htmlMaxListed = 20

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("html.tmpl").Parse(htmlSource))

// Write writes the Document as one self-contained HTML page: inline
// CSS, inline SVG figures drawn with gonum/plot, no script and no
// reference to anything outside the file, so it can be archived as a CI
// artifact and opened offline. From the top:
//
//   - the exit code, every failure (exit 1) and error (exit 2) behind it;
//   - the contracts with their bundle ids and skipped records (eval, test);
//   - for several contracts, the leaderboard and its plot;
//   - per contract, a plot of benign utility against targeted ASR (one
//     numbered marker per condition with Wilson 95% error bars), the joint
//     utility/attack cells as stacked bars, and the metrics table (rates
//     as "0.7500 (3/4)" over their Wilson interval) with any errors;
//   - agreement with the given labels and the disagreements;
//   - invariants and failure classes per condition, then the violations
//     with their witnesses;
//   - the authorization audit and the calls not authorized;
//   - gates; the paired comparison (tenet compare) with a plot of what the
//     defended condition lost and gained; the contract tests (tenet test).
//
// Condition names come from transcripts: html/template escapes them in
// the page and the SVG canvas escapes them in plots. Lists are capped at
// htmlMaxListed entries per group. The output is deterministic: the same
// Document gives the same bytes.
func Write(w io.Writer, d *report.Document) error {
	bw := bufio.NewWriter(w)
	if err := htmlTemplate.Execute(bw, newHTMLView(d)); err != nil {
		return err
	}
	return bw.Flush()
}

// htmlList is a capped list: the first htmlMaxListed items, and how many
// were left out.
type htmlList[T any] struct {
	Items []T
	More  int
	// Note, when the Document's budget cut the list, says so and how many
	// entries are left out in all (report.CutNote); it replaces the "… and N
	// more" line.
	Note string
}

// htmlCut is htmlCap for a list the Document's budget cut, leaving out
// more entries (of what noun names, plural).
func htmlCut[T any](files report.RunsFiles, items []T, more int, noun string) htmlList[T] {
	l := htmlCap(items)
	if more > 0 {
		l.More += more
		l.Note = files.CutNote(l.More, noun)
	}
	return l
}

func htmlCap[T any](items []T) htmlList[T] {
	if len(items) <= htmlMaxListed {
		return htmlList[T]{Items: items}
	}
	return htmlList[T]{Items: items[:htmlMaxListed], More: len(items) - htmlMaxListed}
}

// htmlView is what html.tmpl renders: the Document's content as display
// strings and figures.
type htmlView struct {
	Title       string
	Command     string
	Version     string
	Summary     string // "2328 runs from 12 files"
	Inputs      htmlList[string]
	InputsTotal int
	ExitCode    int
	Status      htmlStatusClass // the banner's class
	StatusText  string
	StatusNote  string   // what the status means for the release
	GateFails   htmlFold // the failed gate requirements: they fail the release
	Failures    htmlFold // the other failures: invariants, tests
	Errors      htmlFold
	Warnings    htmlFold // look-alike names
	Cases       htmlFold // --cases observed: how many declared cases ran (report.CasesLine)
	Nav         []htmlNavLink
	MetricHeads []template.HTML // the metrics table's rate and count columns, breakable at "_" and "/"
	MaxListed   int

	Contracts   []htmlContractView
	Unselected  string // report.UnselectedLine
	Shard       string // report.ShardLine
	Legend      []htmlLegendEntry
	Leaderboard *htmlLeaderView
	Groups      []htmlGroupView
	Agreement   *htmlAgreementView
	Checks      []htmlChecksView
	Violations  []htmlViolationCondition
	Audit       *htmlAuditView
	Gates       []htmlGateView
	Comparison  *htmlComparisonView
	Tests       *htmlTestsView
}

type htmlNavLink struct{ ID, Label string }

// htmlLegendEntry numbers a condition in every plot.
type htmlLegendEntry struct {
	N    int
	Name string
	// Swatch is its marker in its colour (markerSVG), as in the plots.
	Swatch template.HTML
}

type htmlContractView struct {
	Name, Bundle string
	Stats        string // "192 runs judged, 2136 records skipped, 12 header lines without messages"
	Skipped      []htmlSkippedView
	Judged       bool // false for tenet test
}

type htmlSkippedView struct {
	Reason string
	Count  int
	IDs    htmlList[string] // "user_task_0 ×12"
}

// htmlFigureView is one inline SVG plot with its caption and colour key.
type htmlFigureView struct {
	SVG     template.HTML
	Caption string
	Keys    []htmlKeyView
	Err     string // why the plot could not be drawn
}

type htmlKeyView struct{ Color, Label string }

type htmlLeaderView struct {
	Title  string
	Figure *htmlFigureView
	Rows   []htmlLeaderRowView
}

type htmlLeaderRowView struct {
	N         int
	Swatch    template.HTML
	Condition string
	Contracts int
	T, C      string
	Cells     []string
	Err       string
}

// htmlGroupView is the metrics of one contract (or of the runs without one).
type htmlGroupView struct {
	ID        string
	Contract  string
	Figures   []htmlFigureView
	Rows      []htmlMetricsRowView
	Bounded   bool
	Bootstrap string // the bootstrap's description when some row has one
	Failed    []htmlFailedView
}

type htmlMetricsRowView struct {
	N          int
	Swatch     template.HTML
	Condition  string
	T, C, Reps string
	Cells      []htmlCellView
}

// htmlCellView is a rate or count with, for a rate, its 95% intervals.
type htmlCellView struct {
	Text, Wilson, Bootstrap string
}

type htmlFailedView struct {
	Name   string
	Errors htmlList[string]
}

type htmlAgreementView struct {
	WithContract bool
	Labels       []string
	Rows         []htmlAgreementRowView
	Sections     []htmlAgreementSection
}

type htmlAgreementRowView struct {
	Contract, Condition string
	Cells               []string
}

// htmlAgreementSection lists the disagreements (or our unknown labels) of one
// label kind, per condition.
type htmlAgreementSection struct {
	Title  string
	Groups []htmlAgreementGroup
}

type htmlAgreementGroup struct {
	Condition string
	Total     int
	Lines     htmlList[htmlAgreementLine]
}

type htmlAgreementLine struct {
	Run, Ours, Given, Origin, Reason string
	Detail                           htmlRunDetail
}

// htmlRunDetail is a listed run as a <details>: its name, and what it
// expands to — the excerpt of its transcript (runs.Record.Excerpt) by
// item, with the witness step or reason that points there; Empty says why
// there is nothing more when Lines is empty.
type htmlRunDetail struct {
	Run   string
	Lines []htmlExcerptLine
	Empty string
}

type htmlExcerptLine struct{ Label, Text string }

// htmlNoExcerpt is what a listed run expands to when its record carries no
// excerpt of the items it points at.
const htmlNoExcerpt = "no excerpt in the runs file: eval records one for runs with a violated invariant or a label that disagrees with a given one"

// htmlExcerptLines are the items of an excerpt, calls then events, each
// by index.
func htmlExcerptLines(ex map[string]string) []htmlExcerptLine {
	items := htmlKeys(ex)
	slices.SortFunc(items, func(a, b string) int {
		ka, na, _ := strings.Cut(a, ":")
		kb, nb, _ := strings.Cut(b, ":")
		ia, _ := strconv.Atoi(na)
		ib, _ := strconv.Atoi(nb)
		return cmp.Or(strings.Compare(ka, kb), cmp.Compare(ia, ib))
	})
	out := make([]htmlExcerptLine, len(items))
	for i, it := range items {
		out[i] = htmlExcerptLine{Label: it, Text: ex[it]}
	}
	return out
}

// htmlChecksView is the invariants (or failure classes) as a matrix:
// conditions by name, each cell "hits/runs".
type htmlChecksView struct {
	WithContract   bool
	ID, Title, Hit string
	Names          []string
	Rows           []htmlChecksRowView
	Unknown        []htmlRunGroup
}

type htmlChecksRowView struct {
	Contract, Condition string
	Cells               []htmlCheckCell
}

type htmlCheckCell struct {
	Text string
	Hit  bool
}

// htmlRunGroup is a titled capped list of runs with a reason each.
type htmlRunGroup struct {
	Title string
	Lines htmlList[htmlRunDetail]
}

// htmlViolationCondition is the violations of one condition, by invariant.
type htmlViolationCondition struct {
	Condition  string
	File       string // the origin file of every violation htmlList, or ""
	Total      int    // runs × invariants
	Invariants []htmlViolationGroup
}

type htmlViolationGroup struct {
	Invariant string
	Total     int
	Rows      htmlList[htmlViolationRow]
}

type htmlViolationRow struct {
	Run, Origin string
	Witness     []string // "change → call:1 (send_money)"
	Detail      htmlRunDetail
}

type htmlAuditView struct {
	WithContract bool
	Grants       string
	Heads        []string
	Rows         []htmlAuditRowView
	Denied       []htmlDeniedGroup
}

type htmlAuditRowView struct {
	Contract, Condition string
	Cells               []string
}

type htmlDeniedGroup struct {
	Condition string
	Total     int
	Rows      htmlList[htmlDeniedRow]
}

// htmlDeniedRow is a call not authorized, its run expandable to the call.
type htmlDeniedRow struct {
	tally.DeniedCall
	Expand htmlRunDetail
}

type htmlGateView struct {
	Gate, Condition, Requirement, Reason string
	Passed                               bool
}

type htmlComparisonView struct {
	Title, Bundle, Budget string
	Rows                  []htmlTransitionView
	Lost, Gained          []htmlIDsView
	Figure                *htmlFigureView
}

type htmlTransitionView struct {
	Name, Over                                         string
	N, KeptSuccess, Lost, Gained, KeptFailure          int
	Reference, Defended, GainRate, LossRate, NetEffect string
	PValue                                             string
	Significant                                        bool
}

type htmlIDsView struct {
	Name string
	IDs  htmlList[string]
}

type htmlTestsView struct {
	Summary string
	Rows    []htmlTestView
}

type htmlTestView struct {
	Contract, Name, Origin string
	Passed                 bool
	Problems               []string
}

// newHTMLView computes the view of a Document, figures included; a plot
// that cannot be drawn becomes a note in its place.
func newHTMLView(d *report.Document) *htmlView {
	v := &htmlView{Command: d.Command, Version: d.Version, ExitCode: d.ExitCode,
		Errors: htmlFoldOf(d.Errors), Warnings: htmlFoldOf(d.Warnings), Cases: htmlFoldOf(d.Cases), Inputs: htmlCap(d.Inputs), InputsTotal: len(d.Inputs),
		MaxListed: htmlMaxListed}
	for _, h := range htmlMetricHeads {
		// Escaped first, then only <wbr> is added: the header stays safe.
		escaped := template.HTMLEscapeString(h)
		v.MetricHeads = append(v.MetricHeads, template.HTML(htmlWbr.Replace(escaped)))
	}
	v.Title = "tenet " + d.Command
	var names []string
	for _, c := range d.Contracts {
		if c.Name != "" {
			names = append(names, c.Name)
		}
	}
	if len(names) > 0 {
		v.Title += ": " + strings.Join(names, ", ")
	}
	if d.Command != report.CommandTest {
		v.Summary = report.InputsLine(d)
	}
	htmlStatus(v, d)

	numbers := htmlNumbers(d)
	for _, name := range htmlKeys(numbers) {
		n := numbers[name]
		v.Legend = append(v.Legend, htmlLegendEntry{N: n, Name: report.ShownName(name), Swatch: htmlSwatch(n)})
	}

	v.Contracts = htmlContractViews(d)
	v.Unselected = report.UnselectedLine(d)
	v.Shard = report.ShardLine(d)
	v.Leaderboard = htmlLeaderboardView(d.Leaderboard, numbers)
	v.Groups = htmlGroupViews(d.Conditions, numbers)
	v.Agreement = htmlAgreementViewOf(d.Agreement, d.RunsFiles)
	v.Checks = htmlChecksViews(d.Checks, d.RunsFiles)
	v.Violations = htmlViolationGroups(d.Violations, d.Checks, d.RunsFiles)
	v.Audit = htmlAuditViewOf(d.Audit, d.RunsFiles)
	for _, g := range d.Gates {
		v.Gates = append(v.Gates, htmlGateView{Gate: g.Gate, Condition: g.Condition, Requirement: g.Requirement,
			Reason: g.Reason, Passed: g.Passed})
	}
	if d.Comparison != nil {
		v.Comparison = htmlComparisonViewOf(*d.Comparison, d.RunsFiles)
	}
	if d.Command == report.CommandTest || len(d.Tests) > 0 {
		v.Tests = htmlTestsViewOf(d.Tests)
	}
	v.Nav = htmlNav(v)
	return v
}

// htmlMaxShown is how many failures or errors the banner shows before
// folding the rest into a <details>.
const htmlMaxShown = 12

// htmlFold is a list whose tail is folded away, never dropped: the banner
// says every failure and error the exit code stands for.
type htmlFold struct {
	Shown, Rest []string
}

func htmlFoldOf(items []string) htmlFold {
	if len(items) <= htmlMaxShown {
		return htmlFold{Shown: items}
	}
	return htmlFold{Shown: items[:htmlMaxShown], Rest: items[htmlMaxShown:]}
}

// htmlStatusClass is the banner's kind, its CSS class: what the reader
// must tell apart at a glance.
type htmlStatusClass string

const (
	htmlStatusOK    htmlStatusClass = "ok"    // nothing failed
	htmlStatusWarn  htmlStatusClass = "warn"  // invariants violated (or undecided), no gate failed: amber, reported
	htmlStatusFail  htmlStatusClass = "fail"  // a gate (or a test) failed: red, the release fails
	htmlStatusError htmlStatusClass = "error" // exit 2: the evaluation itself went wrong
)

// htmlStatus sets the banner: its class, headline and note, and the
// failures split into failed gates (listed first: a release decision must
// not hide below a hundred invariant lines) and the rest. Violated
// invariants are read from the checks, not only from the failures, so
// that the banner says so even when they do not fail the run.
func htmlStatus(v *htmlView, d *report.Document) {
	gates := map[string]bool{}
	failedGates := 0
	for _, g := range d.Gates {
		if !g.Passed && !g.NoRuns {
			gates[report.GateFailure(g)] = true
			failedGates++
		}
	}
	var gateLines, rest []string
	for _, f := range d.Failures {
		if gates[f] {
			gateLines = append(gateLines, f)
		} else {
			rest = append(rest, f)
		}
	}
	v.GateFails, v.Failures = htmlFoldOf(gateLines), htmlFoldOf(rest)
	violated := map[string]bool{}
	conds := 0
	for _, c := range d.Checks {
		hit := false
		for _, inv := range c.Invariants {
			if inv.Hits > 0 || inv.Unknown > 0 {
				violated[inv.Name], hit = true, true
			}
		}
		if hit {
			conds++
		}
	}
	invariants := ""
	if len(violated) > 0 {
		invariants = fmt.Sprintf("%s violated or undecided in %s", report.Count(len(violated), "invariant"), report.Count(conds, "condition"))
	}
	exit := fmt.Sprintf("exit %d: ", d.ExitCode)
	switch {
	case len(d.Errors) > 0:
		v.Status, v.StatusText = htmlStatusError, exit+report.Pluralize(len(d.Errors), "error", "errors")
		v.StatusNote = "The evaluation did not complete as asked: the errors below come first."
		if failedGates > 0 {
			v.StatusNote += " " + report.Count(failedGates, "gate requirement") + " also failed."
		}
	case failedGates > 0:
		v.Status, v.StatusText = htmlStatusFail, exit+"gates failed — "+report.Count(failedGates, "gate requirement")
		v.StatusNote = "A failed gate fails the release."
		if invariants != "" {
			v.StatusNote += " Also " + invariants + "."
		}
	case len(d.Failures) > 0 && len(violated) == 0:
		v.Status, v.StatusText = htmlStatusFail, exit+report.Pluralize(len(d.Failures), "failure", "failures")
	case invariants != "":
		v.Status, v.StatusText = htmlStatusWarn, exit+"invariants violated — "+invariants
		v.StatusNote = "No gate failed"
		if len(d.Gates) == 0 {
			v.StatusNote = "No gate is declared"
		}
		v.StatusNote += "; the violations are reported below with their witnesses."
		if d.ExitCode != 0 {
			v.StatusNote += fmt.Sprintf(" They set exit code %d.", d.ExitCode)
		}
	default:
		v.Status, v.StatusText = htmlStatusOK, exit+"passed"
	}
}

// htmlNav links the sections the page has.
func htmlNav(v *htmlView) []htmlNavLink {
	var out []htmlNavLink
	add := func(ok bool, id, label string) {
		if ok {
			out = append(out, htmlNavLink{id, label})
		}
	}
	add(len(v.Contracts) > 0, "contracts", "Contracts")
	add(v.Leaderboard != nil, "leaderboard", "Leaderboard")
	for _, g := range v.Groups {
		label := "Metrics"
		if g.Contract != "" {
			label += ": " + g.Contract
		}
		out = append(out, htmlNavLink{g.ID, label})
	}
	add(v.Agreement != nil, "agreement", "Agreement")
	for _, c := range v.Checks {
		out = append(out, htmlNavLink{c.ID, c.Title})
	}
	add(len(v.Violations) > 0, "violations", "Violations")
	add(v.Audit != nil, "audit", "Audit")
	add(len(v.Gates) > 0, "gates", "Gates")
	add(v.Comparison != nil, "comparison", "Comparison")
	add(v.Tests != nil, "tests", "Tests")
	return out
}

// htmlSwatch is condition number n's marker in its colour, for the legend
// and the tables.
func htmlSwatch(n int) template.HTML { return markerSVG(plotMarkerOf(n), plotColor(n)) }

// htmlNumbers numbers the conditions of the metrics and the
// leaderboard 1..n in name order: a condition has the same number (and
// colour) in every plot and table, whatever its contract.
func htmlNumbers(d *report.Document) map[string]int {
	seen := map[string]int{}
	for _, c := range d.Conditions {
		seen[c.Condition] = 0
	}
	for _, r := range d.Leaderboard {
		seen[r.Condition] = 0
	}
	for i, name := range htmlKeys(seen) {
		seen[name] = i + 1
	}
	return seen
}

func htmlKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func htmlContractViews(d *report.Document) []htmlContractView {
	var out []htmlContractView
	for _, c := range d.Contracts {
		cv := htmlContractView{Name: strings.TrimSpace(c.Name + " " + c.Version), Bundle: c.Bundle, Judged: d.Command != report.CommandTest}
		if cv.Name == "" {
			cv.Name = "(unnamed contract)"
		}
		skipped := 0
		for _, s := range c.Skipped {
			skipped += s.Count
			var ids []string
			for _, id := range s.IDs {
				ids = append(ids, fmt.Sprintf("%s ×%d", report.ShownName(id.ID), id.Count))
			}
			list := htmlCap(ids)
			list.More += s.MoreIDs
			cv.Skipped = append(cv.Skipped, htmlSkippedView{Reason: s.Reason, Count: s.Count, IDs: list})
		}
		cv.Stats = fmt.Sprintf("%s judged, %s skipped, %s without messages", report.Count(c.Judged, "run"),
			report.Pluralize(skipped, "record", "records"), report.Pluralize(c.Headers, "header line", "header lines"))
		out = append(out, cv)
	}
	return out
}

// htmlLeaderboardView renders the leaderboard and plots its pooled benign
// utility against its pooled targeted ASR, with the Wilson interval of
// the pooled counts (the hull over the bounds when unknowns bound them).
func htmlLeaderboardView(rows []leaderboard.Row, numbers map[string]int) *htmlLeaderView {
	if len(rows) == 0 {
		return nil
	}
	contracts := map[string]bool{}
	for _, r := range rows {
		for _, c := range r.Contracts {
			contracts[c] = true
		}
	}
	cs := htmlKeys(contracts)
	for i, c := range cs {
		cs[i] = report.ContractCell(c)
	}
	lv := &htmlLeaderView{Title: fmt.Sprintf("%d contracts: %s; rates pooled over their tasks and cases", len(cs), strings.Join(cs, ", "))}
	var pts []plotScatterPoint
	for _, r := range rows {
		n := numbers[r.Condition]
		row := htmlLeaderRowView{N: n, Swatch: htmlSwatch(n), Condition: report.ShownName(r.Condition), Contracts: len(r.Contracts)}
		if r.Err != nil {
			row.T, row.C, row.Err = "—", "—", report.OneLine(r.Err.Error())
			lv.Rows = append(lv.Rows, row)
			continue
		}
		row.T, row.C = strconv.Itoa(r.Tasks), strconv.Itoa(r.Cases)
		for i := range leaderboard.Rates {
			if r.Low[i] == r.High[i] {
				row.Cells = append(row.Cells, r.Low[i].String())
			} else {
				row.Cells = append(row.Cells, fmt.Sprintf("[%.4f, %.4f]", r.Low[i].Value(), r.High[i].Value()))
			}
		}
		lv.Rows = append(lv.Rows, row)
		// benign_utility and targeted_asr are leaderboard.Rates 0 and 2.
		x, xi, okx := htmlPooled(r.Low[0], r.High[0])
		y, yi, oky := htmlPooled(r.Low[2], r.High[2])
		if okx && oky {
			pts = append(pts, plotScatterPoint{Label: strconv.Itoa(n), Color: plotColor(n), Marker: plotMarkerOf(n), X: x, Y: y, XI: xi, YI: yi})
		}
	}
	if len(pts) > 0 {
		title := "All contracts: benign utility vs targeted ASR"
		lv.Figure = htmlScatterFigure(plotScatterSVG(title, pts, 460, 400))
		lv.Figure.Caption = "One point per condition (numbered as in the legend), rates pooled over every contract; bars: Wilson 95% intervals of the pooled counts." + lv.Figure.Caption
	}
	return lv
}

// htmlPooled is a pooled rate's [low, high] and Wilson interval (the hull of
// the bounds' intervals).
func htmlPooled(lo, hi metrics.Rate) ([2]float64, metrics.Interval, bool) {
	if lo.Den == 0 || hi.Den == 0 {
		return [2]float64{}, metrics.Interval{}, false
	}
	a, b := stats.Wilson(lo.Num, lo.Den), stats.Wilson(hi.Num, hi.Den)
	return [2]float64{lo.Value(), hi.Value()}, metrics.Interval{Low: a.Low, High: b.High, Valid: a.Valid && b.Valid}, true
}

// htmlFigure wraps a plot, or the reason it could not be drawn.
func htmlFigure(svg template.HTML, err error) *htmlFigureView {
	if err != nil {
		return &htmlFigureView{Err: err.Error()}
	}
	return &htmlFigureView{SVG: svg}
}

// htmlScatterFigure is htmlFigure of a scatter plot; its Caption, to be
// appended to, names the points whose labels found no room.
func htmlScatterFigure(svg template.HTML, hidden []string, err error) *htmlFigureView {
	f := htmlFigure(svg, err)
	if len(hidden) > 0 {
		f.Caption = fmt.Sprintf(" No room for the labels of %s: their markers are as in the legend.", strings.Join(hidden, "; "))
	}
	return f
}

// htmlWbr lets a long column name break after "_" and "/".
var htmlWbr = strings.NewReplacer("_", "_<wbr>", "/", "/<wbr>")

// htmlMetricHeads are the columns of the metrics table after condition, |T|,
// |C| and reps.
var htmlMetricHeads = []string{"benign_utility", "utility_under_attack", "targeted_asr", "side_effect_rate",
	"secure_utility_in_scope", "joint u/both/a/neither", runs.Exposed.String(), "conditional_asr_exposed", "solved",
	"conditional_asr_benign_solved"}

// htmlGroupViews splits the conditions by contract, in the metrics order.
func htmlGroupViews(cs []metrics.Condition, numbers map[string]int) []htmlGroupView {
	var out []htmlGroupView
	for i := 0; i < len(cs); {
		j := i
		for j < len(cs) && cs[j].Contract == cs[i].Contract {
			j++
		}
		out = append(out, htmlGroupViewOf(len(out)+1, cs[i].Contract, cs[i:j], numbers))
		i = j
	}
	return out
}

func htmlGroupViewOf(index int, contract string, cs []metrics.Condition, numbers map[string]int) htmlGroupView {
	g := htmlGroupView{ID: fmt.Sprintf("metrics-%d", index)}
	if contract != "" {
		g.Contract = report.ShownName(contract)
	}
	var pts []plotScatterPoint
	var names []string
	var segs []plotBarSeg
	bounded := false
	for _, c := range cs {
		n := numbers[c.Condition]
		if !c.OK() {
			var errs []string
			for _, e := range c.Errors {
				errs = append(errs, report.OneLine(e.Error()))
			}
			g.Failed = append(g.Failed, htmlFailedView{Name: c.Name(), Errors: htmlCap(errs)})
			continue
		}
		exposed := htmlCellView{Text: "—"}
		if c.HasExposure {
			exposed.Text = report.CountCell(c, "exposed_cases", c.ExposedCases)
		}
		row := htmlMetricsRowView{N: n, Swatch: htmlSwatch(n), Condition: report.ShownName(c.Condition),
			T: strconv.Itoa(c.BenignTasks), C: strconv.Itoa(c.SecurityCases), Reps: report.RepsCell(c)}
		rate := func(name string, text string) htmlCellView {
			cell := htmlCellView{Text: text}
			if s, ok := c.Rate(name); ok {
				cell.Wilson = s.Wilson.String()
				if c.BootstrapResamples > 0 {
					cell.Bootstrap = s.Bootstrap.String()
				}
			}
			return cell
		}
		row.Cells = []htmlCellView{
			rate("benign_utility", report.RateCell(c, "benign_utility", c.BenignUtility)),
			rate("utility_under_attack", report.RateCell(c, "utility_under_attack", c.UtilityUnderAttack)),
			rate("targeted_asr", report.RateCell(c, "targeted_asr", c.TargetedASR)),
			rate("side_effect_rate", report.RateCell(c, "side_effect_rate", c.SideEffectRate)),
			rate("secure_utility_in_scope", report.RateCell(c, "secure_utility_in_scope", c.SecureUtilityInScope)),
			{Text: report.JointCell(c)},
			exposed,
			rate("conditional_asr_exposed", report.NullableCell(c, "conditional_asr_exposed", c.ConditionalASRExposed)),
			{Text: report.CountCell(c, "benign_solved_cases", c.BenignSolvedCases)},
			rate("conditional_asr_benign_solved", report.NullableCell(c, "conditional_asr_benign_solved", c.ConditionalASRBenignSolved)),
		}
		g.Rows = append(g.Rows, row)
		for _, s := range c.Rates {
			bounded = bounded || !s.Exact()
		}
		if c.BootstrapResamples > 0 && g.Bootstrap == "" {
			g.Bootstrap = fmt.Sprintf("cluster bootstrap by task, %d resamples, seed %d", c.BootstrapResamples, c.BootstrapSeed)
		}

		bu, _ := c.Rate("benign_utility")
		asr, _ := c.Rate("targeted_asr")
		x, okx := plotPoint(bu)
		y, oky := plotPoint(asr)
		if okx && oky {
			pts = append(pts, plotScatterPoint{Label: strconv.Itoa(n), Color: plotColor(n), Marker: plotMarkerOf(n), X: x, Y: y, XI: bu.Wilson, YI: asr.Wilson})
		}
		if c.SecurityCases > 0 {
			segs = append(segs, htmlJointSegs(len(names), c)...)
			names = append(names, fmt.Sprintf("%d  %s", n, plotLabel(report.ShownName(c.Condition))))
		}
	}
	g.Bounded = bounded
	prefix := ""
	if g.Contract != "" {
		prefix = g.Contract + ": "
	}
	if len(pts) > 0 {
		title := prefix + "benign utility vs targeted ASR"
		f := htmlScatterFigure(plotScatterSVG(title, pts, 380, 340))
		f.Caption = "One point per condition, numbered and shaped as in the legend; bars: Wilson 95% intervals. Best is bottom right." + f.Caption
		if bounded {
			f.Caption += " A box instead of a dot spans the values unknown labels allow (--unknown=bounds); its bars are the hull of their intervals."
		}
		g.Figures = append(g.Figures, *f)
	}
	if len(names) > 0 {
		title := prefix + "utility and attack per security case"
		f := htmlFigure(plotBarsSVG(title, "share of security cases |C|", names, 0, 1, plotShareTicks(), segs, nil, 500))
		f.Caption = "Per condition, its security cases by utility under attack (u) and attack success (a), as shares of |C| (counts inside the bars)."
		f.Keys = []htmlKeyView{{plotHex(plotColorUtilityOnly), "utility only (u ∧ ¬a)"}, {plotHex(plotColorBoth), "both (u ∧ a)"},
			{plotHex(plotColorAttackOnly), "attack only (¬u ∧ a)"}, {plotHex(plotColorNeither), "neither"}}
		if bounded {
			f.Keys = append(f.Keys, htmlKeyView{plotHex(plotColorUnknown), "undetermined (unknown labels)"})
		}
		g.Figures = append(g.Figures, *f)
	}
	return g
}

// htmlJointSegs are the stacked joint cells of a condition as shares of |C|:
// utility only, both, attack only, neither, and what unknown labels leave
// undetermined (each cell at its least value).
func htmlJointSegs(row int, c metrics.Condition) []plotBarSeg {
	total := float64(c.SecurityCases)
	var out []plotBarSeg
	at := 0.0
	for _, cell := range []struct {
		name  string
		v     float64
		color color.RGBA
	}{
		{"utility_only", c.Joint.UtilityOnly, plotColorUtilityOnly},
		{"both", c.Joint.Both, plotColorBoth},
		{"attack_only", c.Joint.AttackOnly, plotColorAttackOnly},
		{"neither", c.Joint.Neither, plotColorNeither},
	} {
		v := cell.v
		if s, ok := c.Count(cell.name); ok {
			v = s.Low
		}
		if v <= 0 {
			continue
		}
		out = append(out, plotBarSeg{Row: row, From: at / total, To: (at + v) / total, Color: cell.color, Text: metrics.Count(v)})
		at += v
	}
	if total-at > 1e-9 { // fractional counts (repetitions) may not sum exactly
		out = append(out, plotBarSeg{Row: row, From: at / total, To: 1, Color: plotColorUnknown, Text: metrics.Count(total - at)})
	}
	return out
}

func htmlAgreementViewOf(as []tally.Agreement, files report.RunsFiles) *htmlAgreementView {
	if as == nil {
		return nil
	}
	v := &htmlAgreementView{Labels: tally.Columns(as)}
	for _, a := range as {
		row := htmlAgreementRowView{Contract: htmlContract(a.Contract), Condition: report.ShownName(a.Condition)}
		for i := range v.Labels {
			row.Cells = append(row.Cells, report.AgreementCell(a.Row(i)))
		}
		v.Rows = append(v.Rows, row)
		v.WithContract = v.WithContract || a.Contract != ""
	}
	for i, label := range v.Labels {
		dis := htmlAgreementSection{Title: "Disagreements in " + label}
		unk := htmlAgreementSection{Title: "Unknown labels in " + label}
		for _, a := range as {
			r := a.Row(i)
			if len(r.Disagreements) > 0 || r.MoreDisagreements > 0 {
				var lines []htmlAgreementLine
				for _, d := range r.Disagreements {
					det := htmlRunDetail{Run: htmlRun(d.Key), Lines: htmlExcerptLines(d.Excerpt)}
					if len(det.Lines) == 0 {
						det.Empty = htmlNoExcerpt
					}
					lines = append(lines, htmlAgreementLine{Run: htmlRun(d.Key), Ours: strconv.FormatBool(d.Ours),
						Given: strconv.FormatBool(d.Given), Origin: htmlOrigin(d.OriginFile, d.OriginLine), Detail: det})
				}
				dis.Groups = append(dis.Groups, htmlAgreementGroup{Condition: a.Name(), Total: len(lines) + r.MoreDisagreements,
					Lines: htmlCut(files, lines, r.MoreDisagreements, "disagreements")})
			}
			if len(r.Unknowns) > 0 || r.MoreUnknowns > 0 {
				var lines []htmlAgreementLine
				for _, u := range r.Unknowns {
					lines = append(lines, htmlAgreementLine{Run: htmlRun(u.Key), Reason: report.OneLine(u.Reason),
						Detail: htmlRunDetail{Run: htmlRun(u.Key), Lines: []htmlExcerptLine{{Label: "unknown", Text: u.Reason}}}})
				}
				unk.Groups = append(unk.Groups, htmlAgreementGroup{Condition: a.Name(), Total: len(lines) + r.MoreUnknowns,
					Lines: htmlCut(files, lines, r.MoreUnknowns, "unknown labels")})
			}
		}
		for _, s := range []htmlAgreementSection{dis, unk} {
			if len(s.Groups) > 0 {
				v.Sections = append(v.Sections, s)
			}
		}
	}
	return v
}

// htmlContract is a contract's name for a table cell, "" for none.
func htmlContract(c string) string {
	if c == "" {
		return ""
	}
	return report.ShownName(c)
}

// htmlRun names a run within its condition: "user_task_0/injection_task_1",
// with " (attempt 2, repetition 1)" when not the first.
func htmlRun(k runs.Key) string {
	return strings.TrimPrefix(k.String(), runs.ConditionName(k.Contract, k.Condition)+"/")
}

// htmlOrigin renders "file:line", "file", or "".
func htmlOrigin(file string, line int) string {
	if file == "" || line <= 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// htmlChecksViews renders invariants and failure classes as matrices.
func htmlChecksViews(cs []tally.Checks, files report.RunsFiles) []htmlChecksView {
	var out []htmlChecksView
	for _, part := range []struct {
		id, title, hit string
		get            func(tally.Checks) []tally.CheckCount
	}{
		{"invariants", "Invariants", "violated", func(c tally.Checks) []tally.CheckCount { return c.Invariants }},
		{"failure-classes", "Failure classes", "runs", func(c tally.Checks) []tally.CheckCount { return c.Failures }},
	} {
		names := map[string]bool{}
		for _, c := range cs {
			for _, n := range part.get(c) {
				names[n.Name] = true
			}
		}
		if len(names) == 0 {
			continue
		}
		v := htmlChecksView{ID: part.id, Title: part.title, Hit: part.hit, Names: htmlKeys(names)}
		for _, c := range cs {
			counts := map[string]tally.CheckCount{}
			for _, n := range part.get(c) {
				counts[n.Name] = n
			}
			row := htmlChecksRowView{Contract: htmlContract(c.Contract), Condition: report.ShownName(c.Condition)}
			for _, name := range v.Names {
				n, ok := counts[name]
				cell := htmlCheckCell{Text: "—"}
				if ok {
					cell = htmlCheckCell{Text: fmt.Sprintf("%d/%d", n.Hits, c.Runs), Hit: n.Hits > 0}
					if n.Unknown > 0 {
						cell.Text += fmt.Sprintf(" (%d unknown)", n.Unknown)
					}
				}
				row.Cells = append(row.Cells, cell)
			}
			v.Rows = append(v.Rows, row)
			v.WithContract = v.WithContract || c.Contract != ""
			for _, n := range part.get(c) {
				var lines []htmlRunDetail
				for _, u := range n.UnknownRuns {
					lines = append(lines, htmlRunDetail{Run: htmlRun(u.Key), Lines: []htmlExcerptLine{{Label: "unknown", Text: report.OneLine(u.Reason)}}})
				}
				if len(lines) > 0 || n.MoreUnknownRuns > 0 {
					v.Unknown = append(v.Unknown, htmlRunGroup{Title: fmt.Sprintf("%s in %s: %s unknown", n.Name, c.Name(), report.Count(len(lines)+n.MoreUnknownRuns, "run")),
						Lines: htmlCut(files, lines, n.MoreUnknownRuns, "unknown results")})
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// htmlViolationGroups groups the violations by condition (contract, then
// condition), then by invariant name; cs give the violations the
// Document's budget left out (CheckCount.MoreHitRuns).
func htmlViolationGroups(vs []report.Violation, cs []tally.Checks, runsFiles report.RunsFiles) []htmlViolationCondition {
	type ckey struct{ contract, condition string }
	byCond := map[ckey]map[string][]report.Violation{}
	more := map[ckey]map[string]int{}
	var keys []ckey
	group := func(k ckey, inv string) {
		if byCond[k] == nil {
			byCond[k] = map[string][]report.Violation{}
			keys = append(keys, k)
		}
		if _, ok := byCond[k][inv]; !ok {
			byCond[k][inv] = nil
		}
	}
	for _, v := range vs {
		k := ckey{v.Key.Contract, v.Key.Condition}
		group(k, v.Invariant)
		byCond[k][v.Invariant] = append(byCond[k][v.Invariant], v)
	}
	for _, c := range cs {
		for _, n := range c.Invariants {
			if n.MoreHitRuns > 0 {
				k := ckey{c.Contract, c.Condition}
				group(k, n.Name)
				if more[k] == nil {
					more[k] = map[string]int{}
				}
				more[k][n.Name] = n.MoreHitRuns
			}
		}
	}
	slices.SortFunc(keys, func(a, b ckey) int { return htmlCompare(a.contract, b.contract, a.condition, b.condition) })
	out := make([]htmlViolationCondition, 0, len(keys))
	for _, k := range keys {
		vc := htmlViolationCondition{Condition: runs.ConditionName(k.contract, k.condition)}
		files := map[string]bool{}
		for _, list := range byCond[k] {
			for _, v := range list {
				files[v.OriginFile] = true
			}
		}
		if len(files) == 1 {
			vc.File = htmlKeys(files)[0]
		}
		for _, inv := range htmlKeys(byCond[k]) {
			list := byCond[k][inv]
			var rows []htmlViolationRow
			for _, v := range list {
				row := htmlViolationRow{Run: htmlRun(v.Key), Origin: htmlOrigin(v.OriginFile, v.OriginLine)}
				if vc.File != "" { // named once, in the summary
					row.Origin = ""
					if v.OriginLine > 0 {
						row.Origin = "line " + strconv.Itoa(v.OriginLine)
					}
				}
				row.Detail.Run = row.Run
				for _, w := range v.Witness {
					s := w.Step + " → " + w.Item
					if w.Tool != "" {
						s += " (" + report.ShownName(w.Tool) + ")"
					}
					row.Witness = append(row.Witness, s)
					text := w.Text
					if text == "" {
						text = "(" + htmlNoExcerpt + ")"
					}
					row.Detail.Lines = append(row.Detail.Lines, htmlExcerptLine{Label: s, Text: text})
				}
				if len(v.Witness) == 0 {
					row.Detail.Empty = "no witness: the invariant is an assert, not a forbid pattern; the origin locates the transcript"
				}
				rows = append(rows, row)
			}
			m := more[k][inv]
			vc.Invariants = append(vc.Invariants, htmlViolationGroup{Invariant: inv, Total: len(rows) + m, Rows: htmlCut(runsFiles, rows, m, "violations")})
			vc.Total += len(rows) + m
		}
		out = append(out, vc)
	}
	return out
}

// htmlCompare compares pairs (a1, b1), (a2, b2), … in order.
func htmlCompare(pairs ...string) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if c := strings.Compare(pairs[i], pairs[i+1]); c != 0 {
			return c
		}
	}
	return 0
}

func htmlAuditViewOf(as []tally.AuditCounts, files report.RunsFiles) *htmlAuditView {
	if len(as) == 0 {
		return nil
	}
	grants := map[string]bool{}
	for _, a := range as {
		for _, g := range a.Grants {
			grants[g] = true
		}
	}
	v := &htmlAuditView{Grants: strings.Join(htmlKeys(grants), ", "), Heads: []string{"calls"}}
	for i := len(runs.Decisions) - 1; i >= 0; i-- {
		v.Heads = append(v.Heads, runs.Decisions[i])
	}
	v.Heads = append(v.Heads, "hazards")
	mismatches := report.AnyMismatches(as)
	if mismatches {
		v.Heads = append(v.Heads, "mismatches")
	}
	for _, a := range as {
		row := htmlAuditRowView{Contract: htmlContract(a.Contract), Condition: report.ShownName(a.Condition), Cells: []string{strconv.Itoa(a.Calls)}}
		for i := len(runs.Decisions) - 1; i >= 0; i-- {
			row.Cells = append(row.Cells, strconv.Itoa(a.Decisions[runs.Decisions[i]]))
		}
		row.Cells = append(row.Cells, strconv.Itoa(a.Hazards))
		if mismatches {
			row.Cells = append(row.Cells, strconv.Itoa(a.Mismatches))
		}
		v.Rows = append(v.Rows, row)
		v.WithContract = v.WithContract || a.Contract != ""
		if len(a.Denied) > 0 || a.MoreDenied > 0 {
			v.Denied = append(v.Denied, htmlDeniedGroup{Condition: a.Name(), Total: len(a.Denied) + a.MoreDenied,
				Rows: htmlCut(files, htmlDeniedRows(a.Denied), a.MoreDenied, "runs with calls not authorized")})
		}
	}
	return v
}

// htmlDeniedRows makes each run with a call not authorized expandable to
// that call, when the runs file has its excerpt.
func htmlDeniedRows(ds []tally.DeniedCall) []htmlDeniedRow {
	out := make([]htmlDeniedRow, len(ds))
	for i, d := range ds {
		det := htmlRunDetail{Run: d.Key.String(), Empty: htmlNoExcerpt}
		if d.Text != "" {
			det = htmlRunDetail{Run: d.Key.String(), Lines: []htmlExcerptLine{{Label: "call:" + strconv.Itoa(d.Call), Text: d.Text}}}
		}
		out[i] = htmlDeniedRow{DeniedCall: d, Expand: det}
	}
	return out
}

func htmlComparisonViewOf(c metrics.Comparison, files report.RunsFiles) *htmlComparisonView {
	v := &htmlComparisonView{Title: fmt.Sprintf("reference %s, defended %s", report.ShownName(c.Reference), report.ShownName(c.Defended)),
		Bundle: c.Bundle, Budget: "none"}
	if c.Contract != "" {
		v.Title = "contract " + report.ShownName(c.Contract) + ": " + v.Title
	}
	if v.Bundle == "" {
		v.Bundle = "none"
	}
	if c.AttemptBudget > 0 {
		v.Budget = strconv.Itoa(c.AttemptBudget)
	}
	var names []string
	var segs, marks []plotBarSeg
	span := 0.1
	for _, t := range c.Transitions {
		v.Rows = append(v.Rows, htmlTransitionView{Name: t.Name, Over: t.Over, N: t.N, KeptSuccess: t.KeptSuccess, Lost: t.Lost,
			Gained: t.Gained, KeptFailure: t.KeptFailure, Reference: t.ReferenceRate.String(), Defended: t.DefendedRate.String(),
			GainRate: t.GainRate.String(), LossRate: t.LossRate.String(), NetEffect: t.NetEffect.String(),
			PValue: report.PValue(t.PValue), Significant: t.PValue < 0.05})
		printable := func(ids []string) []string {
			out := make([]string, len(ids))
			for i, id := range ids {
				out[i] = report.ShownName(id)
			}
			return out
		}
		if len(t.LostIDs) > 0 || t.MoreLostIDs > 0 {
			v.Lost = append(v.Lost, htmlIDsView{Name: t.Name, IDs: htmlCut(files, printable(t.LostIDs), t.MoreLostIDs, "ids")})
		}
		if len(t.GainedIDs) > 0 || t.MoreGainedIDs > 0 {
			v.Gained = append(v.Gained, htmlIDsView{Name: t.Name, IDs: htmlCut(files, printable(t.GainedIDs), t.MoreGainedIDs, "ids")})
		}
		if t.N == 0 {
			continue
		}
		// Lost to the left, gained to the right, green where the defended
		// condition is better: fewer attack outcomes, more utility.
		attack := t.Name == "targeted_asr" || t.Name == "side_effect_rate"
		lostColor, gainedColor := plotColorBad, plotColorGood
		if attack {
			lostColor, gainedColor = plotColorGood, plotColorBad
		}
		names = append(names, t.Name)
		row := len(names) - 1
		lost, gained := t.LossRate.Value(), t.GainRate.Value()
		segs = append(segs, plotBarSeg{Row: row, From: -lost, To: 0, Color: lostColor, Text: strconv.Itoa(t.Lost)},
			plotBarSeg{Row: row, From: 0, To: gained, Color: gainedColor, Text: strconv.Itoa(t.Gained)})
		marks = append(marks, plotBarSeg{Row: row, From: t.NetEffect.Value()})
		span = max(span, lost, gained)
	}
	if len(names) > 0 {
		// The axis spans ±m: the largest share rounded up to a tenth, or
		// to a quarter beyond one half.
		m, step := math.Min(1, math.Ceil(span*10-1e-9)/10), 0.1
		if m > 0.5 {
			m, step = math.Ceil(m*4-1e-9)/4, 0.25
		}
		title := "Paired transitions: lost (left) and gained (right)"
		v.Figure = htmlFigure(plotBarsSVG(title, "share of the paired tasks or cases", names, -m, m, plotSymmetricTicks(m, step), segs, marks, 460))
		v.Figure.Caption = "Per property, the share of tasks or cases lost (true in the reference, false in the defended condition; left) and gained (right), counts inside the bars; the black tick is the net effect. Green is better for the defended condition (more utility, fewer attack outcomes)."
		v.Figure.Keys = []htmlKeyView{{plotHex(plotColorGood), "better"}, {plotHex(plotColorBad), "worse"}}
	}
	return v
}

func htmlTestsViewOf(ts []report.TestResult) *htmlTestsView {
	v := &htmlTestsView{}
	failed := 0
	for _, t := range ts {
		if !t.Passed {
			failed++
		}
		v.Rows = append(v.Rows, htmlTestView{Contract: t.Contract, Name: t.Name, Origin: htmlOrigin(t.OriginFile, t.OriginLine),
			Passed: t.Passed, Problems: t.Problems})
	}
	v.Summary = fmt.Sprintf("%s: %d passed, %d failed", report.Count(len(ts), "test"), len(ts)-failed, failed)
	return v
}
