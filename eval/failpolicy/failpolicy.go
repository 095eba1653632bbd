// Package failpolicy says which failures fail a run (exit code 1): the
// kinds of failure a command can have (failed gates, violated or undecided
// invariants, failed contract tests), the invariants' severities, and the
// Policy that leaves some kinds, or invariants below a severity, reported
// but not failing (tenet --fail-on, --fail-on-severity; docs/cli.md). It
// decides nothing about errors (exit code 2), which always fail. It
// imports nothing of tenet: eval/report holds a Policy in its Document and
// applies it where the exit code is decided; internal/cliflags parses the
// flags into one.
package failpolicy

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is a kind of failure that gives exit code 1.
type Kind string

const (
	Gates      Kind = "gates"      // a gate requirement failed
	Invariants Kind = "invariants" // an invariant was violated, or could not be decided, on some run
	Tests      Kind = "tests"      // a contract test failed
)

// None is the --fail-on value that fails on no kind: every failure is
// reported, none gives exit code 1.
const None = "none"

// KindsOf returns the kinds of failure command can have: gates and
// invariants for eval and report, tests for test, none for compare (whose
// exit code is 0 or 2).
func KindsOf(command string) []Kind {
	switch command {
	case "eval", "report":
		return []Kind{Gates, Invariants}
	case "test":
		return []Kind{Tests}
	}
	return nil
}

// Severity is an invariant's severity (docs/language.md, `severity`),
// ordered: Low < Medium < High < Critical. The zero value, Unknown, is the
// severity of an invariant whose contract was not read (runs files
// reported without --contract): never taken as low.
type Severity int

const (
	Unknown Severity = iota
	Low
	Medium
	High
	Critical
)

var severityNames = [...]string{Unknown: "unknown", Low: "low", Medium: "medium", High: "high", Critical: "critical"}

// SeverityNames are the severities a contract or --fail-on-severity can
// name, lowest first.
func SeverityNames() []string { return slices.Clone(severityNames[Low:]) }

func (s Severity) String() string {
	if s < Unknown || s > Critical {
		return fmt.Sprintf("Severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity returns the severity named s (low, medium, high or
// critical); false for any other string.
func ParseSeverity(s string) (Severity, bool) {
	i := slices.Index(severityNames[:], s)
	if i <= int(Unknown) {
		return Unknown, false
	}
	return Severity(i), true
}

// Severities maps a contract's name, then an invariant's, to the
// invariant's severity; nil knows none.
type Severities map[string]map[string]Severity

// Of returns the severity of invariant in contract: Unknown when it is not
// known.
func (s Severities) Of(contract, invariant string) Severity {
	return s[contract][invariant]
}

// Policy says which failures fail the run. Its zero value is the default:
// every failure does. The failures it leaves out are still reported (the
// Document's NotFailing), with the reason.
type Policy struct {
	// Ignore lists the kinds of failure that do not fail the run (those
	// --fail-on does not name).
	Ignore []Kind
	// MinSeverity: an invariant of a lower severity does not fail the run
	// (--fail-on-severity). An invariant of Unknown severity always does
	// (fail closed). Unknown (the zero value): every severity fails.
	MinSeverity Severity
}

// FailOn returns the kinds of kinds that fail the run under p, in the order
// of kinds (a command's KindsOf): the --fail-on the policy stands for.
func (p Policy) FailOn(kinds []Kind) []Kind {
	var out []Kind
	for _, k := range kinds {
		if !slices.Contains(p.Ignore, k) {
			out = append(out, k)
		}
	}
	return out
}

// Fails reports whether a failure of kind k (of an invariant of severity
// sev, for Invariants) fails the run under p; when it does not, note says
// why, to follow the failure's line: "(not failing: --fail-on gates)",
// "(not failing: severity medium, below --fail-on-severity high)". kinds
// are the command's (KindsOf), for the --fail-on the note quotes.
func (p Policy) Fails(k Kind, sev Severity, kinds []Kind) (fails bool, note string) {
	if slices.Contains(p.Ignore, k) {
		on := p.FailOn(kinds)
		names := make([]string, len(on))
		for i, o := range on {
			names[i] = string(o)
		}
		if len(names) == 0 {
			names = []string{None}
		}
		return false, "(not failing: --fail-on " + strings.Join(names, ",") + ")"
	}
	if k == Invariants && p.MinSeverity != Unknown && sev != Unknown && sev < p.MinSeverity {
		return false, fmt.Sprintf("(not failing: severity %s, below --fail-on-severity %s)", sev, p.MinSeverity)
	}
	return true, ""
}

// Parse returns the Policy of --fail-on value (a comma list of kinds, or
// none) for a command whose failures are of the given kinds (KindsOf): the
// kinds not named are ignored. It refuses, with one sentence naming the
// valid values, an empty value or element, an unknown kind, a kind the
// command cannot have, and none with anything else.
func Parse(value string, kinds []Kind) (Policy, error) {
	var want string
	switch len(kinds) {
	case 0:
		want = "want " + None
	case 1:
		want = "want " + string(kinds[0]) + " or " + None
	default:
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = string(k)
		}
		want = "want a comma list of " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + ", or " + None
	}
	parts := strings.Split(value, ",")
	var on []Kind
	for _, part := range parts {
		s := strings.TrimSpace(part)
		switch {
		case s == "":
			return Policy{}, fmt.Errorf("--fail-on %q has an empty value: %s", value, want)
		case s == None:
			if len(parts) > 1 {
				return Policy{}, fmt.Errorf("--fail-on %q: none cannot be combined with other values", value)
			}
		case slices.Contains(kinds, Kind(s)):
			on = append(on, Kind(s))
		case s == string(Gates) || s == string(Invariants) || s == string(Tests):
			return Policy{}, fmt.Errorf("--fail-on %s: this command has no %s to fail on; %s", s, s, want)
		default:
			return Policy{}, fmt.Errorf("unknown --fail-on value %q: %s", s, want)
		}
	}
	var p Policy
	for _, k := range kinds {
		if !slices.Contains(on, k) {
			p.Ignore = append(p.Ignore, k)
		}
	}
	return p, nil
}
