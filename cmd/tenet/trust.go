package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
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

// policy reads the trusted keys (--verify-key, then TENET_VERIFY_KEY,
// which when set must name at least one file: see trust.SplitKeyList) and
// the expected ids.
func (t *trustFlags) policy() (bundle.Policy, error) {
	keys := trust.KeyFiles("--verify-key", t.keys...)
	if v, set := os.LookupEnv(verifyKeyEnv); set {
		files, err := trust.SplitKeyList(verifyKeyEnv, v)
		if err != nil {
			return bundle.Policy{}, err
		}
		keys = append(keys, trust.KeyFiles(verifyKeyEnv, files...)...)
	}
	return trust.NewPolicy(keys, t.ids)
}

// keySources names where the trusted keys came from, for messages.
func (t *trustFlags) keySources() string {
	_, env := os.LookupEnv(verifyKeyEnv)
	switch {
	case len(t.keys) > 0 && env:
		return "--verify-key and " + verifyKeyEnv
	case len(t.keys) > 0:
		return "--verify-key"
	}
	return verifyKeyEnv
}

// inForce names the trust flags in force ("" when none): a key from
// --verify-key or TENET_VERIFY_KEY, or --expect-bundle-id.
func (t *trustFlags) inForce(pol bundle.Policy) string {
	var on []string
	if len(pol.Keys) > 0 {
		on = append(on, t.keySources())
	}
	if len(pol.IDs) > 0 {
		on = append(on, "--expect-bundle-id")
	}
	return strings.Join(on, " and ")
}

// addRunsOnly adds the trust flags of a command that reads runs files and
// no bundle (compare): --expect-bundle-id checks the runs' bundle field;
// --verify-key is accepted only to be refused with the reason, rather
// than as an unknown flag.
func (t *trustFlags) addRunsOnly(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&t.keys, "verify-key", nil,
		"refused: a runs file carries no signature (verify the bundle with tenet report --contract X.tnb --verify-key PUB); "+verifyKeyEnv+" set is refused too")
	cmd.Flags().StringArrayVar(&t.ids, "expect-bundle-id", nil,
		"accept only runs whose bundle field is this id, sha256:<hex> (repeatable: any of them)")
}

// runsPolicy is the policy of a command that reads runs files without a
// bundle (report without --contract, compare). A runs file's bundle field
// is a claim anyone can write, with no signature to check, so a required
// signature (--verify-key or TENET_VERIFY_KEY) cannot be met: it is an
// error, not a check silently skipped. The expected ids are returned, to
// be checked against the runs with assemble.CheckIDs.
func (t *trustFlags) runsPolicy(how string) (bundle.Policy, error) {
	pol, err := t.policy()
	if err != nil {
		return pol, err
	}
	if len(pol.Keys) > 0 {
		return pol, fmt.Errorf("a bundle signature is required (%s), but runs files carry none: their bundle field is an unsigned claim. %s", t.keySources(), how)
	}
	return pol, nil
}
