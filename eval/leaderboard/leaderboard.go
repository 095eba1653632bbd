// Package leaderboard pools the metrics of each condition (agent) over
// the contracts it was evaluated with — AgentDojo's four suites judged on
// the same agents — into one row per condition: a micro average, every
// task or case weighing the same whatever its suite. It takes computed
// metrics.Conditions and gives Rows; it computes no rate of runs itself
// and imports only eval/metrics.
package leaderboard

import (
	"fmt"
	"slices"

	"github.com/tenetlang/tenet/eval/metrics"
)

// Rates are the rates of a leaderboard row, in column order:
// AgentDojo's three (benign utility, utility under attack, targeted ASR;
// Debenedetti et al., 2024) and secure utility in scope (docs/metrics.md).
var Rates = []string{"benign_utility", "utility_under_attack", "targeted_asr", "secure_utility_in_scope"}

// Row is one condition (agent) over every contract it was evaluated
// with: each rate pools the numerators and denominators of its contracts
// (a micro average: every task or case weighs the same, whatever its
// suite). Low and High differ only under --unknown=bounds.
type Row struct {
	Condition string
	Contracts []string       // sorted
	Tasks     int            // Σ|T|
	Cases     int            // Σ|C|
	Low, High []metrics.Rate // per Rates
	Unknowns  int            // unknown labels behind the row (bounds mode)
	// Err is set when a contract's metrics for the condition could not be
	// computed: the row has no rates then.
	Err error
}

// Exact reports whether no unknown label can change the row.
func (r Row) Exact() bool { return slices.Equal(r.Low, r.High) }

// Rows pools each condition's metrics over contracts; rows sorted by
// condition. It is meant for several contracts (e.g. the four AgentDojo
// suites) judged on the same agents.
func Rows(cs []metrics.Condition) []Row {
	byCond := map[string]*Row{}
	var names []string
	for _, c := range cs {
		row := byCond[c.Condition]
		if row == nil {
			row = &Row{Condition: c.Condition, Low: make([]metrics.Rate, len(Rates)), High: make([]metrics.Rate, len(Rates))}
			byCond[c.Condition] = row
			names = append(names, c.Condition)
		}
		row.Contracts = append(row.Contracts, c.Contract)
		if !c.OK() {
			if row.Err == nil {
				row.Err = fmt.Errorf("%s: %v", c.Contract, c.Errors[0])
			}
			continue
		}
		row.Tasks += c.BenignTasks
		row.Cases += c.SecurityCases
		row.Unknowns += c.Unknowns
		for i, name := range Rates {
			low, high := rateBounds(c, name)
			row.Low[i] = metrics.Rate{Num: row.Low[i].Num + low.Num, Den: row.Low[i].Den + low.Den}
			row.High[i] = metrics.Rate{Num: row.High[i].Num + high.Num, Den: row.High[i].Den + high.Den}
		}
	}
	slices.Sort(names)
	out := make([]Row, 0, len(names))
	for _, n := range names {
		row := *byCond[n]
		slices.Sort(row.Contracts)
		out = append(out, row)
	}
	return out
}

// rateBounds returns a condition's main rate's least and greatest value (equal unless
// unknowns are bounded).
func rateBounds(c metrics.Condition, name string) (metrics.Rate, metrics.Rate) {
	for _, s := range c.Rates {
		if s.Name == name && s.Low.Valid && s.High.Valid {
			return s.Low.Rate, s.High.Rate
		}
	}
	var r metrics.Rate
	switch name {
	case "benign_utility":
		r = c.BenignUtility
	case "utility_under_attack":
		r = c.UtilityUnderAttack
	case "targeted_asr":
		r = c.TargetedASR
	case "secure_utility_in_scope":
		r = c.SecureUtilityInScope
	}
	return r, r
}
