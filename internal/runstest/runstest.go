// Package runstest makes runs records for tests: Adversarial gives valid
// records that use every part of the runs format, which the tests of the
// codec, the Writer and the Sorter round-trip. It imports eval/runs only
// and is imported by tests only.
package runstest

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/eval/runs"
)

// Adversarial returns n (at most 864) valid records with unique keys that use every part
// of the format: non-ASCII and quoted names, empty contract and reasons
// next to long ones, empty but non-nil maps and slices, many witnesses,
// nested audit entries, given labels, origins with and without a line.
func Adversarial(n int, seed int64) []runs.Record {
	rng := rand.New(rand.NewSource(seed))
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	label := func() runs.Label {
		switch rng.Intn(3) {
		case 0:
			return runs.True()
		case 1:
			return runs.False()
		}
		return runs.Unknown(pick("criterion error: no key 'iban'", "état inconnu ☃", "a\nb\t\"quoted\" <b>&</b> \u2028", strings.Repeat("long ", 200)))
	}
	bundle := "sha256:" + strings.Repeat("0f", 32)
	seen := map[runs.Key]bool{}
	var out []runs.Record
	for len(out) < n {
		contract := pick("", "c", "合同-ü")
		cond := pick("gpt-4o", "模型 ☃", "a/b:c", "x\u200by")
		k := runs.Key{Contract: contract, Condition: cond, Task: pick("user_task_0", "user_task_1", "tâche/1", "t"),
			Goal: pick("", "", "injection_task_0", "目标 2"), Attempt: 1 + rng.Intn(3), Repetition: 1 + rng.Intn(2)}
		// Some attacked runs under a named attack (docs/metrics.md "Attacks
		// as conditions"), chosen without drawing, so the draws stay as they were.
		if k.Attacked() && k.Repetition == 2 {
			k.Attack = map[bool]string{true: "important_instructions", false: "攻击 b/2"}[k.Attempt == 1]
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		r := runs.Record{Key: k, Utility: label()}
		// Some benign runs are goal tasks (docs/metrics.md "Goal tasks"),
		// chosen without drawing, as the attacks are.
		r.GoalTask = !k.Attacked() && k.Task == "t" && k.Repetition == 2
		if rng.Intn(2) == 0 {
			r.Bundle = bundle
			r.AttemptBudget = 3
		}
		g := runs.Given{}
		if rng.Intn(2) == 0 {
			g.Utility = boolPtr(rng.Intn(2) == 0)
		}
		if k.Attacked() {
			r.AttackSuccess = label()
			r.SideEffect = label()
			if r.AttackSuccess.Known && r.AttackSuccess.Value && r.SideEffect.Known {
				r.SideEffect = runs.True()
			}
			// Exposure is per condition: every attacked run of one carries it, or none.
			if len(cond)%2 == 0 {
				r.HasExposed, r.Exposed = true, label()
			}
			if rng.Intn(2) == 0 {
				g.AttackSuccess = boolPtr(rng.Intn(2) == 0)
				g.SideEffect = boolPtr(g.AttackSuccess != nil && *g.AttackSuccess || rng.Intn(2) == 0)
			}
		}
		r.Given = g
		switch rng.Intn(3) {
		case 0:
			r.OriginFile, r.OriginLine = pick("traces/x.jsonl", "répertoire/☃.jsonl"), 1+rng.Intn(1000)
		case 1:
			r.OriginFile = "a.json"
		}
		for gi, grp := range []*map[string]runs.Label{&r.Invariants, &r.Failures} {
			switch rng.Intn(3) {
			case 0:
				*grp = map[string]runs.Label{}
			case 1:
				m := map[string]runs.Label{}
				for i := range 1 + rng.Intn(4) {
					m[pick("answered", "no.dots", "名前", "x y", fmt.Sprintf("n%d", i))] = label()
				}
				*grp = m
				if gi == 0 {
					for name, l := range m {
						if l.Known && !l.Value && rng.Intn(3) > 0 {
							if r.Witnesses == nil {
								r.Witnesses = map[string]map[string]string{}
							}
							steps := map[string]string{}
							for i := range rng.Intn(30) {
								steps[fmt.Sprintf("step %d ✓", i)] = fmt.Sprintf("%s:%d", pick("call", "event"), rng.Intn(500))
							}
							r.Witnesses["invariants."+name] = steps
						}
					}
				}
			}
		}
		// An excerpt: absent, empty, or items with texts of every kind up
		// to the bound.
		switch rng.Intn(3) {
		case 0:
			r.Excerpt = map[string]string{}
		case 1:
			r.Excerpt = map[string]string{}
			for range 1 + rng.Intn(runs.MaxExcerptItems) {
				text := pick("send_money(recipient=\"US133…\", amount=100) → ok", "", "assistant: ☃ \"quoted\" <b>", strings.Repeat("é", runs.MaxExcerptText/2))
				r.Excerpt[fmt.Sprintf("%s:%d", pick("call", "event"), rng.Intn(500))] = text
			}
		}
		if rng.Intn(5) == 0 && r.Witnesses == nil {
			r.Witnesses = map[string]map[string]string{}
		}
		switch rng.Intn(3) {
		case 0:
			r.Grant, r.Audit = "default", []runs.AuditEntry{}
		case 1:
			r.Grant = pick("default", "grant ✓")
			for i := range 1 + rng.Intn(6) {
				e := runs.AuditEntry{Call: i, Tool: pick("send_money", "outil_☃", ""), Decision: runs.Decisions[rng.Intn(len(runs.Decisions))], Parent: -1}
				if e.Decision != runs.Authorized {
					e.Detail = pick("grant \"default\" does not allow (send, eve@evil.example)", "ß")
				}
				if i > 0 && rng.Intn(2) == 0 {
					e.Parent = rng.Intn(i)
					e.Hazard = rng.Intn(2) == 0
				}
				r.Audit = append(r.Audit, e)
			}
		}
		// Under a grant the audit counts the run's calls (one entry per
		// call): a witness names only those, as Validate requires.
		if r.Grant != "" {
			for _, steps := range r.Witnesses {
				for step, it := range steps {
					if c, err := strconv.Atoi(strings.TrimPrefix(it, "call:")); err == nil && c >= len(r.Audit) {
						steps[step] = fmt.Sprintf("event:%d", c)
					}
				}
			}
		}
		if err := runs.Encodable(r); err != nil {
			panic(err)
		}
		out = append(out, r)
	}
	return out
}

func boolPtr(b bool) *bool { return &b }
