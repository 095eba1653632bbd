package trust

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// TENET_VERIFY_KEY: set, every entry must name a file (review finding 3:
// ":" and "" turned verification off).
func TestSplitKeyList(t *testing.T) {
	if os.PathListSeparator != ':' {
		t.Skip("the cases separate entries with ':'")
	}
	for _, tc := range []struct {
		value string
		files []string
		err   string
	}{
		{"a.pub", []string{"a.pub"}, ""},
		{"a.pub:b.pub", []string{"a.pub", "b.pub"}, ""},
		{"", nil, `TENET_VERIFY_KEY is set but empty ("")`},
		{"  ", nil, `TENET_VERIFY_KEY is set but empty ("  ")`},
		{":", nil, `TENET_VERIFY_KEY=":": entry 1 of 2 is empty`},
		{"a.pub::b.pub", nil, `TENET_VERIFY_KEY="a.pub::b.pub": entry 2 of 3 is empty`},
		{"a.pub: ", nil, `TENET_VERIFY_KEY="a.pub: ": entry 2 of 2 is empty`},
		{strings.Repeat("x", 300) + ":", nil, `… (101 more bytes): entry 2 of 2 is empty`},
	} {
		files, err := SplitKeyList("TENET_VERIFY_KEY", tc.value)
		if tc.err == "" {
			if err != nil || strings.Join(files, "|") != strings.Join(tc.files, "|") {
				t.Errorf("%q: got %q, %v; want %q", tc.value, files, err, tc.files)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) || files != nil {
			t.Errorf("%q: got %q, %v; want an error containing %q", tc.value, files, err, tc.err)
		}
	}
}

// TestKeyPairPolicy writes a key pair, refuses to replace it, reads both
// halves back into a policy and a signing key, and names the flag and file
// of each key file that cannot be used.
func TestKeyPairPolicy(t *testing.T) {
	dir := t.TempDir()
	priv := filepath.Join(dir, "k")
	pubPath, pub, err := WriteKeyPair(priv)
	if err != nil || pubPath != priv+".pub" {
		t.Fatalf("WriteKeyPair: %q, %v", pubPath, err)
	}
	if st, err := os.Stat(priv); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("private key file: %v, %v; want mode 0600", st, err)
	}
	if _, _, err := WriteKeyPair(priv); err == nil || err.Error() != priv+" exists: keygen does not replace a key file (remove it or choose another name with -o)" {
		t.Errorf("second WriteKeyPair: %v", err)
	}
	big := filepath.Join(dir, "big.pub")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), bundle.MaxKeyFileBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	id := "sha256:" + strings.Repeat("ab", 32)
	pol, err := NewPolicy(KeyFiles("--verify-key", pubPath), []string{id})
	if err != nil || len(pol.Keys) != 1 || !pol.Keys[0].Equal(pub) || len(pol.IDs) != 1 || pol.IDs[0] != id {
		t.Fatalf("NewPolicy: %+v, %v", pol, err)
	}
	keys, err := ReadPrivateKeys(KeyFiles("--sign", priv))
	if err != nil || len(keys) != 1 || !bytes.Equal(keys[0].Public().(ed25519.PublicKey), pub) {
		t.Fatalf("ReadPrivateKeys: %v, %v", keys, err)
	}
	for _, c := range []struct {
		keys []KeyFile
		ids  []string
		want string
	}{
		{KeyFiles("--verify-key", priv), nil, "--verify-key " + priv + ": line 2: this is a private key file"},
		{KeyFiles("TENET_VERIFY_KEY", filepath.Join(dir, "none")), nil, "TENET_VERIFY_KEY: stat " + filepath.Join(dir, "none") + ": no such file or directory"},
		{KeyFiles("--verify-key", dir), nil, "--verify-key: " + dir + " is not a regular file; a key file is a small text file written by tenet keygen"},
		{KeyFiles("--verify-key", big), nil, "--verify-key: " + big + " is larger than the limit of 4096 bytes"},
		{nil, []string{"sha256:AB"}, `--expect-bundle-id "sha256:AB": want sha256: and 64 lowercase hex digits, as tenet build prints`},
	} {
		pol, err := NewPolicy(c.keys, c.ids)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || pol.Keys != nil || pol.IDs != nil {
			t.Errorf("NewPolicy(%v, %q): %+v, %v; want an error starting %q", c.keys, c.ids, pol, err, c.want)
		}
	}
	if _, err := ReadPrivateKeys(KeyFiles("--sign", pubPath)); err == nil || !strings.HasPrefix(err.Error(), "--sign "+pubPath+": line 2: this is a public key file") {
		t.Errorf("ReadPrivateKeys of a public key: %v", err)
	}
	if pol, err := NewPolicy(nil, nil); err != nil || pol.Keys != nil || pol.IDs != nil {
		t.Errorf("NewPolicy(nil, nil) = %+v, %v; want the zero policy", pol, err)
	}
}
