package bundle

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Signing (docs/bundle.md, "Signing"). A signature is ed25519 over the
// bundle id, prefixed with signingContext, and lives in the envelope (field
// 4), outside the payload: signing never changes the id. The payload's
// sha256 binds the id to every byte of the payload, so a valid signature
// over the id vouches for the whole payload.

// SignatureAlg is the only signature algorithm tenet writes and reads.
const SignatureAlg = "ed25519"

// signingContext separates tenet bundle signatures from anything else the
// same key might sign: a signature made for another purpose over the bytes
// "sha256:…" is not a bundle signature.
const signingContext = "tenet bundle signature v1\n"

// MaxSignatures bounds the signatures an envelope may carry, so that a
// hostile bundle cannot make reading it verify signatures without end.
const MaxSignatures = 16

// signature is one envelope signature.
type signature struct {
	Alg       string `cbor:"1,keyasint"` // SignatureAlg
	PublicKey []byte `cbor:"2,keyasint"` // 32 bytes
	Sig       []byte `cbor:"3,keyasint"` // 64 bytes
}

// Signer is a public key whose signature over a bundle's id verified.
type Signer struct {
	PublicKey ed25519.PublicKey
}

// Fingerprint names the signer's key (see Fingerprint).
func (s Signer) Fingerprint() string { return Fingerprint(s.PublicKey) }

// Fingerprint names a public key in messages and in inspect's output:
// "ed25519:" and the first 16 bytes of the key's sha256, in hex. It is for
// people to compare; verification always uses the whole key.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "ed25519:" + hex.EncodeToString(sum[:16])
}

func signedMessage(id string) []byte { return []byte(signingContext + id) }

// Sign adds key's signature to an encoded bundle and returns the new file
// bytes. The bundle is fully verified first (Sign never vouches for bytes
// that do not decode). Signing again with a key that already signed
// replaces its signature; signatures are kept sorted by public key, so the
// bytes do not depend on the order keys signed in (ed25519 signatures are
// deterministic).
func Sign(data []byte, key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("signing key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	_, id, _, err := DecodeSigned(data)
	if err != nil {
		return nil, err
	}
	var env envelope
	if err := decMode().Unmarshal(data[len(Magic):], &env); err != nil {
		return nil, fmt.Errorf("bundle is truncated or corrupt: %v", err)
	}
	pub := key.Public().(ed25519.PublicKey)
	sig := signature{Alg: SignatureAlg, PublicKey: bytes.Clone(pub), Sig: ed25519.Sign(key, signedMessage(id))}
	env.Signatures = slices.DeleteFunc(env.Signatures, func(s signature) bool { return bytes.Equal(s.PublicKey, pub) })
	if len(env.Signatures) >= MaxSignatures {
		return nil, fmt.Errorf("bundle already carries %d signatures, the most a bundle may have", len(env.Signatures))
	}
	env.Signatures = append(env.Signatures, sig)
	slices.SortFunc(env.Signatures, func(a, b signature) int { return bytes.Compare(a.PublicKey, b.PublicKey) })
	out, err := encMode().Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("encoding bundle envelope: %w", err)
	}
	return append([]byte(Magic), out...), nil
}

// verifySignatures checks every signature of an envelope against the
// public key recorded with it: a signature that does not verify means the
// bundle or the signature was altered, and the bundle is refused even when
// no key is trusted. It returns the signers in envelope order.
func verifySignatures(id string, sigs []signature) ([]Signer, error) {
	if len(sigs) > MaxSignatures {
		return nil, fmt.Errorf("bundle carries %d signatures, more than the %d a bundle may have", len(sigs), MaxSignatures)
	}
	// One encoding per signed bundle, as Sign writes it: no empty list,
	// signatures sorted by public key. Anything else was not made by tenet.
	if sigs != nil && len(sigs) == 0 {
		return nil, fmt.Errorf("bundle envelope has an empty signature list (an unsigned bundle has none)")
	}
	var signers []Signer
	for i, s := range sigs {
		n := i + 1
		if s.Alg != SignatureAlg {
			return nil, fmt.Errorf("bundle signature %d uses algorithm %q: this tenet verifies %s signatures only", n, s.Alg, SignatureAlg)
		}
		if len(s.PublicKey) != ed25519.PublicKeySize || len(s.Sig) != ed25519.SignatureSize {
			return nil, fmt.Errorf("bundle signature %d is malformed: a %d-byte key and a %d-byte signature, want %d and %d",
				n, len(s.PublicKey), len(s.Sig), ed25519.PublicKeySize, ed25519.SignatureSize)
		}
		pub := ed25519.PublicKey(s.PublicKey)
		if !ed25519.Verify(pub, signedMessage(id), s.Sig) {
			return nil, fmt.Errorf("bundle signature %d (key %s) does not verify: the bundle or its signature was altered after signing", n, Fingerprint(pub))
		}
		if i > 0 {
			switch bytes.Compare(sigs[i-1].PublicKey, s.PublicKey) {
			case 0:
				return nil, fmt.Errorf("bundle signature %d repeats key %s", n, Fingerprint(pub))
			case 1:
				return nil, fmt.Errorf("bundle signatures are not sorted by public key (signature %d): they were not written by tenet", n)
			}
		}
		signers = append(signers, Signer{PublicKey: pub})
	}
	return signers, nil
}

// Policy says which bundles a command accepts. The zero Policy accepts
// every bundle that decodes.
type Policy struct {
	// Keys, when not empty, are the trusted public keys: a bundle must
	// carry a valid signature by at least one of them.
	Keys []ed25519.PublicKey
	// IDs, when not empty, are the bundle ids accepted (any other is
	// refused), each "sha256:<hex>".
	IDs []string
}

// Check applies the policy to a bundle's id and verified signers.
func (p Policy) Check(id string, signers []Signer) error {
	if len(p.IDs) > 0 && !slices.Contains(p.IDs, id) {
		return fmt.Errorf("bundle %s is not the expected bundle %s (--expect-bundle-id)", id, strings.Join(p.IDs, " or "))
	}
	if len(p.Keys) == 0 {
		return nil
	}
	if len(signers) == 0 {
		return fmt.Errorf("bundle %s is not signed, and a signature by %s is required (--verify-key or TENET_VERIFY_KEY): sign it with tenet build --sign KEY", id, p.trusted())
	}
	for _, s := range signers {
		for _, k := range p.Keys {
			if k.Equal(s.PublicKey) {
				return nil
			}
		}
	}
	by := make([]string, len(signers))
	for i, s := range signers {
		by[i] = s.Fingerprint()
	}
	return fmt.Errorf("bundle %s is signed only by %s, not by a trusted key (trusted: %s, from --verify-key or TENET_VERIFY_KEY)", id, strings.Join(by, ", "), p.trusted())
}

func (p Policy) trusted() string {
	names := make([]string, len(p.Keys))
	for i, k := range p.Keys {
		names[i] = Fingerprint(k)
	}
	return strings.Join(names, " or ")
}

// Key files (written by tenet keygen) are text: lines starting with '#'
// and blank lines are comments; exactly one other line holds a label and
// the standard base64 of the key, separated by one space. A private key
// file holds the 32-byte ed25519 seed (RFC 8032's private key), a public
// key file the 32-byte public key.
const (
	PrivateKeyLabel = "tenet-ed25519-private-key"
	PublicKeyLabel  = "tenet-ed25519-public-key"
)

// MaxKeyFileBytes bounds the size of a key file tenet reads.
const MaxKeyFileBytes = 4096

// MarshalPrivateKey renders a private key file.
func MarshalPrivateKey(key ed25519.PrivateKey) []byte {
	pub := key.Public().(ed25519.PublicKey)
	return fmt.Appendf(nil, "# tenet bundle signing key %s: keep it secret\n%s %s\n",
		Fingerprint(pub), PrivateKeyLabel, base64.StdEncoding.EncodeToString(key.Seed()))
}

// MarshalPublicKey renders a public key file.
func MarshalPublicKey(pub ed25519.PublicKey) []byte {
	return fmt.Appendf(nil, "# tenet bundle verification key %s\n%s %s\n",
		Fingerprint(pub), PublicKeyLabel, base64.StdEncoding.EncodeToString(pub))
}

// ParsePrivateKey reads a private key file.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	seed, err := parseKey(data, PrivateKeyLabel, PublicKeyLabel, "a public key file: signing needs the private key file tenet keygen wrote next to it (the one without .pub)", ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// ParsePublicKey reads a public key file.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	pub, err := parseKey(data, PublicKeyLabel, PrivateKeyLabel, "a private key file: verification needs the public key file (.pub), and the private key should not be shared", ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(pub), nil
}

func parseKey(data []byte, label, other, otherIs string, size int) ([]byte, error) {
	var found []byte
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, b64, ok := strings.Cut(line, " ")
		switch {
		case name == other:
			return nil, fmt.Errorf("line %d: this is %s", i+1, otherIs)
		case name != label || !ok:
			return nil, fmt.Errorf("line %d: want %q followed by a space and the key in base64 (a key file written by tenet keygen)", i+1, label)
		case found != nil:
			return nil, fmt.Errorf("line %d: a second key; a key file holds one", i+1)
		}
		key, err := base64.StdEncoding.Strict().DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("line %d: the key is not valid base64: %v", i+1, err)
		}
		if len(key) != size {
			return nil, fmt.Errorf("line %d: the key has %d bytes, want %d", i+1, len(key), size)
		}
		found = key
	}
	if found == nil {
		return nil, errors.New("no key: want a line " + label + " followed by the key in base64 (a key file written by tenet keygen)")
	}
	return found, nil
}
