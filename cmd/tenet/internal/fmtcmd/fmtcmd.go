// Package fmtcmd is the command tenet fmt: contract files rewritten in
// canonical layout (package lang/format), checked (-check), shown as a
// unified diff (-d), found in subdirectories (-r) or read from standard
// input (-).
package fmtcmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/internal/termstyle"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/format"
)

// Env is what the command takes from cmd/tenet: its long help and the
// error that ends the command with an exit code (already explained).
type Env struct {
	Help string
	Exit func(code int) error
}

// Exit codes, as every command's (docs/cli.md).
const (
	exitFailure = 1
	exitBad     = 2
)

// Options are tenet fmt's flags and arguments.
type Options struct {
	Check bool     // write nothing; list the files not formatted
	Diff  bool     // write nothing; print a unified diff of each
	Tree  bool     // each directory with its subdirectories
	Paths []string // files and directories; "-" alone is standard input
}

// stdinName names standard input in diagnostics and diffs.
const stdinName = "<stdin>"

// Command is `tenet fmt [-check] [-d] [-r] (DIR|FILE|-)...`.
func Command(env Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fmt [-check] [-d] [-r] (DIR|FILE|-)...",
		Short: "Rewrite contract files in canonical layout",
		Long:  env.Help,
		// -check is written with one dash, as in gofmt and terraform fmt,
		// which pflag would read as -c -h -e -c -k: arguments are parsed here.
		DisableFlagParsing:    true,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt, help, err := Parse(args)
			switch {
			case help:
				return cmd.Help()
			case err != nil:
				return err
			}
			code, err := Run(opt, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err == nil && code != 0 {
				err = env.Exit(code)
			}
			return err
		},
	}
	// Declared for --help and completion only: parsing is Parse's.
	cmd.Flags().Bool("check", false, "write nothing; list the files that are not formatted and exit 1 if there are any")
	cmd.Flags().BoolP("diff", "d", false, "write nothing; print a unified diff of each file that is not formatted and exit 1 if there are any")
	cmd.Flags().BoolP("recursive", "r", false, "also format the contract files in every subdirectory (not hidden ones, nor testdata)")
	return cmd
}

// Parse reads fmt's arguments: flags with one dash or two, anywhere
// before "--". help says -h was given. A flag given twice, "-" with other
// paths or with -r, and no path at all are refused.
func Parse(args []string) (opt Options, help bool, err error) {
	seen := map[string]bool{}
	flag := func(name string, v *bool) error {
		if seen[name] {
			return fmt.Errorf("-%s given twice; give it once", name)
		}
		seen[name], *v = true, true
		return nil
	}
	for i := 0; i < len(args) && err == nil; i++ {
		switch a := args[i]; a {
		case "--":
			opt.Paths = append(opt.Paths, args[i+1:]...)
			i = len(args)
		case "-check", "--check":
			err = flag("check", &opt.Check)
		case "-d", "--d", "-diff", "--diff":
			err = flag("d", &opt.Diff)
		case "-r", "--r", "-recursive", "--recursive":
			err = flag("r", &opt.Tree)
		case "-h", "-help", "--help":
			return opt, true, nil
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				return opt, false, fmt.Errorf("unknown flag: %s", a)
			}
			opt.Paths = append(opt.Paths, a)
		}
	}
	if err != nil {
		return opt, false, err
	}
	switch {
	case len(opt.Paths) == 0:
		// Every other command names what it works on; so does fmt, which
		// rewrites files (it formatted "." before).
		return opt, false, errors.New("name the contract files or directories to format (tenet fmt . for the current directory, - for standard input)")
	case len(opt.Paths) > 1 && contains(opt.Paths, "-"):
		return opt, false, errors.New("- (standard input) is one file: give it alone")
	case opt.Tree && contains(opt.Paths, "-"):
		return opt, false, errors.New("-r walks directories and - reads standard input: give one of them")
	}
	return opt, false, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Run formats as opt says: the errors of files that do not parse on
// stderr; on stdout, the names of the files it changed or, with -check,
// would change, or with -d their diffs (standard input: its canonical
// layout, or its name or diff). The code is 0, 1 (-check or -d found
// files to change) or 2 (a file does not parse).
func Run(opt Options, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if len(opt.Paths) == 1 && opt.Paths[0] == "-" {
		return runStdin(opt, stdin, stdout, stderr)
	}
	paths := opt.Paths
	if opt.Tree {
		paths = nil
		for _, p := range opt.Paths {
			if st, err := os.Stat(p); err != nil || !st.IsDir() {
				paths = append(paths, p) // a file, or an error format.Run names
				continue
			}
			dirs, err := format.Tree(p)
			if err != nil {
				return 0, err
			}
			paths = append(paths, dirs...)
		}
	}
	var changed func(name string, src, out []byte)
	if opt.Diff {
		changed = func(name string, src, out []byte) { writeDiff(stdout, name, src, out) }
	}
	res, err := format.RunFunc(paths, !opt.Check && !opt.Diff, changed)
	for _, f := range res.Failed {
		compiler.SortDiagnostics(f.Diags)
		diag.WriteTextStyle(stderr, "", map[string]*hcl.File{f.Name: f.File}, f.Diags, termstyle.For(stderr, os.Getenv))
	}
	if err != nil {
		return 0, err
	}
	if !opt.Diff {
		for _, f := range res.Changed {
			fmt.Fprintln(stdout, f)
		}
	}
	switch {
	case len(res.Failed) > 0:
		return exitBad, nil
	case (opt.Check || opt.Diff) && len(res.Changed) > 0:
		return exitFailure, nil
	}
	return 0, nil
}

// runStdin formats standard input to standard output.
func runStdin(opt Options, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	src, err := io.ReadAll(io.LimitReader(stdin, lang.MaxFileBytes+1))
	if err != nil {
		return 0, fmt.Errorf("reading standard input: %w", err)
	}
	if len(src) > lang.MaxFileBytes {
		return 0, fmt.Errorf("standard input is larger than %s, the largest contract file read", readlimit.Bytes(lang.MaxFileBytes))
	}
	out, diags := format.Format(src, stdinName)
	if diags.HasErrors() {
		file := &hcl.File{Bytes: src}
		if !nestsTooDeep(diags) { // such a file is not parsed, even for snippets
			if pf, _ := hclsyntax.ParseConfig(src, stdinName, hcl.InitialPos); pf != nil {
				file = pf
			}
		}
		compiler.SortDiagnostics(diags)
		diag.WriteTextStyle(stderr, "", map[string]*hcl.File{stdinName: file}, diags, termstyle.For(stderr, os.Getenv))
		return exitBad, nil
	}
	same := string(out) == string(src)
	switch {
	case opt.Diff:
		if !same {
			writeDiff(stdout, stdinName, src, out)
		}
	case opt.Check:
		if !same {
			fmt.Fprintln(stdout, stdinName)
		}
	default:
		_, err := stdout.Write(out)
		return 0, err
	}
	if same {
		return 0, nil
	}
	return exitFailure, nil
}

// writeDiff prints the unified diff from src to out, labelled a/NAME and
// b/NAME as git labels them, so that `patch -p1` applies it.
func writeDiff(w io.Writer, name string, src, out []byte) {
	io.WriteString(w, udiff.Unified("a/"+name, "b/"+name, string(src), string(out)))
}

// nestsTooDeep reports whether Format refused the source unparsed.
func nestsTooDeep(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if diag.Of(d) == diag.NestingTooDeep {
			return true
		}
	}
	return false
}
