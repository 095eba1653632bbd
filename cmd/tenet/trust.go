package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/internal/readlimit"
)

// verifyKeyEnv names the environment variable that lists trusted public
// key files (separated as PATH is), in addition to --verify-key: set once
// in CI, it makes every command that loads a bundle require a signature.
const verifyKeyEnv = "TENET_VERIFY_KEY"

// trustFlags are the flags of every command that loads a bundle: which
// signers and which bundle ids it accepts (docs/bundle.md, "Signing").
type trustFlags struct {
	keys []string
	ids  []string
}

func (t *trustFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&t.keys, "verify-key", nil,
		"accept only a bundle signed by the key in this public key file (repeatable: any of them; also "+verifyKeyEnv+")")
	cmd.Flags().StringArrayVar(&t.ids, "expect-bundle-id", nil,
		"accept only the bundle with this id, sha256:<hex> (repeatable: any of them)")
}

var bundleIDRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// policy reads the trusted keys (--verify-key, then TENET_VERIFY_KEY) and
// the expected ids. A key file that cannot be read or parsed is an error:
// a typo must not silently turn verification off.
func (t *trustFlags) policy() (bundle.Policy, error) {
	var pol bundle.Policy
	type source struct{ path, from string }
	var files []source
	for _, k := range t.keys {
		files = append(files, source{k, "--verify-key"})
	}
	for _, k := range filepath.SplitList(os.Getenv(verifyKeyEnv)) {
		if k != "" {
			files = append(files, source{k, verifyKeyEnv})
		}
	}
	for _, f := range files {
		data, err := readKeyFile(f.path)
		if err != nil {
			return pol, fmt.Errorf("%s: %v", f.from, err)
		}
		pub, err := bundle.ParsePublicKey(data)
		if err != nil {
			return pol, fmt.Errorf("%s %s: %v", f.from, f.path, err)
		}
		pol.Keys = append(pol.Keys, pub)
	}
	for _, id := range t.ids {
		if !bundleIDRE.MatchString(id) {
			return pol, fmt.Errorf("--expect-bundle-id %q: want sha256: and 64 lowercase hex digits, as tenet build prints", id)
		}
		pol.IDs = append(pol.IDs, id)
	}
	return pol, nil
}

// loadProgram is loadProgram under the flags' policy.
func (t *trustFlags) loadProgram(path string, stderr io.Writer) (*eval.Program, error) {
	pol, err := t.policy()
	if err != nil {
		return nil, err
	}
	return loadProgram(path, stderr, pol)
}

// loadPrograms is loadPrograms under the flags' policy.
func (t *trustFlags) loadPrograms(path string, stderr io.Writer) ([]*eval.Program, error) {
	pol, err := t.policy()
	if err != nil {
		return nil, err
	}
	return loadPrograms(path, stderr, pol)
}

// readKeyFile reads a key file, which must be a regular file: a named pipe
// or a device would block or never end.
func readKeyFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; a key file is a small text file written by tenet keygen", path)
	}
	return readlimit.ReadFile(path, bundle.MaxKeyFileBytes)
}
