package runs

import (
	"strings"
	"testing"
)

// TestDecodeInvalidUTF8: invalid UTF-8 inside a string, raw or as an
// escaped lone surrogate, reads as U+FFFD, as encoding/json read it before
// the strict decoder replaced it (docs/runs-format.md).
func TestDecodeInvalidUTF8(t *testing.T) {
	in := "{\"condition\":\"a\xff\",\"task\":\"t\\ud800\",\"labels\":{\"utility\":true}}\n"
	recs, err := Read("f.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[0].Key; got.Condition != "a\uFFFD" || got.Task != "t\uFFFD" {
		t.Errorf("key %q/%q, want %q/%q", got.Condition, got.Task, "a\uFFFD", "t\uFFFD")
	}
}

// TestDecodeErrorOrder: the key's fields are checked before a duplicate
// or unknown member below the top level, whose error then names the run;
// a duplicate at the top level is not after a key. A duplicate step of a witness,
// which the old decoder let the last one win, is refused like any other.
func TestDecodeErrorOrder(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"condition":"a","labels":{"utility":true,"utility":true}}`, "f:1: missing field task"},
		{`{"condition":"a","task":"t","task":"u","labels":{"utility":true}}`, `f:1: duplicate field "task"`},
		{`{"condition":"a","task":"t","labls":{},"attempt":0}`, "f:1: field attempt is 0, want an integer ≥ 1"},
		{`{"condition":"a","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false},"invariants":{"n":false},"witnesses":{"invariants.n":{"s":"call:0","s":"call:1"}}}`,
			`f:1: run a/t/g: duplicate field "s" in witnesses.invariants.n`},
		{`{"condition":"a","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false},"invariants":{"n":false},"witnesses":{"invariants.n":{"s":7}}}`,
			`f:1: run a/t/g: witnesses.invariants.n.s is a number, want "event:N" or "call:N"`},
		{`{"condition":"a","task":"t","labels":{"utility":true},"audit":[{"call":0,"call":1}]}`, `f:1: run a/t: duplicate field "call" in audit[0]`},
		// A name from the file is never read as a format.
		{`{"condition":"a","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false},"invariants":{"x%d":false},"witnesses":{"invariants.x%d":7}}`,
			`f:1: run a/t/g: witnesses.invariants.x%d is a number, want an object of step → "event:N" or "call:N"`},
		{`[{"a":1,"a":2}]`, "f:1: want a JSON object, got an array"},
		{`{"a":1,"a":2`, "f:1: invalid JSON: unexpected end of JSON input"},
	} {
		_, err := Read("f", strings.NewReader(c.line))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.line, err, c.want)
		}
	}
}

// TestReadLineEndings: the framing rule of internal/jsonl — a "\r" at the
// very end of the input ends the line like "\r\n" — so a record of exactly
// the limit followed by "\r" is read (the old runs reader counted the
// "\r" and refused it as too long).
func TestReadLineEndings(t *testing.T) {
	line := `{"condition":"a","task":"t","labels":{"utility":true}}`
	for _, in := range []string{line + "\r", line + "\r\n", line} {
		recs, _, err := ReadFilesAtReader(len(line), in)
		if err != nil || len(recs) != 1 {
			t.Errorf("%q: %d records, error %v", in, len(recs), err)
		}
	}
	if _, _, err := ReadFilesAtReader(len(line)-1, line+"\r\n"); err == nil || !strings.Contains(err.Error(), "record longer than the limit of") {
		t.Errorf("one byte over the limit: error %v", err)
	}
}

// ReadFilesAtReader reads in as one runs file with a record limit.
func ReadFilesAtReader(limit int, in string) ([]Record, []Pos, error) {
	rd := reader{max: limit}
	rd.read("f", strings.NewReader(in))
	recs, err := rd.finish()
	return recs, nil, err
}

// TestLabelNames: the table's order and text are the runs file's.
func TestLabelNames(t *testing.T) {
	var got []string
	for _, n := range LabelNames() {
		got = append(got, n.String())
	}
	if s := strings.Join(got, ","); s != "utility,attack_success,side_effect,exposed" {
		t.Errorf("LabelNames = %s", s)
	}
	var r Record
	for _, n := range LabelNames() {
		*r.Label(n) = True()
	}
	if r.Utility != True() || r.AttackSuccess != True() || r.SideEffect != True() || r.Exposed != True() || r.Label("util") != nil {
		t.Errorf("Label does not address the record's labels: %+v", r)
	}
}

// TestKeyNameCut: a key prints a long condition cut to MaxNameWidth
// characters (internal/names).
func TestKeyNameCut(t *testing.T) {
	k := Key{Condition: strings.Repeat("g", 1<<20), Task: "t", Attempt: 1, Repetition: 1}
	if got := k.String(); len(got) != MaxNameWidth+len("…(+1048376 bytes)…/t") {
		t.Errorf("key of %d bytes", len(got))
	}
}
