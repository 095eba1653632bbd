package runs

import (
	"strings"
	"testing"
)

// TestCallIndexes: under a grant the audit counts the run's calls, so an
// audit entry or a witness naming a call beyond them is refused (second
// review, finding 9: call 99 and call:999 were accepted). Without a grant
// the count is not recorded, and no "event:N" can be checked.
func TestCallIndexes(t *testing.T) {
	const head = `{"condition":"c","task":"t","labels":{"utility":true},`
	const run = "r.jsonl:1: run c/t: "
	const one = `"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized"}]`
	const inv = `"invariants":{"n":false},`
	for _, tt := range []struct{ in, want string }{
		{`"grant":"g","audit":[{"call":99,"tool":"x","decision":"authorized"}]}`, run + "audit[0]: call is 99, but the audit has 1 entry: it decides each of the run's calls once, so they are call 0"},
		{`"grant":"g","audit":[{"call":0,"tool":"x","decision":"authorized"},{"call":2,"tool":"x","decision":"authorized"}]}`, run + "audit[1]: call is 2, but the audit has 2 entries: it decides each of the run's calls once, so they are calls 0..1"},
		{inv + `"witnesses":{"invariants.n":{"a":"event:3","b":"call:999"}},` + one + `}`, run + `witnesses.invariants.n.b is "call:999", but the run has 1 call (its audit under grant g decides each call once, so they are call 0)`},
		{inv + `"witnesses":{"invariants.n":{"b":"call:0"}},"grant":"g"}`, run + `witnesses.invariants.n.b is "call:0", but the run has 0 calls (its audit under grant g decides each call once, so they are none)`},
	} {
		_, err := Read("r.jsonl", strings.NewReader(head+tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s\ngot  %v\nwant %s", tt.in, err, tt.want)
		}
	}
	for _, in := range []string{
		// Entries in any order (nested calls come first).
		`"grant":"g","audit":[{"call":1,"tool":"x","decision":"authorized"},{"call":0,"tool":"x","decision":"authorized","parent":1}]}`,
		inv + `"witnesses":{"invariants.n":{"a":"event:999","b":"call:0"}},` + one + `}`,
		// No grant: the number of calls is not in the record.
		inv + `"witnesses":{"invariants.n":{"b":"call:999"}}}`,
	} {
		if _, err := Read("r.jsonl", strings.NewReader(head+in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
