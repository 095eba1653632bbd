package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// fmtCmd is `tenet fmt [-check] [DIR|FILE]...`: rewrite contract files in
// canonical layout (lang.Format).
func fmtCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fmt [-check] [DIR|FILE]...",
		Short: "Rewrite contract files in canonical layout",
		Long: `fmt rewrites the *.tenet.hcl files of each DIR (not its subdirectories) and each
named FILE in canonical layout, and prints the name of every file it changed.
The default is the current directory. Only whitespace between tokens changes;
strings, heredocs and comments are kept byte for byte.

With -check (or --check), fmt writes nothing: it prints the names of the files
that are not formatted and exits 1 if there are any.

A file that does not parse is left alone and its errors are printed; fmt then
exits 2.`,
		// -check is written with one dash, as in gofmt and terraform fmt,
		// which pflag would read as -c -h -e -c -k: arguments are parsed here.
		DisableFlagParsing:    true,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			check := false
			var paths []string
		args:
			for i, a := range args {
				switch {
				case a == "--":
					paths = append(paths, args[i+1:]...)
					break args
				case a == "-check" || a == "--check":
					check = true
				case a == "-h" || a == "-help" || a == "--help":
					return cmd.Help()
				case strings.HasPrefix(a, "-") && a != "-":
					return fmt.Errorf("unknown flag: %s", a)
				default:
					paths = append(paths, a)
				}
			}
			if len(paths) == 0 {
				paths = []string{"."}
			}
			return runFmt(paths, check, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().Bool("check", false, "write nothing; list the files that are not formatted and exit 1 if any")
	return cmd
}

// runFmt formats the contract files of paths (directories or files).
func runFmt(paths []string, check bool, stdout, stderr io.Writer) error {
	files, err := fmtFiles(paths)
	if err != nil {
		return err
	}
	bad, unformatted := false, false
	// The rewritten files are one set of outputs: none is replaced unless
	// every one could be written (a full disk halfway leaves every file
	// as it was), and their names are printed once they are.
	var outputs atomicfile.Set
	defer outputs.Abort() // after Commit, a no-op
	var changed []string
	for _, f := range files {
		src, err := readlimit.ReadFile(f, lang.MaxFileBytes)
		if err != nil {
			return outputs.Cancel(err)
		}
		name := filepath.ToSlash(f)
		out, diags := lang.Format(src, name)
		if diags.HasErrors() {
			// The partly parsed file gives the snippets their block
			// context, unless it nests too deep to parse safely.
			file := &hcl.File{Bytes: src}
			if !hasCode(diags, "nesting-too-deep") {
				if f, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos); f != nil {
					file = f
				}
			}
			compiler.SortDiagnostics(diags)
			writeDiags(stderr, "", map[string]*hcl.File{name: file}, diags)
			bad = true
			continue
		}
		if bytes.Equal(out, src) {
			continue
		}
		unformatted = true
		changed = append(changed, f)
		if check {
			continue
		}
		st, err := os.Stat(f)
		if err != nil {
			return outputs.Cancel(err)
		}
		w, err := outputs.Create(f, st.Mode().Perm())
		if err != nil {
			return err
		}
		w.Write(out) // an error stays with w: Commit returns it, naming the other files
	}
	if err := outputs.Commit(); err != nil {
		return err
	}
	for _, f := range changed {
		fmt.Fprintln(stdout, f)
	}
	switch {
	case bad:
		return exitError{exitBad}
	case check && unformatted:
		return exitError{exitFailure}
	}
	return nil
}

// hasCode reports whether a diagnostic has the code.
func hasCode(diags hcl.Diagnostics, code diag.Code) bool {
	for _, d := range diags {
		if diag.Of(d) == code {
			return true
		}
	}
	return false
}

// fmtFiles lists the files to format: the *.tenet.hcl files directly in
// each directory (sorted), and each named file, each once.
func fmtFiles(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[filepath.Clean(f)] {
			seen[filepath.Clean(f)] = true
			out = append(out, f)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if !strings.HasSuffix(p, lang.FileSuffix) {
				return nil, fmt.Errorf("%s is not a contract file (*%s)", p, lang.FileSuffix)
			}
			add(p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), lang.FileSuffix) {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s holds no *%s file", p, lang.FileSuffix)
		}
		sort.Strings(names)
		for _, n := range names {
			add(filepath.Join(p, n))
		}
	}
	return out, nil
}
