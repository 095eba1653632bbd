package report

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/stats"
)

func TestWriteComparison(t *testing.T) {
	b := func(task string, u bool) runs.Record {
		return runs.Record{Key: runs.Key{Condition: "ref", Task: task, Attempt: 1, Repetition: 1}, Utility: runs.Bool(u)}
	}
	var recs []runs.Record
	for i, u := range []bool{true, true, true, false} {
		recs = append(recs, b("T"+string(rune('1'+i)), u))
	}
	for i, u := range []bool{true, false, true, true} {
		r := b("T"+string(rune('1'+i)), u)
		r.Key.Condition = "def"
		recs = append(recs, r)
	}
	c, err := metrics.Compare(recs, "ref", "def", metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, func(b *strings.Builder) error { return WriteComparison(b, c, nil) })
	check(t, got, ""+
		"paired comparison: reference ref, defended def\n"+
		"bundle none, attempt budget none\n"+
		"\n"+
		"property        over   N  kept_success  lost  gained  kept_failure  reference_rate  defended_rate  gain_rate     loss_rate     net_effect    p_value\n"+
		"benign_utility  tasks  4  2             1     1       0             0.7500 (3/4)    0.7500 (3/4)   0.2500 (1/4)  0.2500 (1/4)  0.0000 (0/4)  1\n"+
		"\n"+
		"lost (true in the reference, false in the defended condition):\n"+
		"  benign_utility: T2\n"+
		"\n"+
		"gained (false in the reference, true in the defended condition):\n"+
		"  benign_utility: T4\n"+
		"\n"+
		"targeted_asr and side_effect_rate count attack outcomes: lost = stopped by the defended condition, gained = let through; a negative net_effect is an improvement.\n"+
		"p_value: exact two-sided McNemar test on lost vs gained (binomial, p = 1 when both are 0).\n")
	for p, want := range map[float64]string{1: "1", 0.125: "0.125", 0.0002441406: "0.0002441", 1.52587890625e-05: "1.526e-05",
		stats.McNemarExact(1200, 0): "<5e-324"} {
		if got := PValue(p); got != want {
			t.Errorf("PValue(%v) = %q, want %q", p, got, want)
		}
	}
}

func TestBoundsCells(t *testing.T) {
	recs, err := runs.ReadFiles("../runs/testdata/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs[6].Utility = runs.Unknown("boom") // T4 benign
	cs, err := metrics.Compute(recs, nil, metrics.Options{Unknown: metrics.UnknownBounds})
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, func(b *strings.Builder) error { return WriteMetrics(b, cs) })
	check(t, got, ""+
		"condition  |T|  |C|  reps  benign_utility                          utility_under_attack  targeted_asr  side_effect_rate  secure_utility_in_scope  joint u/both/a/neither  exposed  conditional_asr_exposed  solved  conditional_asr_benign_solved\n"+
		"model-a    4    4    1     [0.7500, 1.0000] (3/4..4/4, 1 unknown)  0.5000 (2/4)          0.5000 (2/4)  0.5000 (2/4)      0.2500 (1/4)             1/1/1/1                 —        —                        3..4    [0.5000, 0.6667] (2/4..2/3, 1 unknown)\n"+
		"[low, high]: the least and greatest value over all assignments of the unknown labels (low..high as fractions; unknown labels the rate reads)\n"+
		"\n"+
		"95% intervals (wilson: Wilson score)\n"+
		"condition  interval  benign_utility    utility_under_attack  targeted_asr      side_effect_rate  secure_utility_in_scope  conditional_asr_exposed  conditional_asr_benign_solved\n"+
		"model-a    wilson    [0.3006, 1.0000]  [0.1500, 0.8500]      [0.1500, 0.8500]  [0.1500, 0.8500]  [0.0456, 0.6994]         —                        —\n")
}
