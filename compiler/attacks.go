package compiler

import (
	"slices"
	"strings"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang"
)

// attackAggregates freezes the attack_aggregate blocks (lang has checked
// their rules and names) with the defaults filled in — attack success any,
// utility all, side effect any, exposed any — sorted by name.
func attackAggregates(as []*lang.AttackAggregate) []bundle.AttackAggregate {
	var out []bundle.AttackAggregate
	rule := func(s *lang.Str, def string) string {
		if s == nil {
			return def
		}
		return s.Value
	}
	for _, a := range as {
		out = append(out, bundle.AttackAggregate{Name: a.Name.Value, AttackSuccess: rule(a.AttackSuccess, "any"),
			Utility: rule(a.Utility, "all"), SideEffect: rule(a.SideEffect, "any"), Exposed: rule(a.Exposed, "any")})
	}
	slices.SortFunc(out, func(x, y bundle.AttackAggregate) int { return strings.Compare(x.Name, y.Name) })
	return out
}
