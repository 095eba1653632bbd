package bundle

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

func sample() *Bundle {
	return &Bundle{
		Header:   Header{CompilerVersion: "test", CELVersion: "v0"},
		Manifest: Manifest{Contract: "c", Version: "1", Files: []FileDigest{{Path: "a.tenet.hcl", SHA256: "00"}}, ThreatModel: ThreatModel{AttemptBudget: 1, Exposure: NoExpr}},
		Decls: Decls{
			Operations: []string{"read", "update"},
			Scopes:     []Scope{{Params: []Param{{Name: "p", Value: map[string]any{"b": []any{1.5, "x", true, nil}, "a": 2.0}}}}},
		},
		Exprs: []Expr{{Kind: "utility", Owner: "task t", Env: "criterion", Text: "true", ResultType: "bool", Checked: []byte{1, 2, 3}}},
		Plan: Plan{
			Tasks: []TaskPlan{{ID: "t", Utility: Criterion{Expr: 0, Patterns: []PatternUse{{Pattern: 0, Negate: true}}}}},
			Patterns: []PatternPlan{{Owner: "task t (match)", Text: "a _* b", Steps: []StepPlan{{Name: "a", Call: "x", When: NoExpr}, {Name: "b", Role: "user", When: 0, Refs: []int{0}}},
				Program: []Inst{{Op: OpStep}, {Op: OpSplit, X: 2, Y: 4}, {Op: OpAny}, {Op: OpJmp, X: 1}, {Op: OpStep, X: 1}, {Op: OpMatch}}, Keyed: []int{0}}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	data, id, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	got, gotID, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	want.Header.FormatVersion = FormatVersion
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %+v\nwant %+v", got, want)
	}
	if gotID != id || !strings.HasPrefix(id, "sha256:") || len(id) != len("sha256:")+64 {
		t.Errorf("ids %q and %q", id, gotID)
	}
}

// TestDeterministic: map iteration order must not reach the bytes.
func TestDeterministic(t *testing.T) {
	first, id, _ := Encode(sample())
	for i := 0; i < 20; i++ {
		again, id2, _ := Encode(sample())
		if !bytes.Equal(first, again) || id != id2 {
			t.Fatalf("encoding %d differs", i)
		}
	}
}

func TestRefusals(t *testing.T) {
	good, _, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x01
		return b
	}
	rewrap := func(format uint64, payload []byte, sum []byte) []byte {
		env, err := encMode().Marshal(envelope{Format: format, SHA256: sum, Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte(Magic), env...)
	}
	var env envelope
	if err := cbor.Unmarshal(good[len(Magic):], &env); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(env.Payload)
	// A payload with an extra field, correctly hashed: still refused.
	var loose map[string]any
	if err := cbor.Unmarshal(env.Payload, &loose); err != nil {
		t.Fatal(err)
	}
	loose["extra"] = 1
	extra, _ := encMode().Marshal(loose)
	extraSum := sha256.Sum256(extra)

	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a tenet bundle (bad magic bytes): the file is empty"},
		{"half the magic", []byte(Magic[:4]), "bundle is truncated: 4 bytes, less than its magic"},
		{"text", []byte("contract \"x\" {}"), "not a tenet bundle (bad magic bytes)"},
		{"magic only", []byte(Magic), "bundle is truncated or corrupt: EOF"},
		{"truncated", good[:len(good)-10], "bundle is truncated or corrupt: unexpected EOF"},
		{"flipped magic", flip(1), "not a tenet bundle (bad magic bytes)"},
		{"flipped payload byte", flip(len(good) - 5), "bundle is corrupt: sha256 of its payload is "},
		{"future format", rewrap(FormatVersion+1, env.Payload, sum[:]), "bundle format version 3 is newer than this tenet reads (2): use a newer tenet or rebuild the bundle"},
		{"format beyond int64", rewrap(1<<64-1, env.Payload, sum[:]), "bundle format version 18446744073709551615 is newer than this tenet reads (2)"},
		{"old format", rewrap(0, env.Payload, sum[:]), "bundle format version 0 is not supported (this tenet reads 2): rebuild the bundle"},
		// Format 1 had no unmetered bounds (issue 17): refused, not read
		// as if every expression were metered, so that a bundle says what
		// its expressions cost.
		{"format 1", rewrap(1, env.Payload, sum[:]), "bundle format version 1 is not supported (this tenet reads 2): rebuild the bundle"},
		{"unknown field", rewrap(FormatVersion, extra, extraSum[:]), `bundle payload does not decode: cbor: found unknown field at map element index 3`},
		{"trailing bytes", append(bytes.Clone(good), 0), fmt.Sprintf("bundle has 1 trailing byte after its end (at byte %d of %d): bytes were appended to the bundle file", len(good), len(good)+1)},
		{"trailing bundle", append(bytes.Clone(good), good...), fmt.Sprintf("bundle has %d trailing bytes after its end (at byte %d of %d)", len(good), len(good), 2*len(good))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Decode(c.data)
			if err == nil {
				t.Fatalf("accepted")
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q\nwant prefix %q", err, c.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	b := sample()
	b.Plan.Tasks[0].Utility = Criterion{Expr: 7, Patterns: []PatternUse{{Pattern: 2}}}
	b.Plan.Patterns[0].Program[1].Y = 9
	b.Plan.Patterns[0].Program[4].X = 5
	b.Plan.Sources = []SourcePlan{{Name: "s", Select: NoExpr, Task: NoExpr, Goal: NoExpr, Condition: 0, Attempt: NoExpr, Repetition: NoExpr, Given: Given{NoExpr, NoExpr, 3}}}
	err := b.Validate()
	want := "task t refers to expression 7 of 1\ntask t refers to pattern 2 of 1\n" +
		"pattern 0 (task t (match)): instruction 1 jumps to 9 of 6\npattern 0 (task t (match)): instruction 4 names step 5 of 2\n" +
		"source s task refers to expression -1 of 1\nsource s given.side_effect refers to expression 3 of 1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
