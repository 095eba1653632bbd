// Package checkcmd is `tenet check`: contract directories type-checked,
// their diagnostics written as text (diag.WriteText, coloured on a
// terminal), JSON (Diagnostic), SARIF 2.1.0 (internal/sarif) or GitHub
// workflow commands (internal/ghactions). cmd/tenet registers it
// (Command); what every command shares (help, exit codes) comes through
// Env.
package checkcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/ghactions"
	"github.com/tenetlang/tenet/internal/termstyle"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// Exit codes (docs/cli.md).
const (
	exitFailure = 1 // --strict and a warning
	exitBad     = 2 // an error in a contract, or bad usage
)

// Env is what check takes from the tenet command.
type Env struct {
	Help    string                          // the long help (cmd/tenet/help/check.txt)
	Version string                          // tenet's version, for SARIF's tool
	Exit    func(code int) error            // the error that ends the command with code, its message printed
	Getenv  func(string) string             // the environment (os.Getenv)
	Style   func(io.Writer) termstyle.Style // the colour of the text written to a writer
}

// Formats are the values of --format, the default first.
var Formats = []string{"text", "json", "sarif", "github"}

// Command returns the check command.
func Command(env Env) *cobra.Command {
	var cf cliflags.Cache
	var format string
	var strict bool
	cmd := &cobra.Command{
		Use:   "check DIR...",
		Short: "Type-check contracts and print every diagnostic",
		Long:  env.Help,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(Formats, format) {
				return fmt.Errorf("unknown --format %q: want %s", format, strings.Join(Formats, ", "))
			}
			dirs, err := contractDirs(args)
			if err != nil {
				return err
			}
			checked := checkAll(dirs, cf.Cache())
			errs, warns := 0, 0
			for _, c := range checked {
				for _, d := range c.diags {
					if d.Severity == hcl.DiagError {
						errs++
					} else {
						warns++
					}
				}
				if c.other() {
					errs++ // an error that is no diagnostic (printed on stderr)
				}
			}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			switch format {
			case "text":
				writeText(stdout, stderr, checked, env.Style(stderr), strict)
			case "json":
				err = writeJSON(stdout, checked)
			case "sarif":
				err = writeSARIF(stdout, checked, env.Version)
			case "github":
				err = ghactions.Write(stdout, annotations(checked))
			}
			if err != nil {
				return err
			}
			if format != "text" {
				for _, c := range checked {
					if c.other() {
						fmt.Fprintln(stderr, c.err)
					}
				}
			}
			if format != "github" && ghactions.Enabled(env.Getenv) {
				// After the normal output, on stderr: the runner reads
				// workflow commands from both streams, and stdout may hold
				// a JSON or SARIF document they would spoil.
				if err := ghactions.Write(stderr, annotations(checked)); err != nil {
					return err
				}
			}
			switch {
			case errs > 0:
				return env.Exit(exitBad)
			case strict && warns > 0:
				fmt.Fprintf(stderr, "%s under --strict\n", count(warns, "warning"))
				return env.Exit(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(Formats, ", ")+" (docs/cli.md)")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 when there is a warning (an error is always exit 2)")
	cf.Add(cmd)
	return cmd
}

// contractDirs refuses what check cannot read and expands each directory
// of contracts (lang.ContractDirs); a directory with no contract at all is
// kept, for the no-contract-files diagnostic.
func contractDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			return nil, errors.New("- (standard input) is not a contract directory: give the directory that holds the *.tenet.hcl files")
		}
		st, err := os.Stat(a)
		switch {
		case err != nil:
			out = append(out, a) // the read-error diagnostic names it
			continue
		case !st.IsDir() && strings.HasSuffix(a, lang.FileSuffix):
			return nil, fmt.Errorf("%s is a contract file: give the directory that holds it (tenet check %s)", a, filepath.Dir(a))
		case !st.IsDir():
			return nil, fmt.Errorf("%s is not a directory: give a contract directory (a bundle file is checked by tenet inspect --verify)", a)
		}
		// Told apart as every command tells them (contractarg): a mixed
		// directory is refused, a directory of bundles is not checked here.
		arg, err := contractarg.Resolve(a)
		switch {
		case err == nil && arg.Kind == contractarg.Bundles:
			return nil, fmt.Errorf("%s is a directory of bundles, compiled already: check their sources, or verify the bundles with tenet inspect --verify %s", a, a)
		case err == nil && arg.Kind == contractarg.Collection:
			out = append(out, arg.Paths...)
		case err != nil && isMixed(a):
			return nil, err
		default:
			out = append(out, a) // a contract directory, or none: its diagnostics say why
		}
	}
	return out, nil
}

// checked is one contract directory's outcome.
type checked struct {
	dir     string
	bundle  *tenet.Bundle // nil on error
	err     error
	files   map[string]*hcl.File
	diags   hcl.Diagnostics // syntax errors alone when there are any (diag.SyntaxOnly)
	written bool            // err is a *tenet.BuildError, shown by its diagnostics
}

// other reports whether c failed with an error that is not a diagnostic.
func (c checked) other() bool { return c.err != nil && !c.written }

// checkAll compiles the directories in parallel, one per CPU.
func checkAll(dirs []string, c *cache.Cache) []checked {
	out := make([]checked, len(dirs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, dir := range dirs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			r := &out[i]
			r.dir = dir
			keep := tenet.WithDiagnostics(func(_ string, files map[string]*hcl.File, diags hcl.Diagnostics) {
				r.files, r.diags = files, diag.SyntaxOnly(diags)
			})
			r.bundle, r.err = checkDir(dir, c, keep)
			r.written = errors.As(r.err, new(*tenet.BuildError))
		}()
	}
	wg.Wait()
	return out
}

// checkDir compiles dir for check. A directory is opened with the compile
// cache c (tenet.Open): the cache holds only compiles without a single
// diagnostic, so a hit is what a compile now would give, with nothing to
// print, and a miss is compiled (stored when clean). Anything else, and
// every path with --no-cache (c nil), is compiled by tenet.Build as
// always: Open would read a file as a bundle file, which check never does.
func checkDir(dir string, c *cache.Cache, diags tenet.LoadOption) (*tenet.Bundle, error) {
	if st, err := os.Stat(dir); c != nil && err == nil && st.IsDir() {
		return tenet.Open(dir, diags, tenet.WithCache(c))
	}
	return tenet.Build(dir, diags)
}

// writeText is the text format: diagnostics on stderr (diag.WriteText),
// in directory order, and a summary line per clean contract on stdout.
func writeText(stdout, stderr io.Writer, cs []checked, style termstyle.Style, strict bool) {
	for _, c := range cs {
		var buf bytes.Buffer
		diag.WriteTextStyle(&buf, c.dir, c.files, c.diags, style)
		buf.WriteTo(stderr)
		switch {
		case c.other():
			fmt.Fprintln(stderr, c.err)
		case c.err == nil && strict && len(c.diags) > 0:
			// Under --strict a warning fails the contract: no "ok:".
			fmt.Fprintf(stdout, "not ok under --strict (%s): %s\n", count(len(c.diags), "warning"), strings.TrimPrefix(c.bundle.Contract().Summary(), "ok: "))
		case c.err == nil:
			fmt.Fprintln(stdout, c.bundle.Contract().Summary())
		}
	}
}

func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// isMixed reports whether dir holds both contract directories and
// bundles, which contractarg refuses for every command.
func isMixed(dir string) bool {
	dirs, _ := lang.ContractDirs(dir)
	bundles, _ := filepath.Glob(filepath.Join(dir, "*"+contractarg.BundleSuffix))
	return len(dirs) > 0 && len(bundles) > 0
}
