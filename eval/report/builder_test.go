package report

import (
	"bytes"
	"math/rand"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"

	"github.com/tenetlang/tenet/eval/leaderboard"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runsort"
	"github.com/tenetlang/tenet/eval/summary"
	"github.com/tenetlang/tenet/eval/tally"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
)

// reference is Build as it was before the Builder: every part computed over
// all the records at once by the metrics package's whole-slice functions.
func reference(in testInput) *Document {
	res := summary.Results{Runs: len(in.Records)}
	res.Conditions, res.Err = metrics.Compute(in.Records, in.Declared, in.Metrics)
	if hasGiven(in.Records) {
		res.Agreement = tally.Agree(in.Records)
	}
	res.Checks = tally.CountChecks(in.Records)
	res.Violations = summary.Violations(in.Records)
	res.Audit = tally.CountAudit(in.Records)
	contracts := map[string]bool{}
	for _, c := range res.Conditions {
		contracts[c.Contract] = true
	}
	if len(contracts) > 1 {
		res.Leaderboard = leaderboard.Rows(res.Conditions)
	}
	return buildWith(in, res)
}

func hasGiven(recs []runs.Record) bool {
	for _, r := range recs {
		if r.Given.Utility != nil || r.Given.AttackSuccess != nil || r.Given.SideEffect != nil {
			return true
		}
	}
	return false
}

// renderAll returns d in every format.
func renderAll(t *testing.T, d *Document) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range testFormatNames() {
		var b bytes.Buffer
		if err := testWrite(&b, d, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = b.Bytes()
	}
	return out
}

// streamings returns the Documents of in built in several ways: Build;
// record by record in key order (Add); and, when a runs file can hold
// every record and no two share a key, streamed through a runsort.Sorter
// that spills every few records.
func streamings(t *testing.T, in testInput) map[string]*Document {
	t.Helper()
	out := map[string]*Document{"Build": testBuild(in)}

	recs := slices.Clone(in.Records)
	runs.SortRecords(recs)
	b := summary.NewCollector(in.Declared, in.Metrics, in.MaxListed)
	for _, r := range recs {
		if err := b.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	out["Add"] = buildWith(in, b.Results())

	// The Sorter gets the records shuffled: it must put them in key order.
	shuffled := slices.Clone(in.Records)
	rand.New(rand.NewSource(1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	s := runsort.NewSorter(t.TempDir(), 8<<10)
	defer s.Close()
	for i, r := range shuffled {
		if err := s.Add(r, runs.Seq{Line: i + 1}); err != nil {
			t.Logf("no Sorter: %v", err)
			return out
		}
	}
	it, err := s.Sort()
	if err != nil {
		t.Fatal(err)
	}
	b = summary.NewCollector(in.Declared, in.Metrics, in.MaxListed)
	for it.Next() {
		if err := b.Add(it.Record()); err != nil {
			t.Fatal(err)
		}
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	if len(it.Duplicates()) > 0 {
		t.Logf("no Sorter: %d duplicate keys", len(it.Duplicates()))
		return out
	}
	out["Sorter"] = buildWith(in, b.Results())
	return out
}

// checkEquivalent requires every way of building in's Document to give
// the reference's bytes in every format.
func checkEquivalent(t *testing.T, in testInput) *Document {
	t.Helper()
	ref := reference(in)
	want := renderAll(t, ref)
	for how, d := range streamings(t, in) {
		got := renderAll(t, d)
		for _, f := range testFormatNames() {
			if !bytes.Equal(got[f], want[f]) {
				t.Errorf("%s: %s differs from the reference:\n%s", how, f, firstDiff(got[f], want[f]))
			}
		}
	}
	return ref
}

func firstDiff(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got " + gl[i] + "\nwant " + wl[i]
		}
	}
	return "lengths " + strconv.Itoa(len(gl)) + " and " + strconv.Itoa(len(wl)) + " lines"
}

// TestBuilderGoldenInputs: the inputs of the golden reports.
func TestBuilderGoldenInputs(t *testing.T) {
	for name, in := range map[string]testInput{
		"eval":   evalInput(t),
		"bounds": boundsInput(t),
		"errors": errorsInput(),
		"empty":  {Command: CommandReport, Version: "0.9.0", Inputs: []string{"none.jsonl"}},
	} {
		t.Run(name, func(t *testing.T) { checkEquivalent(t, in) })
	}
}

// TestBuilderCrossCondition covers what depends on more than one
// condition: an undeclared contract is a utility-only evaluation only when
// none of its runs is attacked, whichever condition comes first; gates,
// the leaderboard and the agreement (present when any run has a given
// label) span conditions; a declared attempt rule that is invalid drops
// every condition's metrics; invalid options; duplicates and invalid runs.
func TestBuilderCrossCondition(t *testing.T) {
	benign := func(contract, cond, task string, u bool) runs.Record {
		return fixtureRecord(contract, cond, task, "", u, false)
	}
	attacked := func(contract, cond, task, goal string, u, a bool) runs.Record {
		return fixtureRecord(contract, cond, task, goal, u, a)
	}
	yes := true
	mixed := []runs.Record{
		benign("u", "a", "T1", true), // benign only, but u:b is attacked: |C| = 0 is an error
		benign("u", "b", "T1", true), attacked("u", "b", "T1", "G", false, true),
		benign("v", "a", "T1", false), attacked("v", "a", "T1", "G", true, false),
		benign("v", "b", "T1", true),                                // benign only after an attacked condition
		benign("w", "a", "T1", true), benign("w", "b", "T2", false), // utility only
		benign("", "a", "T1", true),
	}
	mixed[1].Given.Utility = &yes
	dup := append(slices.Clone(mixed), benign("v", "b", "T1", false))
	invalid := append(slices.Clone(mixed), runs.Record{Key: runs.Key{Contract: "w", Condition: "a", Task: "T3", Attempt: 1, Repetition: 1}})
	gated := evalInput(t)
	gated.Records = append(gated.Records, fixtureRecord("checks", "c", "T1", "", true, false))
	for name, in := range map[string]testInput{
		"utility only":         {Command: CommandReport, Records: mixed},
		"declared":             {Command: CommandReport, Records: mixed, Declared: map[string]metrics.Declared{"u": {Tasks: []string{"T1"}}}},
		"bounds":               {Command: CommandReport, Records: mixed, Metrics: metrics.Options{Unknown: metrics.UnknownBounds}},
		"bad rule":             {Command: CommandReport, Records: mixed, Declared: map[string]metrics.Declared{"v": {Tasks: []string{"T1"}, Rules: metrics.AttemptRules{Utility: "most"}}}},
		"bad options":          {Command: CommandReport, Records: mixed, Metrics: metrics.Options{Unknown: "guess"}},
		"no runs, bad options": {Command: CommandReport, Metrics: metrics.Options{Resamples: -1}},
		"duplicates":           {Command: CommandReport, Records: dup},
		"invalid":              {Command: CommandReport, Records: invalid},
		"gates":                gated,
	} {
		t.Run(name, func(t *testing.T) { checkEquivalent(t, in) })
	}
	d := reference(testInput{Records: mixed})
	var errs []string
	for _, c := range d.Conditions {
		if !c.OK() {
			errs = append(errs, c.Name()+": "+c.Errors[0].Error())
		}
	}
	if want := []string{"u:a: no security cases (|C| = 0)", "v:b: no security cases (|C| = 0)"}; !slices.Equal(errs, want) {
		t.Errorf("condition errors %q, want %q", errs, want)
	}
}

// TestBuilderAgentDojo: the four AgentDojo contracts on the 12 agents'
// transcripts, with unknown labels refused and bounded; the traces hold one
// injection task of each suite's every goal declared, so metrics are over
// the observed cases.
func TestBuilderAgentDojo(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates the AgentDojo corpus")
	}
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var progs []*eval.Program
	declared := map[string]metrics.Declared{}
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		p := evaltest.Program(t, filepath.Join("..", "..", "contracts", "agentdojo", s))
		progs = append(progs, p)
		declared[p.Bundle.Manifest.Contract] = summary.Declared(p.Bundle)
	}
	results, err := pipeline.EvalCollection(progs, files, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var contracts []Contract
	var all []runs.Record
	for i, p := range progs {
		contracts = append(contracts, contractOf(p, results[i]))
		all = append(all, results[i].Records...)
	}
	for _, unknown := range []string{metrics.UnknownRefuse, metrics.UnknownBounds} {
		t.Run(unknown, func(t *testing.T) {
			d := checkEquivalent(t, testInput{Command: CommandEval, Version: "test", Inputs: files, Contracts: contracts,
				Records: all, Declared: declared, Programs: progs, Metrics: metrics.Options{Unknown: unknown, Cases: metrics.CasesObserved}})
			if d.Runs != len(all) || len(d.Conditions) != 48 || len(d.Violations) == 0 || len(d.Leaderboard) != 12 {
				t.Errorf("%d runs, %d conditions, %d violations, %d leaderboard rows", d.Runs, len(d.Conditions), len(d.Violations), len(d.Leaderboard))
			}
		})
	}
}

// contractOf is the Contract of p with its counts (eval/assemble.ContractOf
// without the skipped records, which these tests do not compare).
func contractOf(p *eval.Program, res *pipeline.Result) Contract {
	m := p.Bundle.Manifest
	return Contract{Name: m.Contract, Version: m.Version, Bundle: p.ID, Judged: res.Judged(), Headers: res.Headers}
}
