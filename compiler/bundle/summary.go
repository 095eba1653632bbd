package bundle

import "fmt"

// Summary describes the contract in one line, as `tenet check` and
// `tenet build` print it.
func (b *Bundle) Summary() string {
	m := b.Manifest
	name := m.Contract
	if m.Version != "" {
		name += " " + m.Version
	}
	return fmt.Sprintf("ok: contract %s: %s, %s, %s, %s, %s, %s", name,
		count(len(b.Decls.Tools), "tool"), count(len(b.Decls.Scopes[0].Predicates), "predicate"), count(len(b.Plan.Tasks), "task"),
		count(len(b.Plan.Goals), "goal"), count(len(b.Plan.Cases), "security case"), count(len(b.Plan.Sources), "source"))
}

// count renders "1 task", "2 tasks".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
