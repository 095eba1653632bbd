// Package trust reads what decides which bundles a command accepts and
// signs with (docs/bundle.md, "Signing"): key files (public keys to
// verify with, private keys to sign with), lists of key files as an
// environment variable holds them, expected bundle ids, and the
// bundle.Policy they make; and it writes a new key pair.
//
// It takes file paths and strings already read by the caller (flags and
// environment variables are the CLI's), each tagged with where it came
// from so that messages can name the flag or variable; it gives keys, a
// bundle.Policy or an error naming the likely cause. Verifying a bundle's
// signatures against the policy is bundle.DecodeSigned and Policy.Check.
// It imports compiler/bundle and internal packages only.
package trust

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/readlimit"
)

// KeyFile is a key file to read and where its name came from (a flag such
// as "--verify-key", or an environment variable's name), for messages.
type KeyFile struct {
	Path, From string
}

// KeyFiles tags each of paths with from.
func KeyFiles(from string, paths ...string) []KeyFile {
	files := make([]KeyFile, len(paths))
	for i, p := range paths {
		files[i] = KeyFile{Path: p, From: from}
	}
	return files
}

// NewPolicy reads the trusted public keys and checks the expected bundle
// ids (given with --expect-bundle-id). A key file that cannot be read or
// parsed is an error: a typo must not silently turn verification off.
func NewPolicy(keys []KeyFile, ids []string) (bundle.Policy, error) {
	var pol bundle.Policy
	var err error
	if pol.Keys, err = ReadPublicKeys(keys); err != nil {
		return bundle.Policy{}, err
	}
	for _, id := range ids {
		if !bundleIDRE.MatchString(id) {
			return bundle.Policy{}, fmt.Errorf("--expect-bundle-id %q: want sha256: and 64 lowercase hex digits, as tenet build prints", id)
		}
		pol.IDs = append(pol.IDs, id)
	}
	return pol, nil
}

var bundleIDRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// ReadPublicKeys reads public key files (tenet keygen's NAME.pub).
func ReadPublicKeys(files []KeyFile) ([]ed25519.PublicKey, error) {
	return readKeys(files, bundle.ParsePublicKey)
}

// ReadPrivateKeys reads private key files, to sign bundles with.
func ReadPrivateKeys(files []KeyFile) ([]ed25519.PrivateKey, error) {
	return readKeys(files, bundle.ParsePrivateKey)
}

func readKeys[K any](files []KeyFile, parse func([]byte) (K, error)) ([]K, error) {
	var keys []K
	for _, f := range files {
		data, err := ReadKeyFile(f.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.From, err)
		}
		k, err := parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v", f.From, f.Path, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// ReadKeyFile reads a key file, which must be a regular file (a named
// pipe or a device would block or never end) of at most
// bundle.MaxKeyFileBytes.
func ReadKeyFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; a key file is a small text file written by tenet keygen", path)
	}
	return readlimit.ReadFile(path, bundle.MaxKeyFileBytes)
}

// SplitKeyList splits the value of the environment variable name, which
// is set, into the key files it lists (separated as PATH is). It must name
// at least one file, and every entry must name one: a CI template writes
// "NAME=" (or leaves an empty entry, "a.pub:") when the secret behind it
// is missing, and that must not quietly mean "verify nothing" when
// verification was meant. So the safe reading of an empty value is an
// error, not "unset"; running without verification takes unsetting the
// variable.
func SplitKeyList(name, value string) ([]string, error) {
	if strings.TrimSpace(value) == "" {
		return nil, fmt.Errorf("%s is set but empty (%s): it names no public key file, and an empty value does not turn verification off (a CI secret that is not set gives one): set it to the key file(s), or unset it to load bundles without a signature check",
			name, quoteCut(value))
	}
	parts := filepath.SplitList(value)
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%s=%s: entry %d of %d is empty: every entry (separated by %q) must name a public key file; an empty one is often a CI secret that is not set",
				name, quoteCut(value), i+1, len(parts), string(os.PathListSeparator))
		}
	}
	return parts, nil
}

// quoteCut quotes an environment variable's value for a message, cut to
// 200 bytes: the value can be as long as the system allows.
func quoteCut(v string) string {
	const max = 200
	if len(v) <= max {
		return strconv.Quote(v)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", strconv.Quote(v[:cut]), len(v)-cut)
}

// WriteKeyPair makes an ed25519 key pair: the private key in privPath
// (mode 0600) and the public key in privPath + ".pub", which it returns
// with the public key. It never replaces an existing file, and writes the
// private key first: a public key whose private key was not written would
// be useless, so when the public key cannot be written the private key is
// removed.
func WriteKeyPair(privPath string) (pubPath string, pub ed25519.PublicKey, err error) {
	pubPath = privPath + ".pub"
	for _, p := range []string{privPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return "", nil, fmt.Errorf("%s exists: keygen does not replace a key file (remove it or choose another name with -o)", p)
		}
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", nil, err
	}
	if err := atomicfile.Write(privPath, bundle.MarshalPrivateKey(priv), 0o600); err != nil {
		return "", nil, err
	}
	if err := atomicfile.Write(pubPath, bundle.MarshalPublicKey(pub), 0o644); err != nil {
		os.Remove(privPath)
		return "", nil, fmt.Errorf("%v (%s, written first, was removed)", err, privPath)
	}
	return pubPath, pub, nil
}
