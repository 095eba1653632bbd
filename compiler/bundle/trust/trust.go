package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
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
	envFiles, err := envKeyFiles()
	if err != nil {
		return pol, err
	}
	for _, k := range envFiles {
		files = append(files, source{k, verifyKeyEnv})
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

// envKeyFiles returns the key files TENET_VERIFY_KEY lists: none when it
// is unset. A variable that is set must name at least one file, and every
// entry must name one: a CI template writes "TENET_VERIFY_KEY=" (or leaves
// an empty entry, "a.pub:") when the secret behind it is missing, and that
// must not quietly mean "verify nothing" when verification was meant. So
// the safe reading of an empty value is an error, not "unset"; running
// without verification takes unsetting the variable.
func envKeyFiles() ([]string, error) {
	v, set := os.LookupEnv(verifyKeyEnv)
	if !set {
		return nil, nil
	}
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("%s is set but empty (%s): it names no public key file, and an empty value does not turn verification off (a CI secret that is not set gives one): set it to the key file(s), or unset it to load bundles without a signature check",
			verifyKeyEnv, quoteCut(v))
	}
	parts := filepath.SplitList(v)
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("%s=%s: entry %d of %d is empty: every entry (separated by %q) must name a public key file; an empty one is often a CI secret that is not set",
				verifyKeyEnv, quoteCut(v), i+1, len(parts), string(os.PathListSeparator))
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
// be checked against the runs with checkRunIDs.
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

// maxRefusedRuns bounds the runs named by one refusal of bundle ids: the
// rest are counted.
const maxRefusedRuns = 10

// fileOrder returns the indexes of recs in the order they were read (the
// files as given, each line by line), so that refusals are listed as a
// reader of the files meets them: the records themselves are sorted by key,
// and at[i] is where recs[i] was read.
func fileOrder(at []runs.Pos, files []string) []int {
	rank := map[string]int{}
	for i, f := range files {
		if _, ok := rank[f]; !ok {
			rank[f] = i
		}
	}
	idx := make([]int, len(at))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(rank[at[a].File], rank[at[b].File]); c != 0 {
			return c
		}
		return cmp.Compare(at[a].Line, at[b].Line)
	})
	return idx
}

// checkRunIDs refuses runs whose bundle field is not one of ids
// (--expect-bundle-id), each at its file and line: a run without the field
// was judged by an unknown bundle, so it cannot be the expected one. files
// are the runs files as given.
func checkRunIDs(recs []runs.Record, at []runs.Pos, files, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	want := strings.Join(ids, " or ")
	var bad []string
	n := 0
	for _, i := range fileOrder(at, files) {
		r := recs[i]
		if slices.Contains(ids, r.Bundle) {
			continue
		}
		n++
		if len(bad) == maxRefusedRuns {
			continue
		}
		if r.Bundle == "" {
			bad = append(bad, fmt.Sprintf("%s: run %s has no bundle field: which bundle judged it is unknown, and --expect-bundle-id accepts only runs judged by %s", at[i], r.Key, want))
		} else {
			bad = append(bad, fmt.Sprintf("%s: run %s was judged by %s, not by the expected bundle %s (--expect-bundle-id)", at[i], r.Key, r.Bundle, want))
		}
	}
	if n == 0 {
		return nil
	}
	if n > len(bad) {
		bad = append(bad, fmt.Sprintf("… and %d more runs", n-len(bad)))
	}
	return fmt.Errorf("%s\n%d of %d runs refused: re-run tenet eval with the expected bundle (it writes the bundle field), or leave out the runs of other bundles", strings.Join(bad, "\n"), n, len(recs))
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
