package explain

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
)

// Pick returns the program, among those a contract argument (named arg)
// holds, whose bundle judged the run: the one whose id is the record's
// bundle field. Re-judging with another bundle would explain labels other
// than the recorded ones, so any other case is refused, naming both ids.
func Pick(progs []*eval.Program, arg string, l Located) (*eval.Program, error) {
	r := l.Record
	if r.Bundle == "" {
		return nil, fmt.Errorf("run %s (%s) carries no bundle id (labels from another harness, or the field removed): nothing shows that %s judged it; explain it without --contract", r.Key, l.At, arg)
	}
	var held []string
	for _, p := range progs {
		if p.ID == r.Bundle {
			return p, nil
		}
		name := p.Bundle.Manifest.Contract
		if len(progs) == 1 || name == r.Key.Contract {
			return nil, fmt.Errorf("run %s (%s) was judged by bundle %s (its bundle field), but %s holds contract %s as bundle %s: re-judging with another bundle would explain other labels; give --contract the bundle that judged it, or explain without --contract", r.Key, l.At, r.Bundle, arg, name, p.ID)
		}
		held = append(held, name+" "+p.ID)
	}
	return nil, fmt.Errorf("run %s (%s) was judged by bundle %s (its bundle field) of contract %q, which %s does not hold (it holds %s); give --contract the bundle that judged it, or explain without --contract", r.Key, l.At, r.Bundle, r.Key.Contract, arg, strings.Join(held, ", "))
}

// Rejudge judges the run again from its origin, the transcript record
// tenet eval read it from, with p (Pick's) and src, and returns its
// explanation. When it cannot — the record names no origin (a decision
// log, labels from elsewhere), the origin file is not there, or its line
// no longer holds the run — it returns no explanation and why, for the
// caller to show the record alone.
//
// The origin's file is the name tenet eval was given, relative to where it
// ran; when that does not exist here, it is also looked for next to the
// runs file. A run judged under a profile (tenet eval --profile P: its
// condition ends in "+P") is judged again under it.
func Rejudge(p *eval.Program, src *bundle.SourcePlan, l Located) (*eval.Explanation, string) {
	r := l.Record
	if r.OriginFile == "" || r.OriginLine < 1 {
		return nil, "the record names no transcript record (no origin file:line) to judge again"
	}
	for _, name := range p.Bundle.ProfileNames() {
		if strings.HasSuffix(r.Key.Condition, "+"+name) {
			q, err := p.WithProfile(name)
			if err != nil {
				return nil, fmt.Sprintf("its profile %s: %v", name, err)
			}
			p = q
			break
		}
	}
	path, err := originPath(r.OriginFile, l.At.File)
	if err != nil {
		return nil, fmt.Sprintf("its origin %s is not readable here (%v)", originText(r), err)
	}
	at := fmt.Sprintf("%s:%d", path, r.OriginLine)
	ex, err := Find(p, src, []string{path}, nil, at)
	if err != nil {
		return nil, fmt.Sprintf("its origin %s could not be judged again: %v", at, err)
	}
	if ex.Record.Key != r.Key {
		return nil, fmt.Sprintf("its origin %s now holds run %s: the transcript changed since the runs file was written", at, ex.Record.Key)
	}
	return ex, ""
}

// originPath is the file an origin names: as named, or else next to the
// runs file when it is relative.
func originPath(origin, runsFile string) (string, error) {
	_, err := os.Stat(origin)
	if err == nil || filepath.IsAbs(origin) {
		return origin, err
	}
	if dir := filepath.Dir(runsFile); dir != "." {
		alt := filepath.Join(dir, origin)
		if _, altErr := os.Stat(alt); altErr == nil {
			return alt, nil
		}
	}
	return origin, err
}

// Differences lists what the recomputed record says otherwise than the
// recorded one: labels (unknown reasons included), invariants, failure
// classes, witnesses, given labels, attempt budget and audit, one line each
// ("utility: recorded true, recomputed false"); none when they agree. The
// key, bundle and origin are not compared: Rejudge and Pick checked them.
func Differences(recorded, recomputed runs.Record) []string {
	var out []string
	diff := func(what, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: recorded %s, recomputed %s", what, a, b))
		}
	}
	for _, name := range runs.LabelNames() {
		a, b := "none", "none"
		if present(recorded, name) {
			a = labelText(*recorded.Label(name))
		}
		if present(recomputed, name) {
			b = labelText(*recomputed.Label(name))
		}
		diff(string(name), a, b)
	}
	checks := func(kind string, x, y map[string]runs.Label) {
		for _, n := range unionKeys(x, y) {
			a, b := "none", "none"
			if l, ok := x[n]; ok {
				a = labelText(l)
			}
			if l, ok := y[n]; ok {
				b = labelText(l)
			}
			diff(kind+"."+runs.Printable(n), a, b)
		}
	}
	checks("invariants", recorded.Invariants, recomputed.Invariants)
	checks("failures", recorded.Failures, recomputed.Failures)
	for _, n := range unionKeys(recorded.Witnesses, recomputed.Witnesses) {
		diff("witnesses."+runs.Printable(n), witnessText(recorded.Witnesses[n]), witnessText(recomputed.Witnesses[n]))
	}
	g, h := recorded.Given, recomputed.Given
	diff("given.utility", boolText(g.Utility), boolText(h.Utility))
	diff("given.attack_success", boolText(g.AttackSuccess), boolText(h.AttackSuccess))
	diff("given.side_effect", boolText(g.SideEffect), boolText(h.SideEffect))
	diff("goal_task", fmt.Sprint(recorded.GoalTask), fmt.Sprint(recomputed.GoalTask))
	diff("attempt_budget", fmt.Sprint(recorded.AttemptBudget), fmt.Sprint(recomputed.AttemptBudget))
	diff("grant", recorded.Grant, recomputed.Grant)
	if !slices.Equal(recorded.Audit, recomputed.Audit) {
		out = append(out, fmt.Sprintf("audit: recorded %d decisions, recomputed %d, not the same", len(recorded.Audit), len(recomputed.Audit)))
	}
	return out
}

// present says whether a record carries the label: utility always, the
// attacked run's labels on an attacked run, exposed when it has it.
func present(r runs.Record, name runs.LabelName) bool {
	switch name {
	case runs.Utility:
		return true
	case runs.Exposed:
		return r.HasExposed
	}
	return r.Key.Attacked()
}

func unionKeys[V any](x, y map[string]V) []string {
	ks := slices.Collect(maps.Keys(x))
	for k := range y {
		if _, ok := x[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

func witnessText(m map[string]string) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, s+"="+m[s])
	}
	return strings.Join(parts, " ")
}

func boolText(b *bool) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprint(*b)
}
