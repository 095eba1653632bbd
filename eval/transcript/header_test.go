package transcript

import (
	"reflect"
	"testing"
)

// TestHeaderLines: a record without "messages" is a header line (skipped,
// counted) unless it names "messages" in another case or holds messages
// under another name: then it is bad input at its line, where before it
// was counted as a header and its run silently dropped (issue 13, item 3).
// "Metadata" without "metadata" is bad input too (it was ignored).
func TestHeaderLines(t *testing.T) {
	input := lines(
		`{"metadata":{"benchmark":"agent-dojo","name":"m"}}`,
		`{"Messages":[{"role":"user","content":"hi"}],"metadata":{"task":"t"}}`,
		`{"MESSAGES ":[],"metadata":{"task":"t"}}`,
		`{"metadata":{"task":"t"},"turns":[{"Role":"user","content":"hi"}]}`,
		`{"index":3,"tags":["a",{"x":1}],"notes":[]}`,
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[],"Metadata":{"task":"t"}}`,
		`{"messages":[],"metadata":{},"Metadata":{"task":"t"}}`,
	)
	rs, errs, skipped := readAll(t, input, Options{})
	want := []string{
		`t.jsonl:2: no "messages" member, but "Messages": member names are case-sensitive (a misspelt "messages"?)`,
		`t.jsonl:3: no "messages" member, but "MESSAGES ": member names are case-sensitive (a misspelt "messages"?)`,
		`t.jsonl:4: no "messages" member, but "turns" holds a list of messages (objects with a role): a transcript must be under "messages"; a header line has no messages`,
		`t.jsonl:7: no "metadata" member, but "Metadata": member names are case-sensitive (a misspelt "metadata"?)`,
	}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("errors\n%q\nwant\n%q", errs, want)
	}
	if len(rs) != 2 || skipped != 2 {
		t.Errorf("%d runs, %d skipped; want 2 runs (lines 6 and 8), 2 header lines (lines 1 and 5)", len(rs), skipped)
	}
}
