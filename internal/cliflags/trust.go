package cliflags

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
)

// VerifyKeyEnv names the environment variable that lists trusted public
// key files (separated as PATH is), in addition to --verify-key: set once
// in CI, it makes every command that loads a bundle require a signature.
const VerifyKeyEnv = "TENET_VERIFY_KEY"

// Trust is the flags of every command that loads a bundle: which
// signers and which bundle ids it accepts (docs/bundle.md, "Signing").
type Trust struct {
	keys []string
	ids  []string
}

func (t *Trust) Add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&t.keys, "verify-key", nil,
		"accept only a bundle signed by the key in this public key file (repeatable: any of them; also "+VerifyKeyEnv+")")
	cmd.Flags().StringArrayVar(&t.ids, "expect-bundle-id", nil,
		"accept only the bundle with this id, sha256:<hex> (repeatable: any of them)")
}

// Policy reads the trusted keys (--verify-key, then TENET_VERIFY_KEY,
// which when set must name at least one file: see trust.SplitKeyList) and
// the expected ids.
func (t *Trust) Policy() (bundle.Policy, error) {
	keys := trust.KeyFiles("--verify-key", t.keys...)
	if v, set := os.LookupEnv(VerifyKeyEnv); set {
		files, err := trust.SplitKeyList(VerifyKeyEnv, v)
		if err != nil {
			return bundle.Policy{}, err
		}
		keys = append(keys, trust.KeyFiles(VerifyKeyEnv, files...)...)
	}
	return trust.NewPolicy(keys, t.ids)
}

// keySources names where the trusted keys came from, for messages.
func (t *Trust) keySources() string {
	_, env := os.LookupEnv(VerifyKeyEnv)
	switch {
	case len(t.keys) > 0 && env:
		return "--verify-key and " + VerifyKeyEnv
	case len(t.keys) > 0:
		return "--verify-key"
	}
	return VerifyKeyEnv
}

// InForce names the trust flags in force ("" when none): a key from
// --verify-key or TENET_VERIFY_KEY, or --expect-bundle-id.
func (t *Trust) InForce(pol bundle.Policy) string {
	var on []string
	if len(pol.Keys) > 0 {
		on = append(on, t.keySources())
	}
	if len(pol.IDs) > 0 {
		on = append(on, "--expect-bundle-id")
	}
	return strings.Join(on, " and ")
}

// AddRunsOnly adds the trust flags of a command that reads runs files and
// no bundle (compare): --expect-bundle-id checks the runs' bundle field;
// --verify-key is accepted only to be refused with the reason, rather
// than as an unknown flag.
func (t *Trust) AddRunsOnly(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&t.keys, "verify-key", nil,
		"refused: a runs file carries no signature (verify the bundle with tenet report --contract X.tnb --verify-key PUB); "+VerifyKeyEnv+" set is refused too")
	cmd.Flags().StringArrayVar(&t.ids, "expect-bundle-id", nil,
		"accept only runs whose bundle field is this id, sha256:<hex> (repeatable: any of them)")
}

// RunsPolicy is the policy of a command that reads runs files without a
// bundle (report without --contract, compare). A runs file's bundle field
// is a claim anyone can write, with no signature to check, so a required
// signature (--verify-key or TENET_VERIFY_KEY) cannot be met: it is an
// error, not a check silently skipped. The expected ids are returned, to
// be checked against the runs with assemble.CheckIDs.
func (t *Trust) RunsPolicy(how string) (bundle.Policy, error) {
	pol, err := t.Policy()
	if err != nil {
		return pol, err
	}
	if len(pol.Keys) > 0 {
		return pol, fmt.Errorf("a bundle signature is required (%s), but runs files carry none: their bundle field is an unsigned claim. %s", t.keySources(), how)
	}
	return pol, nil
}
