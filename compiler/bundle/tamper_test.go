package bundle_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/internal/testtier"
)

// TestEveryByteFlipIsDetected: changing a single byte of a real bundle
// (the shipped banking contract) makes Decode refuse it, so a bundle
// damaged or edited in transit is never evaluated. The default tier flips
// the first and last 4 KiB and every 61st byte between, the heavy tier
// (TENET_HEAVY=1) every byte. Envelope bytes are flipped to three other
// values each; a payload byte once, since the payload's sha256 refuses any
// change to it alike.
func TestEveryByteFlipIsDetected(t *testing.T) {
	built, diags := compiler.BuildDir(filepath.Join("..", "..", "contracts", "agentdojo", "banking"), compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	data := built.Data
	if _, _, err := bundle.Decode(data); err != nil {
		t.Fatalf("the untouched bundle is refused: %v", err)
	}
	// Each flip of a payload byte costs a sha256 of the whole payload, so
	// flipping them all is quadratic: the default tier flips the first and
	// last 512 bytes (the envelope, about 50 bytes, and the payload's edges)
	// and every 127th byte between; the heavy tier flips every byte.
	const edge = 512
	every := 127
	if testtier.HeavyOn() {
		every = 1
	}
	payload, flipped := 0, 0
	for i := range data {
		if i >= edge && i < len(data)-edge && i%every != 0 {
			continue
		}
		flipped++
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= mask
			_, _, err := bundle.Decode(bad)
			if err == nil {
				t.Fatalf("flipping byte %d of %d with %#x went undetected", i, len(data), mask)
			}
			// A byte of the payload is refused by its sha256, which any
			// change of the payload changes: the other two values of that
			// byte would take the same path (and most of this test's time).
			if strings.Contains(err.Error(), "sha256 of its payload is") {
				payload++
				break
			}
		}
	}
	if payload < flipped/2 {
		t.Fatalf("only %d of %d bytes flipped were refused by the payload's sha256: is the payload where this test thinks?", payload, flipped)
	}
	t.Logf("%d of %d bytes flipped, all refused (%d of them payload bytes refused by the sha256 at the first flip; the others × 3 flips)", flipped, len(data), payload)
}
