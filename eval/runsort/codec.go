package runsort

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/tenetlang/tenet/eval/runs"
)

// The Sorter's own encoding of a record body (everything but its key, which
// an entry holds apart): varints and length-prefixed strings in a fixed
// field order, with nil and empty maps and slices told apart. It is private
// to one process (memory and the Sorter's temporary files), never a file
// format: the runs file stays JSON, encoded once by runs.Writer. It replaces
// a runs-file line per record, which cost a JSON encode at Add and a strict
// JSON decode at Next for every run that outgrew the memory budget
// (docs/performance.md, "Memory").

// errCorrupt is what decodeBody gives for bytes it did not write: only a
// temporary file changed under the Sorter produces it.
var errCorrupt = errors.New("corrupt spilled record")

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendInt(b []byte, v int) []byte { return binary.AppendVarint(b, int64(v)) }

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// appendLen appends a map's or slice's length plus one, 0 for nil, so that
// an empty one comes back empty and a nil one nil (reflect.DeepEqual tells
// them apart).
func appendLen(b []byte, n int, isNil bool) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

func appendLabel(b []byte, l runs.Label) []byte {
	var f byte
	if l.Known {
		f |= 1
	}
	if l.Value {
		f |= 2
	}
	return appendString(append(b, f), l.Reason)
}

func appendGiven(b []byte, v *bool) []byte {
	switch {
	case v == nil:
		return append(b, 0)
	case *v:
		return append(b, 2)
	}
	return append(b, 1)
}

func appendLabels(b []byte, m map[string]runs.Label) []byte {
	b = appendLen(b, len(m), m == nil)
	for name, l := range m {
		b = appendLabel(appendString(b, name), l)
	}
	return b
}

// appendBody appends r's body: every field but Key.
func appendBody(b []byte, r *runs.Record) []byte {
	b = appendString(b, r.Bundle)
	b = appendString(b, r.OriginFile)
	b = appendInt(b, r.OriginLine)
	b = appendBool(b, r.GoalTask)
	for _, l := range [...]runs.Label{r.Utility, r.AttackSuccess, r.SideEffect, r.Exposed} {
		b = appendLabel(b, l)
	}
	b = appendBool(b, r.HasExposed)
	b = appendGiven(b, r.Given.Utility)
	b = appendGiven(b, r.Given.AttackSuccess)
	b = appendGiven(b, r.Given.SideEffect)
	b = appendLabels(b, r.Invariants)
	b = appendLabels(b, r.Failures)
	b = appendInt(b, r.AttemptBudget)
	b = appendString(b, r.Grant)
	b = appendLen(b, len(r.Audit), r.Audit == nil)
	for i := range r.Audit {
		e := &r.Audit[i]
		b = appendInt(b, e.Call)
		b = appendString(b, e.Tool)
		b = appendString(b, e.Decision)
		b = appendString(b, e.Detail)
		b = appendInt(b, e.Parent)
		b = appendBool(b, e.Hazard)
		b = appendString(b, e.Mismatch)
	}
	b = appendLen(b, len(r.Witnesses), r.Witnesses == nil)
	for name, steps := range r.Witnesses {
		b = appendString(b, name)
		b = appendLen(b, len(steps), steps == nil)
		for step, item := range steps {
			b = appendString(appendString(b, step), item)
		}
	}
	b = appendLen(b, len(r.Excerpt), r.Excerpt == nil)
	for item, text := range r.Excerpt {
		b = appendString(appendString(b, item), text)
	}
	return b
}

// bodyReader decodes what appendBody wrote; the first error sticks and
// every later read gives zero values.
type bodyReader struct {
	b   []byte
	err error
}

func (r *bodyReader) fail() { r.err, r.b = errCorrupt, nil }

func (r *bodyReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *bodyReader) int() int {
	v, n := binary.Varint(r.b)
	if n <= 0 || v < math.MinInt || v > math.MaxInt {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *bodyReader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *bodyReader) bool() bool { return r.byte() != 0 }

func (r *bodyReader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// len reads appendLen's value: the length, and whether it was nil. A
// length longer than the bytes left (each element takes one at least) is
// corrupt, so a bad length cannot make a huge allocation.
func (r *bodyReader) len() (int, bool) {
	n := r.uvarint()
	if n == 0 {
		return 0, true
	}
	if n-1 > uint64(len(r.b)) {
		r.fail()
		return 0, true
	}
	return int(n - 1), r.err != nil
}

func (r *bodyReader) label() runs.Label {
	f := r.byte()
	return runs.Label{Known: f&1 != 0, Value: f&2 != 0, Reason: r.string()}
}

func (r *bodyReader) given() *bool {
	switch r.byte() {
	case 0:
		return nil
	case 1:
		v := false
		return &v
	}
	v := true
	return &v
}

func (r *bodyReader) labels() map[string]runs.Label {
	n, isNil := r.len()
	if isNil {
		return nil
	}
	m := make(map[string]runs.Label, n)
	for range n {
		name := r.string()
		m[name] = r.label()
	}
	return m
}

// decodeBody decodes a body appendBody wrote into rec (its Key is left as
// it is).
func decodeBody(b []byte, rec *runs.Record) error {
	r := &bodyReader{b: b}
	rec.Bundle = r.string()
	rec.OriginFile = r.string()
	rec.OriginLine = r.int()
	rec.GoalTask = r.bool()
	for _, l := range [...]*runs.Label{&rec.Utility, &rec.AttackSuccess, &rec.SideEffect, &rec.Exposed} {
		*l = r.label()
	}
	rec.HasExposed = r.bool()
	rec.Given.Utility = r.given()
	rec.Given.AttackSuccess = r.given()
	rec.Given.SideEffect = r.given()
	rec.Invariants = r.labels()
	rec.Failures = r.labels()
	rec.AttemptBudget = r.int()
	rec.Grant = r.string()
	if n, isNil := r.len(); !isNil {
		rec.Audit = make([]runs.AuditEntry, n)
		for i := range rec.Audit {
			e := &rec.Audit[i]
			e.Call = r.int()
			e.Tool = r.string()
			e.Decision = r.string()
			e.Detail = r.string()
			e.Parent = r.int()
			e.Hazard = r.bool()
			e.Mismatch = r.string()
		}
	}
	if n, isNil := r.len(); !isNil {
		rec.Witnesses = make(map[string]map[string]string, n)
		for range n {
			name := r.string()
			var steps map[string]string
			if m, isNil := r.len(); !isNil {
				steps = make(map[string]string, m)
				for range m {
					step := r.string()
					steps[step] = r.string()
				}
			}
			rec.Witnesses[name] = steps
		}
	}
	if n, isNil := r.len(); !isNil {
		rec.Excerpt = make(map[string]string, n)
		for range n {
			item := r.string()
			rec.Excerpt[item] = r.string()
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	return r.err
}
