package contractarg

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

// Stdout is the -o value that writes a bundle to standard output.
const Stdout = "-"

// Build compiles the contracts at path (tenet build) and writes their
// bundles, each signed with every key; what was written is reported on
// stdout (on stderr when the bundle itself goes to stdout). A contract
// directory gives one bundle: out, or the directory's base name + .tnb,
// or standard output for out "-" (refused on a terminal). A directory of
// contract directories gives one bundle per contract, named after the
// contract (NAME.tnb), in the directory out (made when missing; required:
// a collection has no one name to default to); the bundles are written
// as one set (atomicfile.Set), so a failure leaves none of them. Bundle
// files, being compiled already, are refused. A *tenet.BuildError is
// returned as is, its diagnostics written to stderr.
func Build(path, out string, keys []ed25519.PrivateKey, stdout, stderr io.Writer) error {
	a, err := Resolve(path)
	if err != nil {
		return err
	}
	switch {
	case a.Kind == BundleFile && !regular(path):
		// A pipe or a device: the compiler's read error says what it is.
		return buildOne(path, out, keys, stdout, stderr)
	case a.Compiled():
		return fmt.Errorf("%s is a %s, compiled already: tenet build compiles contract directories", path, a.Kind)
	case a.Kind == Dir:
		return buildOne(path, out, keys, stdout, stderr)
	case out == "":
		return fmt.Errorf("%s is a %s holding %d contracts (%s): name the directory to write their bundles to with -o DIR", path, a.Kind, len(a.Paths), strings.Join(a.Names(), ", "))
	case out == Stdout:
		return fmt.Errorf("-o - writes one bundle to standard output, and %s holds %d contracts (%s): name a directory with -o DIR", path, len(a.Paths), strings.Join(a.Names(), ", "))
	}
	return buildAll(a, out, keys, stdout, stderr)
}

// built is one compiled, signed bundle.
type built struct {
	b    *tenet.Bundle
	data []byte
}

func compile(dir string, keys []ed25519.PrivateKey, stderr io.Writer) (built, error) {
	b, err := tenet.Build(dir, Diagnostics(stderr))
	if err != nil {
		return built{}, err
	}
	data := b.Bytes()
	for _, k := range keys {
		if data, err = bundle.Sign(data, k); err != nil {
			return built{}, err
		}
	}
	return built{b, data}, nil
}

func buildOne(dir, out string, keys []ed25519.PrivateKey, stdout, stderr io.Writer) error {
	if out == Stdout && isTerminal(stdout) {
		return errors.New("-o -: standard output is a terminal, and a bundle is binary; redirect it to a file or a pipe, or name a file with -o")
	}
	c, err := compile(dir, keys, stderr)
	if err != nil {
		return err
	}
	report := stdout
	if out == Stdout {
		if _, err := stdout.Write(c.data); err != nil {
			return err
		}
		report, out = stderr, "(standard output)"
	} else {
		if out == "" {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			out = filepath.Base(abs) + BundleSuffix
		}
		if err := paths.CheckOutput(out, lang.SourceFiles(dir)); err != nil {
			return err
		}
		if err := atomicfile.Write(out, c.data, 0o644); err != nil {
			return err
		}
	}
	written(report, c, out, keys)
	return nil
}

// written says what was written to out.
func written(w io.Writer, c built, out string, keys []ed25519.PrivateKey) {
	fmt.Fprintf(w, "%s\n%s %s (%d bytes)\n", c.b.Contract().Summary(), c.b.ID(), out, len(c.data))
	for _, k := range keys {
		fmt.Fprintf(w, "signed by %s\n", bundle.Fingerprint(k.Public().(ed25519.PublicKey)))
	}
}

func buildAll(a Arg, out string, keys []ed25519.PrivateKey, stdout, stderr io.Writer) error {
	if st, err := os.Stat(out); err == nil && !st.IsDir() {
		return fmt.Errorf("-o %s: not a directory: the bundles of a %s are written to a directory, one per contract", out, a.Kind)
	}
	cs, errs, diags := make([]built, len(a.Paths)), make([]error, len(a.Paths)), make([]bytes.Buffer, len(a.Paths))
	style := clistyle.Of(stderr, os.Getenv) // the buffers end up on stderr
	InParallel(len(a.Paths), func(i int) {
		cs[i], errs[i] = compile(a.Paths[i], keys, clistyle.Writer{Writer: &diags[i], Style: style})
	})
	var sources []string
	for i, dir := range a.Paths {
		if _, err := diags[i].WriteTo(stderr); err != nil {
			return err
		}
		if errs[i] != nil {
			return errs[i]
		}
		sources = append(sources, lang.SourceFiles(dir)...)
	}
	bs := make([]*tenet.Bundle, len(cs))
	for i, c := range cs {
		bs[i] = c.b
	}
	if err := Distinct(a.Paths, bs); err != nil {
		return err
	}
	outs := make([]string, len(cs))
	for i, c := range cs {
		name := c.b.Contract().Manifest.Contract
		if err := fileName(name); err != nil {
			return fmt.Errorf("%s: contract %q %v, and its bundle is named after it", a.Paths[i], name, err)
		}
		outs[i] = filepath.Join(out, name+BundleSuffix)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, o := range outs {
		if err := paths.CheckOutput(o, sources); err != nil {
			return err
		}
	}
	var set atomicfile.Set
	defer set.Abort() // after Commit, a no-op
	for i, c := range cs {
		f, err := set.Create(outs[i], 0o644)
		if err != nil {
			return err
		}
		f.Write(c.data) // an error stays with f: Commit returns it, naming the other outputs
	}
	if err := set.Commit(); err != nil {
		return err
	}
	for i, c := range cs {
		written(stdout, c, outs[i], keys)
	}
	warnStale(stderr, out, outs)
	return nil
}

// fileName checks that a contract name can name a file by itself.
func fileName(name string) error {
	switch {
	case name == "", name == ".", name == "..":
		return errors.New("cannot name a file")
	case strings.ContainsAny(name, `/\`+"\x00"):
		return errors.New("holds a path separator")
	case strings.HasPrefix(name, "."):
		return errors.New("starts with a dot (a hidden file)")
	}
	return nil
}

// warnStale names the bundles in out that this build did not write: a
// directory of bundles is read whole, so they would be read with the new
// ones (a contract renamed or removed since an earlier build).
func warnStale(stderr io.Writer, out string, written []string) {
	a, err := Resolve(out)
	if err != nil || a.Kind != Bundles {
		return
	}
	for _, p := range a.Paths {
		if !slices.ContainsFunc(written, func(w string) bool { return paths.SameFile(w, p) }) {
			fmt.Fprintf(stderr, "warning: %s was not written by this build, and is read with the others as part of %s; remove it if its contract is gone\n", p, out)
		}
	}
}

// regular reports whether path is a regular file (or a link to one).
func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// isTerminal reports whether w (or the writer it wraps) is a terminal.
func isTerminal(w io.Writer) bool {
	for {
		if f, ok := w.(interface{ Fd() uintptr }); ok {
			return term.IsTerminal(int(f.Fd()))
		}
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
}
