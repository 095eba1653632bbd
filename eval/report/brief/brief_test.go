package brief

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/termstyle"
)

func TestDisplayWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"abc", 3},
		{"漢字", 4},         // East Asian wide: two columns each
		{"cafe\u0301", 4}, // a combining accent takes none
		{"ｇｐｔ", 6},        // fullwidth
		{"0.0792–0.9417", 13},
	} {
		if got := DisplayWidth(tc.s); got != tc.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestDistinctClips checks that clipped names stay within the width and
// pairwise distinct: AgentDojo's, which share their start and their end,
// are told apart by where the cut falls; names that differ only in a
// middle no split can keep are numbered.
func TestDistinctClips(t *testing.T) {
	agentdojo := []string{
		"gpt-4o-2024-05-13-repeat_user_prompt @ important_instructions",
		"gpt-4o-2024-05-13-spotlighting_with_delimiting @ important_instructions",
		"gpt-4o-2024-05-13-transformers_pi_detector @ important_instructions",
		"gpt-4o-mini-2024-07-18 @ important_instructions",
		"command-r @ important_instructions",
	}
	got, _ := distinctClips(agentdojo, 30)
	want := []string{
		"gpt-4o-2024-05-13-repe…uctions",
		"gpt-4o-2024-05-13-spot…uctions",
		"gpt-4o-2024-05-13-tran…uctions",
		"gpt-4o-mini-2024-07-18…uctions",
		"command-r @ important_…uctions",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("clipped to 30: %q, want %q", got, want)
	}
	checkClips(t, agentdojo, got, 30)

	// Only the middle differs, by one character: no split shows it.
	var middle []string
	for i := range 12 {
		middle = append(middle, strings.Repeat("a", 20)+fmt.Sprint(i%10)+fmt.Sprint(i/10)+strings.Repeat("b", 20))
	}
	middle = append(middle, "short")
	got, numbered := distinctClips(middle, 16)
	checkClips(t, middle, got, 16)
	// Every row numbered, the short one too, zero-padded: "#02" sorts
	// before "#10" as 2 before 10.
	if !numbered || got[0] != "#01 aaaaaaa…bbbb" || got[1] != "#02 aaaaaaa…bbbb" || got[12] != "#13 short" {
		t.Errorf("names no split tells apart are not all numbered: %q", got)
	}

	// Names that fit are left alone.
	short := []string{"a", "b"}
	if got, numbered := distinctClips(short, 10); strings.Join(got, ",") != "a,b" || numbered {
		t.Errorf("short names changed: %q", got)
	}
}

// TestSharedAffixes checks the start and end every name shares, cut at a
// separator, said once above the table: with the corrected AgentDojo
// conditions the rows then differ where "+corrected" is, not in a tail
// they all share.
func TestSharedAffixes(t *testing.T) {
	names := []string{
		"gpt-4o-2024-05-13-repeat_user_prompt @ important_instructions",
		"gpt-4o-2024-05-13-repeat_user_prompt+corrected @ important_instructions",
		"command-r @ important_instructions",
	}
	if p, s := sharedAffixes(names, 40); p != "" || s != " @ important_instructions" {
		t.Errorf("sharedAffixes = %q, %q", p, s)
	}
	if p, s := sharedAffixes(names, 80); p != "" || s != "" {
		t.Errorf("names that fit: sharedAffixes = %q, %q, want none", p, s)
	}
	gpt := []string{"gpt-4o-2024-05-13-repeat_user_prompt", "gpt-4o-2024-05-13-spotlighting_with_delimiting"}
	if p, s := sharedAffixes(gpt, 20); p != "gpt-4o-2024-05-13-" || s != "" {
		t.Errorf("sharedAffixes = %q, %q", p, s)
	}
	// A name equal to the shared end keeps a character.
	if p, s := sharedAffixes([]string{"x-abc", "y-abc", "-abc-abc"}, 2); p != "" || s != "-abc" {
		t.Errorf("sharedAffixes = %q, %q", p, s)
	}

	d := &report.Document{Command: report.CommandEval}
	for _, n := range names {
		n = strings.Replace(n, "@", strings.Repeat("x", 40)+" @", 1)
		d.Checks = append(d.Checks, tally.Checks{Contract: "c", Condition: n, Runs: 1})
	}
	var b bytes.Buffer
	writeConditions(&b, d, termstyle.Style{})
	want := "every condition ends with \" " + strings.Repeat("x", 40) + " @ important_instructions\""
	if !strings.Contains(b.String(), want+"\n") || !strings.Contains(b.String(), "\ngpt-4o-2024-05-13-repeat_user_prompt+corrected") {
		t.Errorf("table:\n%s", b.String())
	}
}

func checkClips(t *testing.T, names, got []string, w int) {
	t.Helper()
	seen := map[string]bool{}
	for i, g := range got {
		if DisplayWidth(g) > w {
			t.Errorf("%q is %d columns, over %d", g, DisplayWidth(g), w)
		}
		if seen[g] {
			t.Errorf("%q shown twice", g)
		}
		seen[g] = true
		if DisplayWidth(names[i]) <= w && g != names[i] && !strings.HasPrefix(g, "#") {
			t.Errorf("%q fits but shows as %q", names[i], g)
		}
	}
}

// bigDocument is a report of many conditions with long, wide names, every
// rate bounded, many invariants violated and gates failed, metric errors
// and warnings: the worst case for the width and the list's length.
func bigDocument(conditions, invariants, gates int) *report.Document {
	d := &report.Document{Command: report.CommandEval, Runs: conditions * 100, ExitCode: 1}
	long := strings.Repeat("長い名前", 20)
	d.Contracts = []report.Contract{{Name: "contract-" + long, Version: "1.0.0", Bundle: "sha256:" + strings.Repeat("ab", 32), Judged: 123456789}}
	bounded := func(lo, hi float64) metrics.RateStats {
		return metrics.RateStats{Unknown: 5, Low: metrics.NullableRate{Rate: metrics.Rate{Num: lo, Den: 100}, Valid: true},
			High: metrics.NullableRate{Rate: metrics.Rate{Num: hi, Den: 100}, Valid: true}}
	}
	for i := range conditions {
		cond := fmt.Sprintf("%s-%d @ %s", long, i, long)
		c := metrics.Condition{Contract: "contract-" + long, Condition: cond, Unknowns: 5}
		for _, name := range metrics.RateNames {
			s := bounded(1, 99)
			s.Name = name
			c.Rates = append(c.Rates, s)
		}
		if i%7 == 3 {
			c.Rates = nil
			c.Errors = []error{errors.New(strings.Repeat("an error that goes on ", 20))}
		}
		d.Conditions = append(d.Conditions, c)
		ch := tally.Checks{Contract: c.Contract, Condition: cond, Runs: 1234567}
		for j := range invariants {
			ch.Invariants = append(ch.Invariants, tally.CheckCount{Name: fmt.Sprintf("invariant_%d_%s", j, long), Hits: 3, Unknown: j % 2})
		}
		d.Checks = append(d.Checks, ch)
		for j := range gates {
			d.Gates = append(d.Gates, report.GateResult{Gate: fmt.Sprintf("gate-%d-%s", j, long), Condition: c.Name(),
				Requirement: "metrics.targeted_asr <= 0.1", Reason: "is false (" + long + ")"})
		}
		d.Agreement = append(d.Agreement, tally.Agreement{Contract: c.Contract, Condition: cond,
			AttackSuccess: tally.AgreementRow{Label: "attack_success", Disagree: 2}})
	}
	for i := range 40 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("warning %d: %s", i, long))
	}
	d.Errors = []string{"metrics: " + long}
	return d
}

// TestWidthAndLength renders reports of 100 and 300 conditions, with wide
// names and bounded rates: every line is within Width columns, and the
// "needs attention" list has the same length whatever the number of
// conditions.
func TestWidthAndLength(t *testing.T) {
	attention := map[int]int{}
	for _, n := range []int{100, 300} {
		var buf bytes.Buffer
		if err := Write(&buf, bigDocument(n, 30, 12)); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		for i, l := range lines {
			if w := DisplayWidth(l); w > Width {
				t.Errorf("%d conditions, line %d is %d columns: %s", n, i+1, w, l)
			}
		}
		start := -1
		for i, l := range lines {
			if l == "needs attention" {
				start = i
			}
		}
		if start < 0 {
			t.Fatalf("no needs attention list:\n%s", buf.String())
		}
		attention[n] = len(lines) - start
		// A row per condition, each a different name.
		seen := map[string]bool{}
		rows := 0
		inTable := false
		for _, l := range lines {
			if strings.HasPrefix(l, "condition ") || strings.HasPrefix(l, "columns: ") {
				inTable = !inTable
				continue
			}
			if inTable {
				rows++
				name, _, _ := strings.Cut(l, "  ")
				if seen[name] {
					t.Errorf("%d conditions: %q shown twice", n, name)
				}
				seen[name] = true
			}
		}
		if rows != n {
			t.Errorf("%d conditions: %d rows", n, rows)
		}
	}
	if attention[100] != attention[300] || attention[100] > 40 {
		t.Errorf("the needs attention list has %d lines for 100 conditions, %d for 300: want the same, bounded", attention[100], attention[300])
	}
}

// TestColour: the failure words are coloured with a Style that colours,
// never by Write.
func TestColour(t *testing.T) {
	d := bigDocument(2, 1, 1)
	var plain, coloured bytes.Buffer
	if err := Write(&plain, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteStyled(&coloured, d, termstyle.On()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b") {
		t.Error("Write coloured its output")
	}
	red := termstyle.On().Error("violated")
	if !strings.Contains(coloured.String(), "  invariant invariant_0_") || !strings.Contains(coloured.String(), red) {
		t.Errorf("the word violated is not coloured:\n%s", coloured.String())
	}
	if !strings.Contains(coloured.String(), termstyle.On().Error("1 invariant, 1 gate")) {
		t.Errorf("the failed cell is not coloured:\n%s", coloured.String())
	}
	// Without the escape sequences, the same text.
	stripped := coloured.String()
	for _, seq := range []string{"\x1b[1;31m", "\x1b[33m", "\x1b[0m"} {
		stripped = strings.ReplaceAll(stripped, seq, "")
	}
	if stripped != plain.String() {
		t.Error("colour changed the text")
	}
}

// TestMoreCasesLine checks the overflow of the lines about cases and goal
// tasks: it counts lines, and the conditions they are about apart, since
// a condition may have several.
func TestMoreCasesLine(t *testing.T) {
	d := &report.Document{Command: report.CommandEval}
	for i := range 1000 {
		// Two lines each: observed cases, and goal tasks.
		c := metrics.Condition{Contract: "c", Condition: fmt.Sprintf("m%04d", i), Cases: metrics.CasesObserved,
			DeclaredCases: 4, DeclaredTasks: 2, GoalTasks: 3,
			GoalTaskUtility: metrics.RateStats{Low: metrics.NullableRate{Rate: metrics.Rate{Num: 1, Den: 3}, Valid: true},
				High: metrics.NullableRate{Rate: metrics.Rate{Num: 1, Den: 3}, Valid: true}}}
		d.Conditions = append(d.Conditions, c)
		d.Cases = append(d.Cases, report.ConditionLines(c)...)
	}
	if len(d.Cases) != 2000 {
		t.Fatalf("%d lines, want 2000", len(d.Cases))
	}
	var b bytes.Buffer
	writeConditions(&b, d, termstyle.Style{})
	// Five lines shown: those of m0000, m0001 and one of m0002's.
	want := "\n… and 1,995 more lines on cases and goal tasks of 998 conditions (--detail)\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("table ends:\n%s\nwant %q", b.String()[max(b.Len()-300, 0):], want)
	}
}

// TestInvariantItemThousands checks that the counts of an invariant's
// entry share one style, thousands separated.
func TestInvariantItemThousands(t *testing.T) {
	d := &report.Document{Command: report.CommandEval}
	for i := range 1000 {
		d.Checks = append(d.Checks, tally.Checks{Contract: "c", Condition: fmt.Sprint(i), Runs: 2,
			Invariants: []tally.CheckCount{{Name: "inv", Hits: 2}}})
	}
	items := invariantItems(d)
	if len(items) != 1 || items[0].after != " on 2,000 runs in 1,000 of 1,000 conditions" {
		t.Errorf("items: %+v", items)
	}
}

// TestNoMessages checks that records without messages are counted in the
// header and, when nothing was judged, explained: the error they cause,
// "metrics: no runs", says nothing of why.
func TestNoMessages(t *testing.T) {
	d := &report.Document{Command: report.CommandEval, ExitCode: 2, Errors: []string{"metrics: no runs"},
		Contracts: []report.Contract{{Name: "q", Version: "0.1.0", Headers: 2028, Skipped: []report.Skipped{{Count: 3}}}}}
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"contract q 0.1.0: 0 runs judged, 3 records skipped, 2,028 header lines without messages\n",
		"\n  every record lacked messages (2,028 header lines): a runs file? tenet report; another format? --transcript-format\n" +
			"  1 error (exit code 2)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	// Counts that do not fit after a long name get their own line.
	d.Contracts[0].Name = strings.Repeat("n", 60)
	b.Reset()
	writeHeader(&b, d)
	if want := "contract " + strings.Repeat("n", 60) + " 0.1.0: 0 runs judged\n  3 records skipped, 2,028 header lines without messages\n"; b.String() != want {
		t.Errorf("header %q, want %q", b.String(), want)
	}
	d.Contracts[0].Judged = 1
	if items := noMessagesItems(d); items != nil {
		t.Errorf("a run judged: %+v", items)
	}
}

// TestUnknownLabelErrors checks that a condition whose metrics fail on
// unknown labels says so, counted, and that the list names the option
// that bounds such rates.
func TestUnknownLabelErrors(t *testing.T) {
	unknown := metrics.UnknownLabelError{Key: runs.Key{Contract: "w", Condition: "m", Task: "T1", Attempt: 1, Repetition: 1}, Label: "utility", Reason: "empty transcript"}
	d := &report.Document{Command: report.CommandEval, Conditions: []metrics.Condition{
		{Contract: "w", Condition: "m", Errors: []error{unknown, unknown, errors.New("no benign tasks (|T| = 0)")}},
		{Contract: "w", Condition: "n", Errors: []error{errors.New("no benign tasks (|T| = 0)")}},
	}}
	var got []string
	for _, it := range metricErrorItems(d) {
		got = append(got, it.before+it.word+it.after)
	}
	want := []string{
		"metrics of w:m not computed: rates over 2 unknown labels and 1 other error",
		"metrics of w:n not computed: no benign tasks (|T| = 0)",
		"1 condition with a rate over an unknown label: --unknown=bounds bounds each such rate (least–greatest)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	err := metrics.ConditionsError(d.Conditions, 2, []string{"w:m", "w:n"})
	if err.Error() != "metrics: 2 of 2 conditions have errors (1 with a rate over an unknown label: --unknown=bounds bounds it): w:m, w:n" {
		t.Errorf("error: %v", err)
	}
}

// TestUnknownLabelsItem checks the unknown-labels entry: the total is
// labels, not runs (a run without messages has each label unknown), and
// the per-label counts are those --detail lists run by run.
func TestUnknownLabelsItem(t *testing.T) {
	d := &report.Document{Command: report.CommandEval, Conditions: []metrics.Condition{
		{Contract: "w", Condition: "opus", Unknowns: 828, Bounded: true, UnknownsByLabel: []metrics.LabelCount{
			{Label: "utility", N: 207}, {Label: "attack_success", N: 207}, {Label: "side_effect", N: 207}, {Label: "exposed", N: 207}}},
		{Contract: "w", Condition: "gpt", Unknowns: 2, Bounded: true, UnknownsByLabel: []metrics.LabelCount{
			{Label: "attack_success", N: 1}, {Label: "side_effect", N: 1}}},
		{Contract: "w", Condition: "none"},
	}}
	var got string
	for _, it := range attentionItems(d) {
		if it.word == "labels unknown" {
			got = it.before + it.word + it.after
		}
	}
	want := "830 labels unknown in 2 conditions (rates low–high): utility 207, attack_success 208, side_effect 208, exposed 207"
	if got != want {
		t.Errorf("item %q, want %q", got, want)
	}
}

// TestNotes: a passing no_case_lost gate's note (its baseline first) is
// one line of the summary, cut at its end (the contract's name) to Width,
// and at most MaxAttention of them, then a count.
func TestNotes(t *testing.T) {
	d := &report.Document{Command: report.CommandReport, Inputs: []string{"r.jsonl"}}
	for i := range MaxAttention + 2 {
		d.Notes = append(d.Notes, fmt.Sprintf("no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c%d%s",
			i, strings.Repeat("-long", i*4)))
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "no_case_lost") || strings.HasPrefix(l, "… and") {
			got = append(got, l)
		}
		if w := DisplayWidth(l); w > Width {
			t.Errorf("line of %d columns: %s", w, l)
		}
	}
	want := []string{
		"no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c0",
		"no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c1-long-long-l…",
		"no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c2-long-long-l…",
		"no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c3-long-long-l…",
		"no_case_lost passed: no task or case lost against evaluation 4 (recorded 2026-12-01T13:00:00Z), contract c4-long-long-l…",
		"… and 2 more notes (--detail: every gate)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
