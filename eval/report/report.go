// Package report is the Document, one report of what a command computed,
// and its plain-text renderer. Build assembles a Document from
// parts computed elsewhere (eval/summary's Results, eval/gates' results,
// the contracts' record counts) and adds the failures, errors and exit
// code they give, the failures sorted by a failpolicy.Policy into those
// that fail the run and those only reported (SetPolicy); it computes no
// metric and evaluates no gate. WriteTable
// (with the Write* table writers in this file) renders it; the JSON,
// Markdown, JUnit and HTML renderers are packages of their own under
// this one, and eval/report/formats is the one table of every format
// (docs/report-formats.md). Output is deterministic: the same Document
// gives the same bytes.
//
// It imports eval/failpolicy, eval/metrics, eval/summary and eval/runs,
// never CEL, plotting or eval itself: TestDependencies checks it.
package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// WriteMetrics writes one table row per (contract, condition) whose metrics
// were computed, in the order given (metrics.Compute sorts them):
//
//	condition  |T|  |C|  reps  benign_utility  utility_under_attack  targeted_asr  side_effect_rate  secure_utility_in_scope  joint u/both/a/neither  exposed  conditional_asr_exposed  solved  conditional_asr_benign_solved
//
// reps is the repetitions per task and case ("3", or "3/2" for benign/
// attacked when they differ). The joint column counts utility only /
// both / attack only / neither: the HTML report's stacked bars' order, in
// which the first two sum to the utility under attack and the middle two to
// the attack successes. Rates print as "0.7500 (3/4)" (a fractional
// part with two decimals: "0.5833 (2.33/4)"), a null rate as "—", and the
// exposed count as "—" when the condition has no exposure labels. With
// unknown-label bounds, a rate the unknowns change prints as
// "[0.2500, 0.5000] (1/4..2/4, 1 unknown)" (", or null" when some
// assignment empties a conditional rate's subset) and a count as "1..2";
// a legend line follows the table. A contract column comes first when some
// condition has a contract. The table is left out when no condition has
// metrics.
//
// Then the 95% intervals of every rate (conditions with stats only), one
// row per condition and kind — "wilson" for every condition, "bootstrap"
// for those with a cluster bootstrap:
//
//	95% intervals (wilson: Wilson score; bootstrap: cluster bootstrap by task, 2000 resamples, seed 1)
//	condition  interval  benign_utility    utility_under_attack  …
//	model-a    wilson    [0.3006, 0.9544]  [0.1500, 0.8500]      …
//
// Then, for each condition with errors, a line "errors in NAME:" and its
// errors, one per line, indented by two spaces.
func WriteMetrics(w io.Writer, cs []metrics.Condition) error {
	bw := bufio.NewWriter(w)
	withContract := false
	// Pointers into cs, not copies: a Condition is about a kilobyte, and
	// a corpus of many conditions would hold every one twice.
	var ok, failed []*metrics.Condition
	for i := range cs {
		c := &cs[i]
		if c.Contract != "" {
			withContract = true
		}
		if c.OK() {
			ok = append(ok, c)
		} else {
			failed = append(failed, c)
		}
	}
	if len(ok) > 0 {
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		header := []string{"condition", "|T|", "|C|", "reps", "benign_utility", "utility_under_attack", "targeted_asr",
			"side_effect_rate", "secure_utility_in_scope", "joint u/both/a/neither", runs.Exposed.String(), "conditional_asr_exposed",
			"solved", "conditional_asr_benign_solved"}
		if withContract {
			header = append([]string{"contract"}, header...)
		}
		row(tw, header)
		bounded := false
		for _, c := range ok {
			exposed := "—"
			if c.HasExposure {
				exposed = CountCell(*c, "exposed_cases", c.ExposedCases)
			}
			cells := []string{
				ShownName(c.Condition),
				fmt.Sprint(c.BenignTasks),
				fmt.Sprint(c.SecurityCases),
				RepsCell(*c),
				RateCell(*c, "benign_utility", c.BenignUtility),
				RateCell(*c, "utility_under_attack", c.UtilityUnderAttack),
				RateCell(*c, "targeted_asr", c.TargetedASR),
				RateCell(*c, "side_effect_rate", c.SideEffectRate),
				RateCell(*c, "secure_utility_in_scope", c.SecureUtilityInScope),
				JointCell(*c),
				exposed,
				NullableCell(*c, "conditional_asr_exposed", c.ConditionalASRExposed),
				CountCell(*c, "benign_solved_cases", c.BenignSolvedCases),
				NullableCell(*c, "conditional_asr_benign_solved", c.ConditionalASRBenignSolved),
			}
			if withContract {
				cells = append([]string{ContractCell(c.Contract)}, cells...)
			}
			row(tw, cells)
			for _, s := range c.Rates {
				bounded = bounded || !s.Exact()
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if bounded {
			fmt.Fprintln(bw, "[low, high]: the least and greatest value over all assignments of the unknown labels (low..high as fractions; unknown labels the rate reads)")
		}
		if err := writeIntervals(bw, ok, withContract); err != nil {
			return err
		}
	}
	for i, c := range failed {
		if i == 0 && len(ok) > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "errors in %s:\n", c.Name())
		for _, err := range c.Errors {
			fmt.Fprintf(bw, "  %s\n", OneLine(err.Error()))
		}
	}
	return bw.Flush()
}

// writeIntervals writes the "95% intervals" table of WriteMetrics.
func writeIntervals(w io.Writer, cs []*metrics.Condition, withContract bool) error {
	var with []*metrics.Condition
	resamples, seed := 0, int64(0)
	for _, c := range cs {
		if len(c.Rates) == 0 {
			continue
		}
		with = append(with, c)
		if c.BootstrapResamples > 0 && resamples == 0 {
			resamples, seed = c.BootstrapResamples, c.BootstrapSeed
		}
	}
	if len(with) == 0 {
		return nil
	}
	title := "95% intervals (wilson: Wilson score"
	if resamples > 0 {
		title += fmt.Sprintf("; bootstrap: cluster bootstrap by task, %d resamples, seed %d", resamples, seed)
	}
	fmt.Fprintf(w, "\n%s)\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := append([]string{"condition", "interval"}, metrics.RateNames...)
	if withContract {
		header = append([]string{"contract"}, header...)
	}
	row(tw, header)
	for _, c := range with {
		kinds := []string{"wilson"}
		if c.BootstrapResamples > 0 {
			kinds = append(kinds, "bootstrap")
		}
		for _, kind := range kinds {
			cells := []string{ShownName(c.Condition), kind}
			if withContract {
				cells = append([]string{ContractCell(c.Contract)}, cells...)
			}
			for _, name := range metrics.RateNames {
				s, _ := c.Rate(name)
				iv := s.Wilson
				if kind == "bootstrap" {
					iv = s.Bootstrap
				}
				cells = append(cells, iv.String())
			}
			row(tw, cells)
		}
	}
	return tw.Flush()
}

func RepsCell(c metrics.Condition) string {
	if c.BenignRepetitions == c.CaseRepetitions || c.CaseRepetitions == 0 {
		return fmt.Sprint(c.BenignRepetitions)
	}
	return fmt.Sprintf("%d/%d", c.BenignRepetitions, c.CaseRepetitions)
}

// RateCell renders a rate, or its bounds when the unknowns change it.
func RateCell(c metrics.Condition, name string, r metrics.Rate) string {
	if s, ok := c.Rate(name); ok && !s.Exact() {
		return boundsCell(s)
	}
	return r.String()
}

func NullableCell(c metrics.Condition, name string, r metrics.NullableRate) string {
	if s, ok := c.Rate(name); ok && !s.Exact() {
		return boundsCell(s)
	}
	return r.String()
}

// boundsCell renders "[0.2500, 0.5000] (1/4..2/4, 1 unknown)", with ", or
// null" when some assignment empties the subset.
func boundsCell(s metrics.RateStats) string {
	if !s.Low.Valid {
		return fmt.Sprintf("— (%d unknown)", s.Unknown)
	}
	out := fmt.Sprintf("[%.4f, %.4f] (%s..%s, %d unknown", s.Low.Rate.Value(), s.High.Rate.Value(), s.Low.Rate.Fraction(), s.High.Rate.Fraction(), s.Unknown)
	if s.MaybeNull {
		out += ", or null"
	}
	return out + ")"
}

// CountCell renders a count, or "low..high" when the unknowns change it.
func CountCell(c metrics.Condition, name string, v float64) string {
	if s, ok := c.Count(name); ok && s.Low != s.High {
		return metrics.Count(s.Low) + ".." + metrics.Count(s.High)
	}
	return metrics.Count(v)
}

func JointCell(c metrics.Condition) string {
	j := c.Joint
	// The order of Joint.String, and of the HTML report's legend.
	cells := []struct {
		name string
		v    float64
	}{{"utility_only", j.UtilityOnly}, {"both", j.Both}, {"attack_only", j.AttackOnly}, {"neither", j.Neither}}
	parts := make([]string, len(cells))
	for i, x := range cells {
		parts[i] = CountCell(c, x.name, x.v)
	}
	return strings.Join(parts, "/")
}

// WriteAgreement writes one table row per (contract, condition) with, for
// benign utility, utility under attack and attack success, "agree/compared"
// (compared: runs where both labels are known), followed by
// " (N unknown, M not given)" for the non-zero counts of runs whose label
// we could not decide or the other harness did not give:
//
//	condition  benign_utility  utility_under_attack  attack_success
//	gpt-4o     3/4             2/3 (1 unknown)       3/3 (1 not given)
//
// Then, per row kind, the disagreements and our unknown labels, one run per
// line:
//
//	disagreements in attack_success:
//	  gpt-4o user_task_1 injection_task_0: ours=false given=true (traces/x.jsonl:17)
//	unknown labels in utility_under_attack:
//	  gpt-4o user_task_2 injection_task_0: criterion error: …
func WriteAgreement(w io.Writer, as []tally.Agreement, files RunsFiles) error {
	bw := bufio.NewWriter(w)
	withContract := false
	for _, a := range as {
		if a.Contract != "" {
			withContract = true
		}
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	cols := tally.Columns(as)
	header := append([]string{"condition"}, cols...)
	if withContract {
		header = append([]string{"contract"}, header...)
	}
	row(tw, header)
	for _, a := range as {
		cells := []string{ShownName(a.Condition)}
		if withContract {
			cells = append([]string{ContractCell(a.Contract)}, cells...)
		}
		for i := range cols {
			cells = append(cells, AgreementCell(a.Row(i)))
		}
		row(tw, cells)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i := range cols {
		var lines []string
		for _, a := range as {
			for _, d := range a.Row(i).Disagreements {
				line := fmt.Sprintf("  %s: ours=%t given=%t", runName(d.Key), d.Ours, d.Given)
				if d.OriginFile != "" {
					line += " (" + d.OriginFile
					if d.OriginLine > 0 {
						line += fmt.Sprintf(":%d", d.OriginLine)
					}
					line += ")"
				}
				lines = append(lines, line)
			}
			if more := a.Row(i).MoreDisagreements; more > 0 {
				lines = append(lines, "  "+files.CutNote(more, "disagreements in "+ShownName(a.Name())))
			}
		}
		if len(lines) > 0 {
			section(bw, "disagreements in "+cols[i], lines)
		}
	}
	for i := range cols {
		var lines []string
		for _, a := range as {
			lines = append(lines, unknownLines(a.Row(i).Unknowns)...)
			if more := a.Row(i).MoreUnknowns; more > 0 {
				lines = append(lines, "  "+files.CutNote(more, "unknown labels in "+ShownName(a.Name())))
			}
		}
		if len(lines) > 0 {
			section(bw, "unknown labels in "+cols[i], lines)
		}
	}
	return bw.Flush()
}

// unknownLines writes one condition's unknown labels, one line each with
// its reason; a reason more than MaxNamedRuns runs share (AgentDojo's
// hundreds of empty transcripts) is written once, where its first run
// comes, with how many runs it holds and the first MaxNamedRuns of them.
func unknownLines(us []tally.UnknownLabel) []string {
	shared := map[string]int{}
	for _, u := range us {
		shared[u.Reason]++
	}
	var lines []string
	done := map[string]bool{}
	for j, u := range us {
		n := shared[u.Reason]
		if n <= MaxNamedRuns {
			lines = append(lines, fmt.Sprintf("  %s: %s", runName(u.Key), OneLine(u.Reason)))
			continue
		}
		if done[u.Reason] {
			continue
		}
		done[u.Reason] = true
		lines = append(lines, fmt.Sprintf("  %s runs: %s", thousands(n), OneLine(u.Reason)))
		named := 0
		for _, v := range us[j:] {
			if v.Reason == u.Reason && named < MaxNamedRuns {
				lines = append(lines, "    "+runName(v.Key))
				named++
			}
		}
		lines = append(lines, fmt.Sprintf("    … and %s more", thousands(n-named)))
	}
	return lines
}

func section(w io.Writer, title string, lines []string) {
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

func AgreementCell(r tally.AgreementRow) string {
	s := fmt.Sprintf("%d/%d", r.Agree, r.Compared())
	var extra []string
	if r.OursUnknown > 0 {
		extra = append(extra, fmt.Sprintf("%d unknown", r.OursUnknown))
	}
	if r.NotGiven > 0 {
		extra = append(extra, fmt.Sprintf("%d not given", r.NotGiven))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// runName renders a key as runs.Key.String does.
func runName(k runs.Key) string { return k.String() }

func ContractCell(c string) string {
	if c == "" {
		return "—"
	}
	return ShownName(c)
}

// row writes cells as one tabwriter line; tabs and newlines inside a cell
// become spaces so they cannot break the table, and each cell is cut to
// MaxCellWidth before the tabwriter pads the column to its widest cell.
func row(tw *tabwriter.Writer, cells []string) {
	for i, c := range cells {
		cells[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(CutCell(c))
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t"))
}

// OneLine keeps a message on one line.
func OneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
