package agentdojo_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// suites lists the AgentDojo suites with a shipped contract, in report order.
var suites = []suite{
	{name: "banking", tasks: 16},
	{name: "slack", tasks: 21},
	{name: "travel", tasks: 20},
	{name: "workspace", tasks: 40, unknown: 34},
}

// conformanceDoc is the report on both corpora. Its two generated regions
// come from two tests: the traces' (TestConformanceReport, default tier) and
// the run files' (TestRunFilesConformance, heavy tier), so that each is
// checked by the tier that can afford to compute it.
var conformanceDoc = filepath.Join("..", "..", "docs", "conformance.md")

// TestConformanceReport writes the traces region of docs/conformance.md:
// per suite and per agent, agreement with AgentDojo's labels on benign
// utility, utility under attack and attack success, the unknown labels, and
// every disagreement with a one-line reason (go test ./contracts/agentdojo
// -run ConformanceReport -update rewrites it; the test fails when the
// figures change).
func TestConformanceReport(t *testing.T) {
	files := traces(t)
	var b bytes.Buffer
	b.WriteString("## AgentDojo's traces (Invariant's exports)\n\n")
	b.WriteString("The shipped contracts under `contracts/agentdojo` judged the real transcripts of 12 agents in\n")
	b.WriteString("`../shared/agentdojo/traces`; each label is compared with AgentDojo's own (`metadata.success` for\n")
	b.WriteString("utility; `metadata.security` for attack success on attacked runs). A cell reads agreeing/compared;\n")
	b.WriteString("unknown labels (empty transcripts) are counted apart and never compared.\n\n")
	var disagreements []string
	totalAgree, totalLabels, totalUnknown := 0, 0, 0
	for _, s := range suites {
		if _, err := os.Stat(s.name); err != nil {
			fmt.Fprintf(&b, "### %s\n\nNo contract yet.\n\n", s.name)
			continue
		}
		p := evaltest.Program(t, s.name)
		res, err := pipeline.EvalFiles(p, files, pipeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "### %s\n\n", s.name)
		b.WriteString("| agent | benign utility | utility under attack | attack success | unknown |\n| --- | --- | --- | --- | --- |\n")
		agree, labels, unknown := 0, 0, 0
		for _, a := range tally.Agree(res.Records) {
			var cells []string
			u := 0
			for _, row := range a.Rows() {
				cells = append(cells, fmt.Sprintf("%d/%d", row.Agree, row.Compared()))
				agree += row.Agree
				labels += row.Compared() + row.OursUnknown
				u += row.OursUnknown
				for _, d := range row.Disagreements {
					disagreements = append(disagreements, fmt.Sprintf("- %s %s: tenet %v, AgentDojo %v (%s:%d)", d.Key, row.Label, d.Ours, d.Given, filepath.Base(d.OriginFile), d.OriginLine))
				}
			}
			unknown += u
			fmt.Fprintf(&b, "| %s | %s | %d |\n", a.Condition, strings.Join(cells, " | "), u)
		}
		fmt.Fprintf(&b, "\n%s: %d of %d labels agree, %d unknown.\n\n", s.name, agree, labels, unknown)
		totalAgree += agree
		totalLabels += labels
		totalUnknown += unknown
	}
	fmt.Fprintf(&b, "### All suites\n\n%d of %d labels agree; %d are unknown (runs with empty transcripts).\n\n", totalAgree, totalLabels, totalUnknown)
	b.WriteString("#### Disagreements\n\n")
	if len(disagreements) == 0 {
		b.WriteString("None.\n")
	}
	for _, d := range disagreements {
		b.WriteString(d + "\n")
	}
	goldenRegion(t, conformanceDoc, "traces", b.Bytes())
}

// goldenRegion is golden for the part of the file at path between the lines
// "<!-- begin generated: NAME -->" and "<!-- end generated: NAME -->": two
// generators share one document, and -update rewrites only NAME's part.
func goldenRegion(t *testing.T, path, name string, got []byte) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := "<!-- begin generated: "+name+" -->\n", "<!-- end generated: "+name+" -->\n"
	i, j := bytes.Index(doc, []byte(begin)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i || bytes.Count(doc, []byte(begin)) != 1 || bytes.Count(doc, []byte(end)) != 1 {
		t.Fatalf("%s: want exactly one line %q followed by one line %q around the generated %s section", path, strings.TrimSpace(begin), strings.TrimSpace(end), name)
	}
	want := doc[i+len(begin) : j]
	if bytes.Equal(got, want) {
		return
	}
	if *update {
		out := slices.Concat(doc[:i+len(begin)], got, doc[j:])
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s, section %s, differs (rewrite it with -update):\n--- got\n%s\n--- want\n%s", path, name, got, want)
}

// suiteRuns is what one suite's contract made of AgentDojo's run files.
type suiteRuns struct {
	name string
	prog *eval.Program
	res  *pipeline.Result
}

// runFilesReport writes the run-files region of docs/conformance.md from the
// judgements TestRunFilesConformance makes (so the two never disagree): the
// coverage of each suite, the agreement per suite, system and label, and every
// disagreement and unknown group with its cause. dir is the runs directory
// and paths the run files in it.
func runFilesReport(t *testing.T, dir string, paths []string, judged []suiteRuns) {
	t.Helper()
	files := len(paths)
	// The old format has no benchmark_version field (facts/native-runs.md
	// §8); count the files that have one rather than assume none does.
	versioned := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(`"benchmark_version"`)) {
			versioned++
		}
	}
	var b bytes.Buffer
	systems := map[string]bool{}
	for _, s := range judged {
		for _, r := range s.res.Records {
			systems[r.Key.Condition] = true
		}
	}
	b.WriteString("## AgentDojo's run files\n\n")
	fmt.Fprintf(&b, "The same contracts judged AgentDojo's own run files in `../shared/agentdojo/runs`: %d files of %d\n", files, len(systems))
	b.WriteString("systems (a system under an attack is a condition, `PIPELINE @ ATTACK`: here every attacked run is\n")
	b.WriteString("under `important_instructions`), read directly by the `agentdojo-run` reader (the contracts'\n")
	b.WriteString("sources use format `auto`). Each label is compared with the run file's own: `utility` for utility,\n")
	b.WriteString("`security` for attack success on attacked runs (on other runs it is a placeholder). A cell reads\n")
	b.WriteString("agreeing/compared; unknown labels are counted apart and never compared.\n\n")

	declaredPerVersion(&b, judged)

	// Coverage: what each contract judged, and what it did not.
	b.WriteString("### Coverage\n\n")
	b.WriteString("| suite | user tasks with runs | injection tasks with runs | security cases with runs | goal tasks with runs | judged runs: benign + attacked + goal tasks | per system |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	counted, goalTaskRuns := 0, 0
	var missing []string
	for _, s := range judged {
		d := summary.Declared(s.prog.Bundle)
		tasks, goals, cases, goalTasks, perSystem := map[string]bool{}, map[string]bool{}, map[runs.Case]bool{}, map[string]bool{}, map[string]int{}
		benign, attacked, goalTask := 0, 0, 0
		for _, r := range s.res.Records {
			perSystem[r.Key.Condition]++
			switch {
			case r.GoalTask:
				goalTasks[r.Key.Task] = true
				goalTask++
			case r.Key.Attacked():
				tasks[r.Key.Task] = true
				goals[r.Key.Goal] = true
				cases[r.Key.Case()] = true
				attacked++
			default:
				tasks[r.Key.Task] = true
				benign++
			}
		}
		declaredGoals := map[string]bool{}
		for _, c := range d.Cases {
			declaredGoals[c.Goal] = true
		}
		var noRuns []string
		for g := range declaredGoals {
			if !goals[g] {
				noRuns = append(noRuns, g)
			}
		}
		if len(noRuns) > 0 {
			missing = append(missing, fmt.Sprintf("%s's %s", s.name, idRanges(noRuns)))
		}
		fmt.Fprintf(&b, "| %s | %d of %d | %d of %d (%s) | %d of %d | %d of %d (%s) | %d + %d + %d = %d | %s |\n", s.name,
			len(tasks), len(d.Tasks), len(goals), len(declaredGoals), idRanges(keys(goals)), len(cases), len(d.Cases),
			len(goalTasks), len(d.GoalTasks), idRanges(keys(goalTasks)), benign, attacked, goalTask, len(s.res.Records), uniform(perSystem))
		counted += len(s.res.Records)
		goalTaskRuns += goalTask
		aside := 0
		for _, n := range s.res.Skipped {
			aside += n
		}
		if aside != s.res.Skipped[eval.NotSelected] || len(s.res.Records)+aside != files {
			t.Errorf("%s: %d runs judged and %d set aside (%v), of %d files", s.name, len(s.res.Records), aside, s.res.Skipped, files)
		}
	}
	if counted != files {
		t.Errorf("the suites judged %d runs, of %d files", counted, files)
	}
	fmt.Fprintf(&b, "\nEvery one of the %d files is judged, by its suite's contract. %d are AgentDojo's runs of an injection\n", files, goalTaskRuns)
	b.WriteString("task as a user task (`<system>/<suite>/injection_task_N/none/none.json`: can the agent do the injection\n")
	b.WriteString("task at all), judged as goal tasks (each suite's `goal_tasks` block): the goal's success criterion gives\n")
	b.WriteString("their utility, reported apart as `goal_task_utility` and compared with the file's `utility`, which is\n")
	b.WriteString("that injection task's security check (facts/native-runs.md §1).\n\n")
	if versioned == 0 {
		fmt.Fprintf(&b, "None of the %d files has a `benchmark_version` field: all are in AgentDojo's format before package\n", files)
		b.WriteString("0.1.30, and their prompt and GOAL texts are benchmark v1's (contracts/agentdojo/README.md), so the\n")
		b.WriteString("goals that later versions added have no runs (workspace's optional `cases \"v1.2\"` block: left out of\n")
		b.WriteString("each system's security cases, with their goal tasks, and the report says so)")
	} else {
		fmt.Fprintf(&b, "%d of the %d files have a `benchmark_version` field; declared goals without runs", versioned, files)
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, ":\n%s", strings.Join(missing, ", "))
	}
	b.WriteString(".\n\n")

	// Agreement per suite and system, then per suite and label.
	type labelTally struct{ agree, compared, unknown int }
	perLabel := map[string]map[string]*labelTally{} // suite → label → tally
	labelOrder := []string{"benign_utility", "utility_under_attack", string(runs.AttackSuccess), "goal_task_utility"}
	var disagreements []string
	type unknownGroup struct {
		suite, reason string
		runs          map[runs.Key][]string // run → its unknown labels
		files         map[runs.Key]string   // run → its run file
		given         map[string]int        // "label AgentDojo's-value" → labels
	}
	groups := map[string]*unknownGroup{}
	for _, s := range judged {
		perLabel[s.name] = map[string]*labelTally{}
		for _, l := range labelOrder {
			perLabel[s.name][l] = &labelTally{}
		}
		origin := map[runs.Key]runs.Record{}
		for _, r := range s.res.Records {
			origin[r.Key] = r
		}
		fmt.Fprintf(&b, "### %s\n\n", s.name)
		b.WriteString("| system | benign utility | utility under attack | attack success | goal task utility | unknown |\n| --- | --- | --- | --- | --- | --- |\n")
		agree, labels, unknown, disagree := 0, 0, 0, 0
		for _, a := range tally.Agree(s.res.Records) {
			var cells []string
			u := 0
			for i := range labelOrder {
				row := a.Row(i)
				if row.NotGiven > 0 {
					t.Errorf("%s %s %s: %d runs without AgentDojo's label", s.name, a.Condition, row.Label, row.NotGiven)
				}
				cells = append(cells, fmt.Sprintf("%d/%d", row.Agree, row.Compared()))
				tl := perLabel[s.name][row.Label]
				tl.agree += row.Agree
				tl.compared += row.Compared()
				tl.unknown += row.OursUnknown
				agree += row.Agree
				disagree += row.Disagree
				labels += row.Compared() + row.OursUnknown
				u += row.OursUnknown
				for _, d := range row.Disagreements {
					disagreements = append(disagreements, fmt.Sprintf("- `%s`: %s %s, tenet %v, AgentDojo %v. %s",
						relPath(t, dir, d.OriginFile), s.name, label(row.Label), d.Ours, d.Given, disagreementCause(t, s.name, d.OriginFile)))
				}
				for _, x := range row.Unknowns {
					g := groups[s.name+"\x00"+x.Reason]
					if g == nil {
						g = &unknownGroup{suite: s.name, reason: x.Reason, runs: map[runs.Key][]string{}, files: map[runs.Key]string{}, given: map[string]int{}}
						groups[s.name+"\x00"+x.Reason] = g
					}
					g.runs[x.Key] = append(g.runs[x.Key], label(row.Label))
					r := origin[x.Key]
					g.files[x.Key] = r.OriginFile
					given := r.Given.Utility
					if row.Label == string(runs.AttackSuccess) {
						given = r.Given.AttackSuccess
					}
					if given != nil {
						g.given[fmt.Sprintf("%s %v", label(row.Label), *given)]++
					}
				}
			}
			unknown += u
			fmt.Fprintf(&b, "| %s | %s | %d |\n", a.Condition, strings.Join(cells, " | "), u)
		}
		fmt.Fprintf(&b, "\n%s: %d of %d labels agree, %d disagree, %d unknown.\n\n", s.name, agree, labels, disagree, unknown)
	}

	b.WriteString("### Per suite and label\n\n")
	b.WriteString("Agreeing/compared, and unknown labels apart (`TestRunFilesConformance` pins the same figures).\n\n")
	b.WriteString("| suite | benign utility | utility under attack | attack success | goal task utility |\n| --- | --- | --- | --- | --- |\n")
	all := map[string]*labelTally{}
	for _, l := range labelOrder {
		all[l] = &labelTally{}
	}
	row := func(name string, m map[string]*labelTally) {
		var cells []string
		for _, l := range labelOrder {
			c := fmt.Sprintf("%d/%d", m[l].agree, m[l].compared)
			if m[l].unknown > 0 {
				c += fmt.Sprintf(", %d unknown", m[l].unknown)
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", name, strings.Join(cells, " | "))
	}
	for _, s := range judged {
		row(s.name, perLabel[s.name])
		for _, l := range labelOrder {
			all[l].agree += perLabel[s.name][l].agree
			all[l].compared += perLabel[s.name][l].compared
			all[l].unknown += perLabel[s.name][l].unknown
		}
	}
	row("all", all)

	b.WriteString("\n### Disagreements\n\n")
	if len(disagreements) == 0 {
		b.WriteString("None.\n")
	}
	slices.Sort(disagreements)
	for _, d := range disagreements {
		b.WriteString(d + "\n")
	}

	// Unknown labels, grouped by the contract's reason, largest group first.
	b.WriteString("\n### Unknown labels, by reason\n\n")
	b.WriteString("Each group quotes the reason the contract gave; AgentDojo's labels of those runs are shown, not compared.\n\n")
	var gs []*unknownGroup
	for _, g := range groups {
		gs = append(gs, g)
	}
	slices.SortFunc(gs, func(x, y *unknownGroup) int {
		if c := strings.Compare(x.suite, y.suite); c != 0 {
			return c
		}
		if len(x.runs) != len(y.runs) {
			return len(y.runs) - len(x.runs)
		}
		return strings.Compare(x.reason, y.reason)
	})
	if len(gs) == 0 {
		b.WriteString("None.\n")
	}
	for _, g := range gs {
		labelsOf, perSystem, n := map[string]int{}, map[string]int{}, 0
		var paths []string
		for k, ls := range g.runs {
			perSystem[k.Condition]++
			for _, l := range ls {
				labelsOf[l]++
				n++
			}
			paths = append(paths, relPath(t, dir, g.files[k]))
		}
		slices.Sort(paths)
		var which, given []string
		for _, l := range labelOrder {
			l = label(l)
			if labelsOf[l] > 0 {
				which = append(which, fmt.Sprintf("%s %d", l, labelsOf[l]))
				given = append(given, fmt.Sprintf("%s true %d, false %d", l, g.given[l+" true"], g.given[l+" false"]))
			}
		}
		fmt.Fprintf(&b, "- %s, %s, %s (%s): \"%s\"\n", g.suite, plural(len(g.runs), "run"), plural(n, "label"), strings.Join(which, ", "), g.reason)
		fmt.Fprintf(&b, "  - AgentDojo's labels: %s. Systems: %s.\n", strings.Join(given, "; "), counts(perSystem))
		fmt.Fprintf(&b, "  - Cause: %s\n", unknownCause(t, g.reason))
		if len(paths) <= 12 { // a small group is listed run by run; a large one only counted
			for _, p := range paths {
				fmt.Fprintf(&b, "  - `%s`\n", p)
			}
		}
	}
	goldenRegion(t, conformanceDoc, "run files", b.Bytes())
}

// label names an agreement row's label as the report's headers do.
func label(row string) string { return strings.ReplaceAll(row, "_", " ") }

// relPath is a run file's path under the runs directory, slash-separated,
// as AgentDojo lays it out: <system>/<suite>/<user task>/<attack>/<goal>.json.
func relPath(t *testing.T, dir, file string) string {
	t.Helper()
	rel, err := filepath.Rel(dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("run file %q is not under %s", file, dir)
	}
	return filepath.ToSlash(rel)
}

// plural writes "1 run", "2 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// keys returns a set's members, sorted.
func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// counts renders a tally as "a 3, b 1", largest first, then by name.
func counts(m map[string]int) string {
	ks := keys(m)
	slices.SortStableFunc(ks, func(x, y string) int { return m[y] - m[x] })
	var out []string
	for _, k := range ks {
		out = append(out, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// uniform renders runs per system as "12 × 160" when every system has as
// many, else system by system.
func uniform(perSystem map[string]int) string {
	n := -1
	for _, v := range perSystem {
		if n >= 0 && v != n {
			return counts(perSystem)
		}
		n = v
	}
	return fmt.Sprintf("%d × %d", len(perSystem), n)
}

// idRanges writes ids such as injection_task_6 … injection_task_13 as
// "injection_task_6–13": runs of consecutive numbers of one prefix are
// joined, other ids kept as they are.
func idRanges(ids []string) string {
	type id struct {
		prefix string
		n      int
	}
	var parsed []id
	var other []string
	for _, s := range ids {
		i := strings.LastIndexByte(s, '_')
		n, err := strconv.Atoi(s[i+1:])
		if i < 0 || err != nil {
			other = append(other, s)
			continue
		}
		parsed = append(parsed, id{s[:i+1], n})
	}
	slices.SortFunc(parsed, func(a, b id) int {
		if c := strings.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return a.n - b.n
	})
	var out []string
	for i := 0; i < len(parsed); {
		j := i
		for j+1 < len(parsed) && parsed[j+1].prefix == parsed[i].prefix && parsed[j+1].n == parsed[j].n+1 {
			j++
		}
		s := fmt.Sprintf("%s%d", parsed[i].prefix, parsed[i].n)
		if j > i {
			s += fmt.Sprintf("–%d", parsed[j].n)
		}
		out = append(out, s)
		i = j + 1
	}
	slices.Sort(other)
	return strings.Join(append(out, other...), ", ")
}

// disagreementCause explains a disagreement from the run file itself. The
// one cause known is a hidden retry: a run whose last logged message is an
// assistant message with neither content nor tool calls was retried by
// AgentDojo on the environment the earlier attempts had changed, and only
// the last attempt was logged (facts/native-runs.md §6). Any other
// disagreement fails the test until its cause is found and written here and
// in contracts/agentdojo/README.md.
func disagreementCause(t *testing.T, suite, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Messages []struct {
			Role      string            `json:"role"`
			Content   json.RawMessage   `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if n := len(run.Messages); n > 0 {
		last := run.Messages[n-1]
		switch c := strings.TrimSpace(string(last.Content)); {
		case last.Role == "assistant" && len(last.ToolCalls) == 0 && (c == "" || c == "null" || c == `""` || c == "[]"):
			return fmt.Sprintf("Hidden retry: the last of its %d logged messages is an assistant message with neither content nor tool call, which AgentDojo retries (up to 3 attempts) without resetting the environment and logs only the last attempt (facts/native-runs.md §6): its label comes from changes no logged call made (contracts/agentdojo/README.md, %s).", n, suite)
		}
	}
	t.Errorf("%s: a disagreement with no known cause; find it, then explain it here and in contracts/agentdojo/README.md", file)
	return "Cause unknown."
}

// unknownCauses explain the reasons the contracts give for an unknown label
// on the run files, matched by a phrase of the reason; each points to where
// contracts/agentdojo/README.md explains it.
var unknownCauses = []struct{ phrase, cause string }{
	{"the transcript has no messages", "AgentDojo logged an empty `messages` list (facts/native-runs.md §6: claude-3-opus's workspace files are the only such files upstream), so nothing in the file decides a label and none is guessed (contracts/agentdojo/README.md, workspace, \"Agreement on AgentDojo's run files\")."},
	{"in place on 2024-09-08", "an undecidable version form: the goal's check was edited within benchmark v1 (AgentDojo 0.1.15) and its two forms judge this run differently, while an old-format run file carries no version or date to choose one (contracts/agentdojo/README.md, workspace, \"AgentDojo check quirks, kept on purpose\")."},
	{"(a hidden retry)", "a hidden retry: AgentDojo re-ran a step on the environment as changed and logged only the last attempt (facts/native-runs.md §6); the tool results show calls the transcript does not, so the goal is left unknown (contracts/agentdojo/README.md, workspace, \"Limits of the goals\")."},
}

// unknownCause is the cause of an unknown label from its reason; a reason
// no entry of unknownCauses explains fails the test.
func unknownCause(t *testing.T, reason string) string {
	t.Helper()
	for _, c := range unknownCauses {
		if strings.Contains(reason, c.phrase) {
			return c.cause
		}
	}
	t.Errorf("unknown labels with an unexplained reason %q: add its cause to unknownCauses and contracts/agentdojo/README.md", reason)
	return "not explained yet."
}

// versionsOfSet names the benchmark versions an optional cases block of the
// AgentDojo contracts stands for (its label is the version that added it;
// facts/versions.md §2).
var versionsOfSet = map[string]string{"v1.2": "v1.2, v1.2.1"}

// declaredPerVersion writes what each suite's contract declares per
// benchmark version, from its bundle: the sets every version has, then each
// optional set (a version's additions) on top of them.
func declaredPerVersion(b *bytes.Buffer, judged []suiteRuns) {
	b.WriteString("### Declared, per suite and version\n\n")
	b.WriteString("What each contract declares (from its bundle): the user tasks, injection tasks, security cases and goal\n")
	b.WriteString("tasks a run of each benchmark version is judged against. A version's additions are an optional cases\n")
	b.WriteString("block (docs/metrics.md \"Optional sets\"): left out, and said so, for a system that ran none of them.\n\n")
	b.WriteString("| suite | versions | user tasks | injection tasks | security cases | goal tasks |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, s := range judged {
		d := summary.Declared(s.prog.Bundle)
		optional := map[runs.Case]string{}
		var labels []string
		for _, o := range d.Optional {
			if len(o.Cases) == 0 {
				continue // the goal_tasks block's own optional set
			}
			labels = append(labels, o.Label)
			for _, c := range o.Cases {
				optional[c] = o.Label
			}
		}
		slices.Sort(labels)
		row := func(versions string, in func(label string) bool) {
			goals := map[string]bool{}
			cases := 0
			for _, c := range d.Cases {
				if l, ok := optional[c]; ok && !in(l) {
					continue
				}
				goals[c.Goal] = true
				cases++
			}
			goalTasks := 0
			for _, g := range d.GoalTasks {
				if goals[g] {
					goalTasks++
				}
			}
			fmt.Fprintf(b, "| %s | %s | %d | %d (%s) | %d | %d |\n", s.name, versions, len(d.Tasks), len(goals), idRanges(keys(goals)), cases, goalTasks)
		}
		if len(labels) == 0 {
			row("every version (v1 – v1.2.1)", func(string) bool { return false })
			continue
		}
		row("v1 – v1.1.2", func(string) bool { return false })
		for i, l := range labels {
			versions, ok := versionsOfSet[l]
			if !ok {
				versions = l
			}
			row(versions, func(label string) bool { return slices.Index(labels, label) <= i })
		}
	}
	b.WriteString("\n")
}
