package regress

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var (
	bundleA = "sha256:" + strings.Repeat("a", 64)
	bundleB = "sha256:" + strings.Repeat("b", 64)
)

func ben(cond, task string, u bool) runs.Record {
	return runs.Record{Bundle: bundleA, Key: runs.Key{Contract: "c", Condition: cond, Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
}

func att(cond, task, goal string, u, a, h bool) runs.Record {
	return runs.Record{Bundle: bundleA, Key: runs.Key{Contract: "c", Condition: cond, Task: task, Goal: goal, Attempt: 1, Repetition: 1},
		Utility: runs.Bool(u), AttackSuccess: runs.Bool(a), SideEffect: runs.Bool(h)}
}

// same is a condition with identical runs in both evaluations.
func same(cond string) []runs.Record {
	return []runs.Record{ben(cond, "T1", true), ben(cond, "T2", false), att(cond, "T1", "G1", true, false, false), att(cond, "T2", "G1", false, true, true)}
}

// sides: m1 changes (task T2 lost, T3 gained; cases T1/G2 lost by
// utility, T2/G1 by attack and side effect, T2/G2 both ways — lost;
// T3/G1 gained), m2 is unchanged, m3 only in A, m4 only in B.
func sides() (a, b Side) {
	a.Name, a.ID, b.Name, b.ID = "evaluation 1", 1, "evaluation 2", 2
	a.Runs = append(append([]runs.Record{
		ben("m1", "T1", true), ben("m1", "T2", true), ben("m1", "T3", false),
		att("m1", "T1", "G1", true, false, false), att("m1", "T2", "G1", true, false, false),
		att("m1", "T3", "G1", false, true, true), att("m1", "T1", "G2", true, false, false),
		att("m1", "T2", "G2", true, true, true),
	}, same("m2")...), same("m3")...)
	b.Runs = append(append([]runs.Record{
		ben("m1", "T1", true), ben("m1", "T2", false), ben("m1", "T3", true),
		att("m1", "T1", "G1", true, false, false), att("m1", "T2", "G1", true, true, true),
		att("m1", "T3", "G1", false, false, false), att("m1", "T1", "G2", false, false, false),
		att("m1", "T2", "G2", false, false, false),
	}, same("m2")...), same("m4")...)
	return a, b
}

func TestCompute(t *testing.T) {
	a, b := sides()
	d, err := Compute(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Conditions) != 2 || d.Conditions[0].Name != "c:m1" || d.Conditions[1].Name != "c:m2" {
		t.Fatalf("conditions %+v", d.Conditions)
	}
	m1 := d.Conditions[0]
	got := [][]string{m1.LostTasks, m1.GainedTasks, m1.LostCases, m1.GainedCases}
	want := [][]string{{"T2"}, {"T3"}, {"T1/G2", "T2/G1", "T2/G2"}, {"T3/G1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("m1 lost/gained %q, want %q", got, want)
	}
	bu := m1.Transitions[0]
	if bu.Name != "benign_utility" || bu.N != 3 || bu.KeptSuccess != 1 || bu.Lost != 1 || bu.Gained != 1 || bu.KeptFailure != 0 || bu.PValue != 1 {
		t.Errorf("benign_utility %+v", bu)
	}
	asr := m1.Transitions[2]
	if asr.Name != "targeted_asr" || asr.N != 5 || asr.Lost != 2 || asr.Gained != 1 || !reflect.DeepEqual(asr.GainedIDs, []string{"T2/G1"}) {
		t.Errorf("targeted_asr %+v", asr)
	}
	m2 := d.Conditions[1]
	if m2.LostTasks != nil || m2.LostCases != nil || m2.GainedTasks != nil || m2.GainedCases != nil {
		t.Errorf("m2 changed: %+v", m2)
	}
	if !reflect.DeepEqual(d.OnlyA, []string{"c:m3"}) || !reflect.DeepEqual(d.OnlyB, []string{"c:m4"}) {
		t.Errorf("only A %q, only B %q", d.OnlyA, d.OnlyB)
	}
	// m3, not evaluated in B, lost its 2 tasks and 2 cases (Classify).
	if !reflect.DeepEqual(d.Vanished, []Vanished{{Contract: "c", Name: "c:m3", Tasks: []string{"T1", "T2"}, Cases: []string{"T1/G1", "T2/G1"}}}) {
		t.Errorf("vanished %+v", d.Vanished)
	}
	if lt, lc := d.Regressions(); lt != 1+2 || lc != 3+2 || !d.Regressed() {
		t.Errorf("regressions %d tasks %d cases", lt, lc)
	}
	if gt, gc := d.Improvements(); gt != 1 || gc != 1 {
		t.Errorf("improvements %d tasks %d cases", gt, gc)
	}
	if len(d.Contracts) != 1 || !d.Contracts[0].BundleSame || d.Contracts[0].BundleA != bundleA {
		t.Errorf("contracts %+v", d.Contracts)
	}
	// The order of the runs does not matter.
	rng := rand.New(rand.NewSource(1))
	for range 5 {
		rng.Shuffle(len(a.Runs), func(i, j int) { a.Runs[i], a.Runs[j] = a.Runs[j], a.Runs[i] })
		rng.Shuffle(len(b.Runs), func(i, j int) { b.Runs[i], b.Runs[j] = b.Runs[j], b.Runs[i] })
		d2, err := Compute(a, b, Options{})
		if err != nil || !reflect.DeepEqual(d, d2) {
			t.Fatalf("shuffled: %v\n%+v\n%+v", err, d, d2)
		}
	}
	// The inputs are not modified (relabelled copies).
	if a.Runs[0].Key.Condition == "" || strings.Contains(a.Runs[0].Key.Condition, "#") {
		t.Errorf("input relabelled: %v", a.Runs[0].Key)
	}
}

func TestIdenticalHasNoRegression(t *testing.T) {
	a, _ := sides()
	d, err := Compute(a, Side{Name: "evaluation 2", ID: 2, Runs: a.Runs}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Regressed() || d.Headline() != "regressions: 0 tasks lost, 0 cases lost; improvements: 0 tasks gained, 0 cases gained" {
		t.Errorf("%s", d.Headline())
	}
}

func TestBundleChangedIsAllowedAndSaid(t *testing.T) {
	a, b := sides()
	for i := range b.Runs {
		b.Runs[i].Bundle = bundleB
	}
	d, err := Compute(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Contracts[0]
	if c.BundleSame || c.BundleA != bundleA || c.BundleB != bundleB {
		t.Errorf("%+v", c)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d, Table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "contract c: bundle changed, A "+bundleA+", B "+bundleB+" (the labels may differ because the contract changed)") {
		t.Errorf("no bundle line:\n%s", buf.String())
	}
	if lt, lc := d.Regressions(); lt != 3 || lc != 5 {
		t.Errorf("regressions %d %d", lt, lc)
	}
}

func TestRefusals(t *testing.T) {
	a, b := sides()
	other := append([]runs.Record(nil), b.Runs...)
	for i := range other {
		other[i].Key.Contract = "d"
	}
	unknown := append([]runs.Record(nil), b.Runs...)
	unknown[1].Utility = runs.Unknown("no final message")
	reps := append(append([]runs.Record(nil), b.Runs...), ben("m2", "T1", true))
	reps[len(reps)-1].Key.Repetition = 2
	for _, tc := range []struct {
		name string
		b    []runs.Record
		opt  Options
		want []string
	}{
		{"contracts", other, Options{}, []string{"evaluation 1 judged the contracts c and evaluation 2 the contracts d: a diff pairs the runs of the same contracts"}},
		{"empty", nil, Options{}, []string{"evaluation 2 has no judged runs"}},
		{"unknown", unknown, Options{}, []string{"cannot pair the runs of evaluation 1 (#A) and evaluation 2 (#B)", "\nc:m1: defended c:m1#B: run c:m1#B/T2: label utility is unknown: no final message"}},
		{"repetitions", reps, Options{}, []string{"c:m2: defended c:m2#B: benign tasks have different numbers of repetitions: 1 (T2), 2 (T1)"}},
		{"condition", b.Runs, Options{Condition: "m9"}, []string{"--condition m9 names no condition of evaluation 1 or evaluation 2 (conditions: c:m1, c:m2, c:m3, c:m4)"}},
	} {
		_, err := Compute(a, Side{Name: b.Name, ID: b.ID, Runs: tc.b}, tc.opt)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

func TestConditionFilterAndAttacks(t *testing.T) {
	a, b := sides()
	for _, s := range []*Side{&a, &b} {
		for i, r := range s.Runs {
			if r.Key.Attacked() && r.Key.Condition == "m1" {
				s.Runs[i].Key.Attack = "ii"
			}
		}
	}
	d, err := Compute(a, b, Options{Condition: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Conditions) != 1 || d.Conditions[0].Name != "c:m1 @ ii" || d.Conditions[0].Condition != "m1 @ ii" || d.OnlyA != nil || d.OnlyB != nil {
		t.Fatalf("%+v", d)
	}
	if got := d.Conditions[0].LostCases; !reflect.DeepEqual(got, []string{"T1/G2", "T2/G1", "T2/G2"}) {
		t.Errorf("lost cases %q", got)
	}
	if got := d.Conditions[0].LostTasks; !reflect.DeepEqual(got, []string{"T2"}) {
		t.Errorf("lost tasks %q", got)
	}
}

func TestGolden(t *testing.T) {
	a, b := sides()
	for i := range b.Runs {
		b.Runs[i].Bundle = bundleB
	}
	d, err := Compute(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats() {
		var buf bytes.Buffer
		if err := Write(&buf, d, f); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "diff."+string(f))
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from %s (go test -update):\n%s", f, path, buf.String())
		}
	}
}

func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("json"); err != nil || f != JSON {
		t.Errorf("%v %v", f, err)
	}
	if _, err := ParseFormat("html"); err == nil || err.Error() != "--format html: want table, json or markdown" {
		t.Errorf("%v", err)
	}
}

// TestMissingIDsAreLost: a task or case of A that B lacks is lost, one
// only in B is new; the ids both have are paired as before.
func TestMissingIDsAreLost(t *testing.T) {
	a := Side{Name: "evaluation 1", ID: 1, Runs: same("m")}
	b := Side{Name: "evaluation 2", ID: 2, Runs: []runs.Record{ben("m", "T1", true), ben("m", "T9", true), att("m", "T1", "G1", true, false, false)}}
	d, err := Compute(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Conditions[0]
	if !reflect.DeepEqual(c.LostTasks, []string{"T2"}) || !reflect.DeepEqual(c.LostCases, []string{"T2/G1"}) ||
		!reflect.DeepEqual(c.Missing, []string{"T2", "T2/G1"}) || !reflect.DeepEqual(c.New, []string{"T9"}) || c.GainedTasks != nil {
		t.Errorf("%+v", c)
	}
	if d.Headline() != "regressions: 1 task lost, 1 case lost; improvements: 0 tasks gained, 0 cases gained" {
		t.Errorf("%s", d.Headline())
	}
}

// TestContractOptionAndNote: --contract narrows both sides; the refusal
// of different contract sets suggests it; a reversed diff says so.
func TestContractOptionAndNote(t *testing.T) {
	a, b := sides()
	other := ben("x", "T1", true)
	other.Key.Contract = "d"
	b.Runs = append(b.Runs, other)
	if _, err := Compute(a, b, Options{}); err == nil || err.Error() != "evaluation 1 judged the contracts c and evaluation 2 the contracts c, d: a diff pairs the runs of the same contracts (diff one contract both judged with --contract C)" {
		t.Errorf("different contracts: %v", err)
	}
	d, err := Compute(a, b, Options{Contract: "c"})
	if err != nil || len(d.Contracts) != 1 || len(d.Conditions) != 2 {
		t.Fatalf("--contract c: %v %+v", err, d)
	}
	if _, err := Compute(a, b, Options{Contract: "d"}); err == nil || err.Error() != "--contract d: evaluation 1 judged no such contract (its contracts: c)" {
		t.Errorf("--contract d: %v", err)
	}
	d.Reversed = true
	var buf bytes.Buffer
	if err := Write(&buf, d, Table); err != nil {
		t.Fatal(err)
	}
	if lines := strings.SplitN(buf.String(), "\n", 3); lines[1] != "note: A (evaluation 1) was recorded after B (evaluation 2): lost and gained read from A to B" {
		t.Errorf("note line %q", lines[1])
	}
}

// TestUnknownLabelsBounded: a refusal shows the first 10 unknown labels of
// each side, then counts the other runs, instead of every label.
func TestUnknownLabelsBounded(t *testing.T) {
	var recs []runs.Record
	for i := 1; i <= 12; i++ {
		r := ben("m", fmt.Sprintf("T%02d", i), true)
		r.Utility = runs.Unknown("no final message")
		recs = append(recs, r)
	}
	_, err := Compute(Side{Name: "evaluation 1", ID: 1, Runs: recs}, Side{Name: "evaluation 2", ID: 2, Runs: recs}, Options{})
	want := []string{"cannot pair the runs of evaluation 1 (#A) and evaluation 2 (#B) as tenet compare would:"}
	for _, s := range []string{"reference c:m#A", "defended c:m#B"} {
		for i := 1; i <= 10; i++ {
			want = append(want, fmt.Sprintf("c:m: %s: run %s/T%02d: label utility is unknown: no final message", s, s[strings.IndexByte(s, ' ')+1:], i))
		}
	}
	want = append(want, "… and 2 more runs with unknown labels in evaluation 1 (tenet history show lists them)",
		"… and 2 more runs with unknown labels in evaluation 2 (tenet history show lists them)")
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

// TestSuggestCondition: a name typed from a summary (the shared attack
// left out), a prefix, a contract-qualified name or a typo finds the
// recorded condition; a name close to nothing finds none.
func TestSuggestCondition(t *testing.T) {
	conds := []string{"claude-3-haiku-20240307 @ important_instructions", "gpt-4o-2024-05-13 @ important_instructions", "gpt-4o-2024-05-13 @ tool_knowledge"}
	for _, tc := range [][2]string{
		{"claude-3-haiku-20240307", "claude-3-haiku-20240307 @ important_instructions"},
		{"gpt-4o-2024-05-13", "gpt-4o-2024-05-13 @ important_instructions or gpt-4o-2024-05-13 @ tool_knowledge"},
		{"claude-3-haiku", "claude-3-haiku-20240307 @ important_instructions"},
		{"agentdojo-banking:claude-3-haiku-20240307", "claude-3-haiku-20240307 @ important_instructions"},
		{"claude-3-haiku-20240307 @ important_instruction", "claude-3-haiku-20240307 @ important_instructions"},
		{"gpt", ""},
		{"zzz", ""},
	} {
		if got := SuggestCondition(tc[0], conds); got != tc[1] {
			t.Errorf("SuggestCondition(%q) = %q, want %q", tc[0], got, tc[1])
		}
	}
}
