package bundle_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
)

// TestEveryByteFlipIsDetected: changing any single byte of a real bundle
// (the shipped banking contract), to any of three other values, makes
// Decode refuse it, so a bundle damaged or edited in transit is never
// evaluated.
func TestEveryByteFlipIsDetected(t *testing.T) {
	_, b, diags := compiler.CompileDir(filepath.Join("..", "..", "contracts", "agentdojo", "banking"), compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	data, _, err := bundle.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := bundle.Decode(data); err != nil {
		t.Fatalf("the untouched bundle is refused: %v", err)
	}
	for i := range data {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= mask
			if _, _, err := bundle.Decode(bad); err == nil {
				t.Fatalf("flipping byte %d of %d with %#x went undetected", i, len(data), mask)
			}
		}
	}
	t.Logf("%d bytes × 3 flips, all refused", len(data))
}
