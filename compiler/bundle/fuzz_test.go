package bundle_test

import (
	"bytes"
	"crypto/sha256"
	"reflect"
	"sync"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/fuzzseed"
)

// seedBundles compiles the repository's contracts (fuzzseed.Contracts)
// and returns the bundle files of those that compile, of at most 16 KiB.
func seedBundles(f *testing.F) [][]byte {
	out := compiledSeeds()
	if len(out) == 0 {
		f.Fatal("no contract compiled")
	}
	return out
}

// compiledSeeds compiles the seed contracts once for both fuzz targets of
// the package (a second compile of every seed was half of each target's
// time); the targets only read the bundles.
var compiledSeeds = sync.OnceValue(func() [][]byte {
	var out [][]byte
	for _, c := range fuzzseed.Contracts() {
		built, diags := compiler.BuildFiles("seed", c.Files, compiler.Options{Formats: transcript.Formats()})
		if diags.HasErrors() {
			continue
		}
		data := built.Data
		if len(data) > 16<<10 {
			continue // the AgentDojo bundles: slow to plan, the mutator gets further from small ones
		}
		out = append(out, data)
	}
	return out
})

// envelope is a bundle file split into its envelope fields.
type envelope struct {
	Format  int    `cbor:"1,keyasint"`
	SHA256  []byte `cbor:"2,keyasint"`
	Payload []byte `cbor:"3,keyasint"`
}

func wrap(t testing.TB, format int, payload []byte) []byte {
	sum := sha256.Sum256(payload)
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	env, err := em.Marshal(envelope{Format: format, SHA256: sum[:], Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(bundle.Magic), env...)
}

func payloadOf(t testing.TB, data []byte) []byte {
	var env envelope
	if err := cbor.Unmarshal(data[len(bundle.Magic):], &env); err != nil {
		t.Fatal(err)
	}
	return env.Payload
}

// FuzzDecode feeds arbitrary bytes to bundle.Decode and eval.Load, what
// `tenet eval`, `inspect` and `explain` do with a .tnb file: each returns
// an error or a bundle, never panics. A bundle that decodes re-encodes to
// the very same bytes. Seeds: the bundles of every contract in the
// repository, truncated, with flipped bytes and with a future format
// version.
func FuzzDecode(f *testing.F) {
	for i, data := range seedBundles(f) {
		f.Add(data)
		if i%8 != 0 { // the mutations of a few bundles are enough
			continue
		}
		f.Add(data[:len(data)/2])
		f.Add(data[:len(bundle.Magic)+3])
		for _, at := range []int{3, len(bundle.Magic) + 1, len(data) / 2, len(data) - 1} {
			bad := bytes.Clone(data)
			bad[at] ^= 0x40
			f.Add(bad)
		}
		f.Add(wrap(f, bundle.FormatVersion+1, payloadOf(f, data)))
	}
	f.Add([]byte{})
	f.Add([]byte(bundle.Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, id, err := bundle.Decode(data)
		p, lerr := eval.Load(data)
		if err != nil {
			if lerr == nil {
				t.Fatalf("Decode refuses (%v) but Load accepts", err)
			}
			return
		}
		again, againID, eerr := bundle.Encode(b)
		if eerr != nil || !bytes.Equal(again, data) || againID != id {
			t.Fatalf("a decoded bundle re-encodes differently (err %v)", eerr)
		}
		if lerr == nil && p.ID != id {
			t.Fatalf("Load gives id %s, Decode %s", p.ID, id)
		}
	})
}

// FuzzDecodePayload fuzzes what a bundle holds rather than its envelope:
// the input is wrapped as the payload of a well-formed envelope with the
// right sha256, so that every mutation reaches the payload decoder,
// Validate and eval's planning (which rebuilds CEL programs from the
// checked expressions). Each must refuse or accept, never panic; an
// accepted bundle survives an encode/decode round trip unchanged. Seeds:
// the payloads of the bundles of every contract in the repository.
func FuzzDecodePayload(f *testing.F) {
	for _, data := range seedBundles(f) {
		f.Add(payloadOf(f, data))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		data := wrap(t, bundle.FormatVersion, payload)
		b, id, err := bundle.Decode(data)
		if err != nil {
			return
		}
		again, againID, err := bundle.Encode(b)
		if err != nil {
			t.Fatalf("a decoded bundle does not encode: %v", err)
		}
		b2, id2, err := bundle.Decode(again)
		if err != nil || !reflect.DeepEqual(b2, b) || id2 != againID {
			t.Fatalf("round trip: %v", err)
		}
		if bytes.Equal(again, data) != (againID == id) {
			t.Fatalf("ids and bytes disagree")
		}
		eval.Plan(b, id) // an error or a program; never a panic
	})
}
