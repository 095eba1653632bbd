package runsort

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/runstest"
)

// TestBodyRoundTrip encodes random records of every shape (runstest:
// empty but non-nil maps and slices, given labels, witnesses, nested audit
// entries, non-ASCII text) and decodes them back equal (reflect.DeepEqual,
// which tells nil from empty), for several seeds; the same records through
// a Sorter that spills every one (budget 1) come back equal too.
func TestBodyRoundTrip(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		recs := runstest.Adversarial(200, seed)
		var b []byte
		for i := range recs {
			b = appendBody(b[:0], &recs[i])
			var got runs.Record
			got.Key = recs[i].Key
			if err := decodeBody(b, &got); err != nil {
				t.Fatalf("seed %d, run %s: %v", seed, recs[i].Key, err)
			}
			if !reflect.DeepEqual(got, recs[i]) {
				t.Fatalf("seed %d: run %s comes back as\n%#v\nwant\n%#v", seed, recs[i].Key, got, recs[i])
			}
		}
		s := NewSorter(t.TempDir(), 1)
		for i := range recs {
			if err := s.Add(recs[i], runs.Seq{Line: i + 1}); err != nil {
				t.Fatal(err)
			}
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[runs.Key]runs.Record{}
		for it.Next() {
			byKey[it.Record().Key] = it.Record()
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		for _, r := range recs {
			if !reflect.DeepEqual(byKey[r.Key], r) {
				t.Fatalf("seed %d: run %s does not come back equal from the spill", seed, r.Key)
			}
		}
		if s.Spills() != len(recs) {
			t.Errorf("seed %d: %d spills, want %d", seed, s.Spills(), len(recs))
		}
		s.Close()
	}
}

// TestBodyCorrupt: every truncation of an encoded body, and trailing
// bytes, are errCorrupt, not a panic or a wrong record.
func TestBodyCorrupt(t *testing.T) {
	recs := runstest.Adversarial(20, 3)
	for i := range recs {
		b := appendBody(nil, &recs[i])
		for n := range len(b) {
			var got runs.Record
			if err := decodeBody(b[:n], &got); !errors.Is(err, errCorrupt) {
				t.Fatalf("run %s cut at %d of %d bytes: %v, want errCorrupt", recs[i].Key, n, len(b), err)
			}
		}
		var got runs.Record
		if err := decodeBody(append(bytes.Clone(b), 0), &got); !errors.Is(err, errCorrupt) {
			t.Fatalf("run %s with a trailing byte: %v, want errCorrupt", recs[i].Key, err)
		}
	}
}

// FuzzDecodeBody: decoding arbitrary bytes never panics, and what decodes
// encodes back to a body that decodes to the same record.
func FuzzDecodeBody(f *testing.F) {
	for _, r := range runstest.Adversarial(10, 1) {
		f.Add(appendBody(nil, &r))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var rec runs.Record
		if decodeBody(b, &rec) != nil {
			return
		}
		var again runs.Record
		if err := decodeBody(appendBody(nil, &rec), &again); err != nil || !reflect.DeepEqual(again, rec) {
			t.Fatalf("re-encoded record differs: %v", err)
		}
	})
}
