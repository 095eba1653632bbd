package runs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// maxErrors bounds the errors Read and ReadFiles collect before they stop.
const maxErrors = 20

// ---------------------------------------------------------------- validation

// Validate checks the rules a single record obeys (docs/runs-format.md):
// a non-empty condition and task; attempt and repetition ≥ 1; a benign run carries only the utility label (and given
// utility); an attacked run carries utility, attack_success and side_effect,
// and exposed when HasExposed; an unknown label has a reason; attack_success
// true implies side_effect true, for our labels and for given labels; the
// origin and bundle are well formed. It is the one validator: Write, Check,
// the Writer, the Sorter and decodeLine run it. Errors read "run KEY:
// reason".
func (r Record) Validate() error {
	if err := r.validate(); err != nil {
		return fmt.Errorf("run %s: %s", r.Key, err)
	}
	return nil
}

func (r Record) validate() error {
	k := r.Key
	switch {
	case k.Condition == "":
		return errors.New("condition is empty")
	case k.Task == "":
		return errors.New("task is empty")
	case k.Attempt < 1:
		return fmt.Errorf("attempt is %d, want an integer ≥ 1", k.Attempt)
	case k.Repetition < 1:
		return fmt.Errorf("repetition is %d, want an integer ≥ 1", k.Repetition)
	case k.Attempt > MaxAttempt:
		return fmt.Errorf("attempt is %d, above the maximum of %d (runs.MaxAttempt)", k.Attempt, MaxAttempt)
	case k.Repetition > MaxRepetition:
		return fmt.Errorf("repetition is %d, above the maximum of %d (runs.MaxRepetition)", k.Repetition, MaxRepetition)
	case r.GoalTask && k.Goal != "":
		return errors.New("goal_task is true on an attacked run: a goal-task run is benign (goal null)")
	case r.AttemptBudget < 0:
		return fmt.Errorf("attempt_budget is %d, want an integer ≥ 1 (or 0: none)", r.AttemptBudget)
	case r.AttemptBudget > 0 && k.Attempt > r.AttemptBudget:
		return fmt.Errorf("attempt %d is above attempt_budget %d (the threat model allows attempts 1..%d)", k.Attempt, r.AttemptBudget, r.AttemptBudget)
	}
	for _, name := range LabelNames() {
		l := r.Label(name)
		if l.Known && l.Reason != "" {
			return fmt.Errorf("label %s is %s but has an unknown-reason %q", name, l.String(), l.Reason)
		}
	}
	if !r.HasExposed && !r.Exposed.Absent() {
		return errors.New("label exposed is set but HasExposed is false")
	}
	if r.Utility.Absent() {
		return errors.New("missing label utility")
	}
	if !k.Attacked() {
		if k.Attack != "" {
			return fmt.Errorf("attack %s on a benign run (goal is null): a benign run is made under no attack (it is the benign side of every attack of its condition)", Safe(k.Attack))
		}
		for _, name := range LabelNames()[1:] {
			present := !r.Label(name).Absent()
			if name == Exposed {
				present = r.HasExposed
			}
			if present {
				return fmt.Errorf("label %s on a benign run (goal is null): a benign run carries only utility", name)
			}
		}
		if r.Given.AttackSuccess != nil {
			return errors.New("given.attack_success on a benign run (goal is null): a benign run carries only utility")
		}
		if r.Given.SideEffect != nil {
			return errors.New("given.side_effect on a benign run (goal is null): a benign run carries only utility")
		}
	} else {
		for _, name := range LabelNames()[1:3] {
			if r.Label(name).Absent() {
				return fmt.Errorf("missing label %s (an attacked run needs utility, attack_success and side_effect)", name)
			}
		}
		if r.HasExposed && r.Exposed.Absent() {
			return errors.New("missing label exposed (HasExposed is set)")
		}
		if r.AttackSuccess.Known && r.AttackSuccess.Value && r.SideEffect.Known && !r.SideEffect.Value {
			return errors.New("attack_success is true but side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)")
		}
		g := r.Given
		if g.AttackSuccess != nil && *g.AttackSuccess && g.SideEffect != nil && !*g.SideEffect {
			return errors.New("given attack_success is true but given side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)")
		}
	}
	if r.OriginLine < 0 {
		return fmt.Errorf("origin line is %d, want ≥ 1", r.OriginLine)
	}
	if r.OriginLine > 0 && r.OriginFile == "" {
		return errors.New("origin has a line but no file")
	}
	if r.Bundle != "" && !validBundle(r.Bundle) {
		return fmt.Errorf("bundle is %q, want sha256:<64 lowercase hex digits>", r.Bundle)
	}
	if err := validateAudit(r.Grant, r.Audit); err != nil {
		return err
	}
	if err := validateExcerpt(r.Excerpt); err != nil {
		return err
	}
	return validateCalls(r)
}

// validateAudit checks the authorization audit of a run: an audit needs a
// grant; every entry has a call index ≥ 0 audited once, a decision of
// Decisions, a detail unless authorized, a parent that is -1 or another
// audited call (no cycles), and a hazard only on a nested call.
func validateAudit(grant string, audit []AuditEntry) error {
	if len(audit) > 0 && grant == "" {
		return errors.New("audit without a grant (grant names the grant the calls were audited against)")
	}
	index := make(map[int]int, len(audit)) // call → entry
	for i, e := range audit {
		switch {
		case e.Call < 0:
			return fmt.Errorf("audit[%d]: call is %d, want an index ≥ 0", i, e.Call)
		case !slices.Contains(Decisions, e.Decision):
			return fmt.Errorf("audit[%d] (call %d): decision is %q, want one of %s", i, e.Call, e.Decision, strings.Join(Decisions, ", "))
		case e.Decision != Authorized && e.Detail == "":
			return fmt.Errorf("audit[%d] (call %d): decision %s has no detail (every decision but authorized says why)", i, e.Call, e.Decision)
		case e.Parent < -1:
			return fmt.Errorf("audit[%d] (call %d): parent is %d, want the index of the call that holds it, or -1", i, e.Call, e.Parent)
		case e.Parent == e.Call:
			return fmt.Errorf("audit[%d] (call %d): the call is its own parent", i, e.Call)
		case e.Hazard && e.Parent == -1:
			return fmt.Errorf("audit[%d] (call %d): hazard on a call that is not nested (parent -1)", i, e.Call)
		}
		if j, dup := index[e.Call]; dup {
			return fmt.Errorf("audit[%d]: call %d is audited twice (also audit[%d])", i, e.Call, j)
		}
		index[e.Call] = i
	}
	for i, e := range audit {
		if e.Parent < 0 {
			continue
		}
		if _, ok := index[e.Parent]; !ok {
			return fmt.Errorf("audit[%d] (call %d): parent call %d is not in the audit", i, e.Call, e.Parent)
		}
		p := e.Parent
		for steps := 0; p >= 0; steps++ {
			if steps == len(audit) {
				return fmt.Errorf("audit[%d] (call %d): its chain of parents is a cycle", i, e.Call)
			}
			p = audit[index[p]].Parent
		}
	}
	return nil
}

func validBundle(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// located is a record with where it was read from (File "" when it was
// not).
type located struct {
	rec Record
	Pos
}

// at renders " at file:line", or "" when the record was not read from a file.
func (l located) at() string {
	if l.File == "" {
		return ""
	}
	return " at " + l.Pos.String()
}

// Check validates every record (Record.Validate) and the rules between
// records: no two records share a key, and within one (contract, condition)
// either every attacked run carries the exposed label or none does. It
// returns all errors joined (at most 20), in key order.
func Check(recs []Record) error {
	sorted := slices.Clone(recs)
	SortRecords(sorted)
	var c checker
	var errs []error
	for _, r := range sorted {
		if err := r.Validate(); err != nil {
			errs = append(errs, err)
		}
		c.add(located{rec: r})
	}
	return errors.Join(capErrors(append(errs, c.end()...))...)
}

// capErrors keeps the first maxErrors of errs and a last one saying how
// many there were.
func capErrors(errs []error) []error {
	if len(errs) > maxErrors {
		return append(errs[:maxErrors:maxErrors], fmt.Errorf("too many errors (%d), showing the first %d", len(errs), maxErrors))
	}
	return errs
}

// checker holds the rules between records, given in key order (and by
// position among equal keys): no two share a key, and within one
// (contract, condition) either every attacked run carries the exposed label
// or none does. Read, Check and the Writer share it.
type checker struct {
	n             int
	last, first   located // the previous record; the first of its key
	with, without int     // attacked runs of the condition with and without exposed
	withEx, woEx  located // the first of each
	dups, exposed []error
}

func (c *checker) add(l located) {
	k := l.rec.Key
	switch {
	case c.n > 0 && k == c.last.rec.Key:
		c.dups = append(c.dups, duplicateError(l, c.first))
	case c.n > 0 && (k.Contract != c.last.rec.Key.Contract || k.Condition != c.last.rec.Key.Condition || k.Attack != c.last.rec.Key.Attack):
		c.endCondition()
		fallthrough
	default:
		c.first = l
	}
	c.n++
	c.last = l
	if k.Attacked() && l.rec.HasExposed {
		if c.with++; c.with == 1 {
			c.withEx = l
		}
	} else if k.Attacked() {
		if c.without++; c.without == 1 {
			c.woEx = l
		}
	}
}

// endCondition checks the exposure labels of the condition that ends.
func (c *checker) endCondition() {
	if c.with > 0 && c.without > 0 {
		c.exposed = append(c.exposed, fmt.Errorf("condition %s: label exposed is present on %d of %d attacked runs (e.g. run %s%s) and absent on %d (e.g. run %s%s); either every attacked run of a condition carries it or none",
			c.last.rec.Key.ConditionName(), c.with, c.with+c.without, c.withEx.rec.Key, c.withEx.at(), c.without, c.woEx.rec.Key, c.woEx.at()))
	}
	c.with, c.without = 0, 0
}

// end returns the duplicates, then the exposure errors, each in key order.
func (c *checker) end() []error {
	if c.n > 0 {
		c.endCondition()
	}
	return append(c.dups, c.exposed...)
}

func duplicateError(dup, first located) error {
	if dup.File == "" {
		return fmt.Errorf("duplicate run %s", dup.rec.Key)
	}
	return fmt.Errorf("%s: duplicate run %s (first at %s)", dup.Pos, dup.rec.Key, first.Pos)
}
