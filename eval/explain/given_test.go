package explain

import (
	"bytes"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

// TestWriteGivenBenignRun covers the branch the CLI golden cannot reach
// through a valid runs file: a source that gives attack_success on a benign
// run (where tenet judges none) gets "not compared", never a verdict; and a
// run given nothing prints nothing.
func TestWriteGivenBenignRun(t *testing.T) {
	tr, f := true, false
	r := runs.Record{Key: runs.Key{Contract: "c", Condition: "a", Task: "t"}, Utility: runs.False()}
	r.Given.Utility, r.Given.AttackSuccess = &tr, &f
	var b bytes.Buffer
	writeGiven(&b, &r)
	want := "\ngiven labels (another harness's, from the source's given block) next to ours\n" +
		"  utility: false (given: true — disagrees)\n" +
		"  attack_success: none, a benign run has no attack_success (given: false — not compared)\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	writeGiven(&b, &runs.Record{Utility: runs.True()})
	if b.Len() != 0 {
		t.Errorf("no given label: got %q, want nothing", b.String())
	}
}
