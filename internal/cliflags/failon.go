package cliflags

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/failpolicy"
)

// FailOn is --fail-on and, for a command with invariants,
// --fail-on-severity: which failures give exit code 1 (docs/cli.md, "Exit
// codes"). The failures left out are still reported.
type FailOn struct {
	// Policy is the policy the flags say, set before the command runs.
	Policy failpolicy.Policy

	kinds    []failpolicy.Kind
	on       []string // every --fail-on given: more than one is refused
	severity []string // every --fail-on-severity given
}

// Add declares --fail-on on cmd, the command named command (one of
// report's Command constants, whose failures are of the kinds
// failpolicy.KindsOf gives), and --fail-on-severity when they include
// invariants. Before cmd runs, the flags are checked (a refusal is exit
// 2) and Policy set. A command with a --contract flag (report) knows the
// invariants' severities only when it is given.
func (f *FailOn) Add(cmd *cobra.Command, command string) {
	kinds := failpolicy.KindsOf(command)
	f.kinds = kinds
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	cmd.Flags().StringArrayVar(&f.on, "fail-on", nil, "the failures that give exit code 1: a `LIST` of "+strings.Join(names, ", ")+" (comma-separated), or none; the others are reported, not failing (default: all of them)")
	if slices.Contains(kinds, failpolicy.Invariants) {
		cmd.Flags().StringArrayVar(&f.severity, "fail-on-severity", nil, "violated or undecided invariants of a severity below `LEVEL` ("+strings.Join(failpolicy.SeverityNames(), ", ")+") are reported, not failing (default: every severity)")
	}
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if prev != nil {
			if err := prev(c, args); err != nil {
				return err
			}
		}
		known := true
		if fl := c.Flags().Lookup("contract"); fl != nil {
			known = fl.Value.String() != ""
		}
		var err error
		f.Policy, err = f.policy(known)
		return err
	}
}

// policy returns the policy the flags say. severityKnown says whether the
// invariants' severities are known (their contract is read): without them
// --fail-on-severity is refused rather than any invariant taken as low.
func (f *FailOn) policy(severityKnown bool) (failpolicy.Policy, error) {
	if len(f.on) > 1 {
		return failpolicy.Policy{}, fmt.Errorf("--fail-on given %d times: give it once, with a comma list (--fail-on %s)", len(f.on), strings.Join(f.on, ","))
	}
	if len(f.severity) > 1 {
		return failpolicy.Policy{}, fmt.Errorf("--fail-on-severity given %d times: give it once", len(f.severity))
	}
	var p failpolicy.Policy
	if len(f.on) == 1 {
		var err error
		if p, err = failpolicy.Parse(f.on[0], f.kinds); err != nil {
			return p, err
		}
	}
	if len(f.severity) == 0 {
		return p, nil
	}
	sev, ok := failpolicy.ParseSeverity(f.severity[0])
	switch {
	case !ok:
		names := failpolicy.SeverityNames()
		return p, fmt.Errorf("unknown --fail-on-severity %q: want %s or %s", f.severity[0], strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	case slices.Contains(p.Ignore, failpolicy.Invariants):
		return p, fmt.Errorf("--fail-on-severity applies to invariants, which --fail-on %s leaves out: give one or the other", f.on[0])
	case !severityKnown:
		return p, fmt.Errorf("--fail-on-severity needs the invariants' severities, which runs files do not carry: give --contract, the contract that judged the runs")
	}
	p.MinSeverity = sev
	return p, nil
}
