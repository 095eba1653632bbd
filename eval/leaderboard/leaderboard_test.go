package leaderboard

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
)

// TestRowsPoolMicroAverage pools two contracts of one agent by summing
// numerators and denominators (not averaging the rates), takes a rate's
// bounds from its RateStats when it has them, and gives an agent whose
// metrics failed in one contract a row with an error and no rates.
func TestRowsPoolMicroAverage(t *testing.T) {
	r := func(n, d float64) metrics.Rate { return metrics.Rate{Num: n, Den: d} }
	cs := []metrics.Condition{
		{Contract: "workspace", Condition: "b", BenignTasks: 4, SecurityCases: 2,
			BenignUtility: r(3, 4), UtilityUnderAttack: r(1, 2), TargetedASR: r(0, 2), SecureUtilityInScope: r(1, 2)},
		{Contract: "banking", Condition: "b", BenignTasks: 1, SecurityCases: 6, Unknowns: 1,
			BenignUtility: r(1, 1), UtilityUnderAttack: r(3, 6), TargetedASR: r(2, 6), SecureUtilityInScope: r(2, 6),
			Rates: []metrics.RateStats{{Name: "targeted_asr",
				Low:  metrics.NullableRate{Rate: r(2, 6), Valid: true},
				High: metrics.NullableRate{Rate: r(3, 6), Valid: true}}}},
		{Contract: "banking", Condition: "a", Errors: []error{errors.New("unknown label")}},
		{Contract: "workspace", Condition: "a", BenignTasks: 1, BenignUtility: r(1, 1)},
	}
	rows := Rows(cs)
	if len(rows) != 2 || rows[0].Condition != "a" || rows[1].Condition != "b" {
		t.Fatalf("rows %+v, want conditions a, b", rows)
	}
	a := rows[0]
	if a.Err == nil || a.Err.Error() != "banking: unknown label" || !reflect.DeepEqual(a.Contracts, []string{"banking", "workspace"}) {
		t.Errorf("row a: err %v, contracts %v", a.Err, a.Contracts)
	}
	b := rows[1]
	wantLow := []metrics.Rate{r(4, 5), r(4, 8), r(2, 8), r(3, 8)}
	wantHigh := []metrics.Rate{r(4, 5), r(4, 8), r(3, 8), r(3, 8)}
	if b.Err != nil || b.Tasks != 5 || b.Cases != 8 || b.Unknowns != 1 ||
		!reflect.DeepEqual(b.Low, wantLow) || !reflect.DeepEqual(b.High, wantHigh) ||
		!reflect.DeepEqual(b.Contracts, []string{"banking", "workspace"}) {
		t.Errorf("row b = %+v, want low %v high %v over 5 tasks, 8 cases", b, wantLow, wantHigh)
	}
	if b.Exact() {
		t.Error("row b is exact, but an unknown label moves targeted_asr")
	}
}
