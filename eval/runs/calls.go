package runs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// validateCalls checks the call indexes of a run against its number of
// calls, where the record shows it. A runs record has no call count of its
// own, but an audit decides each of the run's calls exactly once (eval
// audits every call under a grant): so with a grant, the run has
// len(Audit) calls, numbered 0..len(Audit)-1 (the indexes are distinct,
// validateAudit checks it), and a call index in the audit or in a witness
// ("call:N") beyond that names a call the run does not have. Without a
// grant the number of calls is not recorded, and nothing is checked; nor
// is "event:N", for no record counts its events.
func validateCalls(r Record) error {
	if r.Grant == "" {
		return nil
	}
	n := len(r.Audit)
	for i, e := range r.Audit {
		if e.Call >= n {
			return fmt.Errorf("audit[%d]: call is %d, but the audit has %d %s: it decides each of the run's calls once, so they are %s", i, e.Call, n, Plural(n, "entry", "entries"), callRange(n))
		}
	}
	names := make([]string, 0, len(r.Witnesses))
	for name := range r.Witnesses {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		steps := r.Witnesses[name]
		keys := make([]string, 0, len(steps))
		for step := range steps {
			keys = append(keys, step)
		}
		sort.Strings(keys)
		for _, step := range keys {
			it := steps[step]
			num, ok := strings.CutPrefix(it, "call:")
			if !ok {
				continue
			}
			if c, err := strconv.Atoi(num); err == nil && c >= n {
				return fmt.Errorf("witnesses.%s.%s is %q, but the run has %d %s (its audit under grant %s decides each call once, so they are %s)", name, step, it, n, Plural(n, "call", "calls"), Safe(r.Grant), callRange(n))
			}
		}
	}
	return nil
}

// Plural is the noun for n things in a message: one when n is 1, else
// many (eval/metrics and eval/assemble use it too).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// callRange names the call indexes of a run with n calls.
func callRange(n int) string {
	switch n {
	case 0:
		return "none"
	case 1:
		return "call 0"
	}
	return fmt.Sprintf("calls 0..%d", n-1)
}
