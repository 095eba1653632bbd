// Package flagcheck applies tenet's flag conventions to a whole command
// tree at once, so that every command follows them without code of its own
// (docs/cli.md, "Conventions"):
//
//   - a scalar flag (a string, a number, a switch) given twice is refused,
//     since only the last value would count; list flags (cobra's
//     stringArray and stringSlice, and counts) are repeatable by design;
//   - an empty value is refused where it cannot mean the default: for a
//     flag that names a file or a thing (Named), and for any string flag
//     whose default is not empty (`--format ""`);
//   - "-" for an output flag (Outputs) means standard output only where the
//     command says so (AcceptDash); elsewhere it is refused, so that no
//     command ever writes a file named "-";
//   - flags that contradict each other (Conflicts) are refused with one
//     sentence.
//
// Install wraps every scalar flag's value to count how often it is given;
// Check, the root command's PersistentPreRunE, refuses what breaks a rule.
// All state lives in the flags of the tree Install was given: nothing is
// global, and a new tree (one per tenet invocation) starts afresh.
package flagcheck

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Named are the string flags whose value names a file, a contract, a run
// or a condition. Their empty default means "not given" (no runs file, the
// report on stdout), so an empty value given on purpose — often an unset
// shell variable, `--out "$RUNS"` — would silently mean "not given".
var Named = map[string]bool{"out": true, "report-out": true, "contract": true, "log": true, "run": true, "reference": true, "defended": true}

// Outputs are the flags that name a file a command writes.
var Outputs = map[string]bool{"out": true, "report-out": true, "log": true}

// dashAnnotation marks an output flag whose "-" means standard output.
const dashAnnotation = "tenet-stdout-dash"

// AcceptDash declares that the command's output flag name takes "-" for
// standard output (the command then handles "-" itself).
func AcceptDash(cmd *cobra.Command, name string) {
	if err := cmd.Flags().SetAnnotation(name, dashAnnotation, []string{"true"}); err != nil {
		panic(err) // a misspelt flag name: a programming error, caught by every test
	}
}

// AcceptsDash reports whether f takes "-" for standard output.
func AcceptsDash(f *pflag.Flag) bool { return len(f.Annotations[dashAnnotation]) > 0 }

// counted is a scalar flag's value that remembers every value given.
type counted struct {
	pflag.Value
	given []string
}

func (c *counted) Set(s string) error {
	c.given = append(c.given, s)
	return c.Value.Set(s)
}

// repeatable reports whether a flag of this type is meant to be given more
// than once: lists (stringArray, stringSlice, …) and counts.
func repeatable(v pflag.Value) bool {
	if _, ok := v.(pflag.SliceValue); ok {
		return true
	}
	t := v.Type()
	return t == "count" || strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array")
}

// Install wraps the scalar flags of root and of every command below it, so
// that Check can tell a flag given twice. Call it once the tree is built.
func Install(root *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, done := f.Value.(*counted); !done && !repeatable(f.Value) {
			f.Value = &counted{Value: f.Value}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalNonPersistentFlags().VisitAll(wrap)
		c.PersistentFlags().VisitAll(wrap)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// Check refuses the flags of cmd, as given, that break a convention: the
// first broken rule, in the order of the package comment, as one sentence.
func Check(cmd *cobra.Command, _ []string) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err == nil {
			err = checkFlag(cmd.CommandPath(), f)
		}
	})
	if err != nil {
		return err
	}
	return checkConflicts(cmd)
}

// checkFlag applies the rules about one flag alone.
func checkFlag(command string, f *pflag.Flag) error {
	if c, ok := f.Value.(*counted); ok && len(c.given) > 1 {
		return fmt.Errorf("--%s given %s: %s; give it once", f.Name, times(len(c.given)), strings.Join(c.given, ", then "))
	}
	if f.Value.Type() != "string" {
		return nil
	}
	v := f.Value.String()
	switch {
	case v == "" && (Named[f.Name] || f.DefValue != ""):
		return fmt.Errorf("--%s \"\": %s", f.Name, want(f))
	case v == "-" && Outputs[f.Name] && !AcceptsDash(f):
		return fmt.Errorf("--%s -: %s cannot write this to standard output; name a file", f.Name, command)
	}
	return nil
}

// want says what a flag given empty should be.
func want(f *pflag.Flag) string {
	const unset = "(the flag is given, but empty: an unset variable?)"
	switch {
	case Outputs[f.Name] || f.Name == "contract":
		return "want a path " + unset
	case Named[f.Name]:
		return "want a name " + unset
	}
	return fmt.Sprintf("want a value; without the flag it is %s %s", f.DefValue, unset)
}

func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
