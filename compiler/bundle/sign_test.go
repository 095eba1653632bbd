package bundle

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"strings"
	"testing"
)

func testKey(name string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(name))
	return ed25519.NewKeyFromSeed(seed[:])
}

func pubOf(k ed25519.PrivateKey) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

// TestSignKeepsID: signing leaves the payload and so the id unchanged,
// records the signer, and the order keys sign in does not change the bytes.
func TestSignKeepsID(t *testing.T) {
	data, id, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	a, b := testKey("a"), testKey("b")
	ab, err := Sign(data, a)
	if err == nil {
		ab, err = Sign(ab, b)
	}
	if err != nil {
		t.Fatal(err)
	}
	ba, _ := Sign(data, b)
	ba, _ = Sign(ba, a)
	if !bytes.Equal(ab, ba) {
		t.Error("signing in another order gives other bytes")
	}
	again, _ := Sign(ab, a)
	if !bytes.Equal(again, ab) {
		t.Error("signing again with the same key changes the bytes")
	}
	_, gotID, signers, err := DecodeSigned(ab)
	if err != nil || gotID != id || len(signers) != 2 {
		t.Fatalf("DecodeSigned: id %s (want %s), %d signers, %v", gotID, id, len(signers), err)
	}
	if err := (Policy{Keys: []ed25519.PublicKey{pubOf(b)}, IDs: []string{id}}).Check(gotID, signers); err != nil {
		t.Errorf("trusted signer refused: %v", err)
	}
	_, _, signers, _ = DecodeSigned(data)
	if len(signers) != 0 {
		t.Errorf("unsigned bundle has %d signers", len(signers))
	}
}

// TestSignedEveryByteFlipIsDetected: in a signed bundle, a change to any
// byte (payload, hash or signature) is refused by Decode, with or without a
// trusted key.
func TestSignedEveryByteFlipIsDetected(t *testing.T) {
	data, _, _ := Encode(sample())
	signed, err := Sign(data, testKey("a"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range signed {
		bad := bytes.Clone(signed)
		bad[i] ^= 0x01
		if _, _, err := Decode(bad); err == nil {
			t.Fatalf("flipping byte %d of %d went undetected", i, len(signed))
		}
	}
	last := bytes.Clone(signed)
	last[len(last)-1] ^= 0xff
	_, _, err = Decode(last)
	if want := "bundle signature 1 (key " + Fingerprint(pubOf(testKey("a"))) + ") does not verify: the bundle or its signature was altered after signing"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

func TestPolicyRefusals(t *testing.T) {
	data, id, _ := Encode(sample())
	signed, _ := Sign(data, testKey("a"))
	_, _, signers, _ := DecodeSigned(signed)
	trustB := Policy{Keys: []ed25519.PublicKey{pubOf(testKey("b"))}}
	for _, tc := range []struct {
		pol     Policy
		signers []Signer
		want    string
	}{
		{trustB, nil, "is not signed, and a signature by " + Fingerprint(pubOf(testKey("b"))) + " is required"},
		{trustB, signers, "is signed only by " + Fingerprint(pubOf(testKey("a"))) + ", not by a trusted key"},
		{Policy{IDs: []string{"sha256:00"}}, signers, "is not the expected bundle sha256:00"},
	} {
		err := tc.pol.Check(id, tc.signers)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check: %v, want %q", err, tc.want)
		}
	}
	if err := (Policy{}).Check(id, nil); err != nil {
		t.Errorf("the zero policy refuses: %v", err)
	}
}

func TestKeyFiles(t *testing.T) {
	k := testKey("a")
	got, err := ParsePrivateKey(MarshalPrivateKey(k))
	if err != nil || !got.Equal(k) {
		t.Fatalf("private key round trip: %v", err)
	}
	pub, err := ParsePublicKey(MarshalPublicKey(pubOf(k)))
	if err != nil || !pub.Equal(pubOf(k)) {
		t.Fatalf("public key round trip: %v", err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no key"},
		{"# only a comment\n", "no key"},
		{"tenet-ed25519-public-key AAAA\n", "line 1: the key has 3 bytes, want 32"},
		{"tenet-ed25519-public-key !!\n", "line 1: the key is not valid base64"},
		{"ssh-ed25519 AAAA\n", `line 1: want "tenet-ed25519-public-key" followed by a space`},
		{string(MarshalPrivateKey(k)), "line 2: this is a private key file"},
		{string(MarshalPublicKey(pubOf(k))) + string(MarshalPublicKey(pubOf(k))), "line 4: a second key"},
	} {
		_, err := ParsePublicKey([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePublicKey(%q): %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := ParsePrivateKey(MarshalPublicKey(pubOf(k))); err == nil || !strings.Contains(err.Error(), "this is a public key file") {
		t.Errorf("ParsePrivateKey(public key): %v", err)
	}
}

// TestMaxSignatures: a bundle carries at most MaxSignatures signatures.
func TestMaxSignatures(t *testing.T) {
	data, _, _ := Encode(sample())
	var err error
	for i := range MaxSignatures {
		if data, err = Sign(data, testKey(strings.Repeat("k", i+1))); err != nil {
			t.Fatalf("signature %d: %v", i+1, err)
		}
	}
	if _, err := Sign(data, testKey("one more")); err == nil || !strings.Contains(err.Error(), "already carries 16 signatures") {
		t.Errorf("signature %d: %v", MaxSignatures+1, err)
	}
	if _, _, signers, err := DecodeSigned(data); err != nil || len(signers) != MaxSignatures {
		t.Errorf("DecodeSigned: %d signers, %v", len(signers), err)
	}
}

// TestSignatureListCanonical: an envelope whose signature list is empty or
// unsorted is refused, so that a bundle that decodes re-encodes to the
// same bytes (FuzzDecode's property).
func TestSignatureListCanonical(t *testing.T) {
	data, _, _ := Encode(sample())
	signed, _ := Sign(data, testKey("a"))
	signed, _ = Sign(signed, testKey("b"))
	var env envelope
	if err := decMode().Unmarshal(signed[len(Magic):], &env); err != nil {
		t.Fatal(err)
	}
	// Without omitempty, so that an empty list is written.
	type rawEnvelope struct {
		Format     uint64      `cbor:"1,keyasint"`
		SHA256     []byte      `cbor:"2,keyasint"`
		Payload    []byte      `cbor:"3,keyasint"`
		Signatures []signature `cbor:"4,keyasint"`
	}
	rewrap := func(sigs []signature) []byte {
		e := rawEnvelope{env.Format, env.SHA256, env.Payload, sigs}
		out, err := encMode().Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte(Magic), out...)
	}
	for _, tc := range []struct {
		sigs []signature
		want string
	}{
		{[]signature{}, "bundle envelope has an empty signature list"},
		{[]signature{env.Signatures[1], env.Signatures[0]}, "bundle signatures are not sorted by public key (signature 2)"},
		{[]signature{env.Signatures[0], env.Signatures[0]}, "bundle signature 2 repeats key"},
	} {
		_, _, err := Decode(rewrap(tc.sigs))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode: %v, want %q", err, tc.want)
		}
	}
}

// TestNullSignatureListRefused: {4: null} decodes as no signatures but is
// not what tenet writes; it is refused.
func TestNullSignatureListRefused(t *testing.T) {
	data, _, _ := Encode(sample())
	var env envelope
	if err := decMode().Unmarshal(data[len(Magic):], &env); err != nil {
		t.Fatal(err)
	}
	type rawEnvelope struct {
		Format     uint64 `cbor:"1,keyasint"`
		SHA256     []byte `cbor:"2,keyasint"`
		Payload    []byte `cbor:"3,keyasint"`
		Signatures any    `cbor:"4,keyasint"`
	}
	out, err := encMode().Marshal(rawEnvelope{env.Format, env.SHA256, env.Payload, nil})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Decode(append([]byte(Magic), out...))
	if err == nil || err.Error() != "bundle envelope is not in the deterministic encoding tenet writes: it was not written by tenet" {
		t.Errorf("Decode: %v", err)
	}
}
