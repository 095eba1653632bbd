// Package contractarg resolves the contract argument of a tenet command —
// a contract directory, a bundle file, a directory of contract
// directories (a collection, such as contracts/agentdojo) or a directory
// of bundle files (what `tenet build COLLECTION -o DIR` writes) — into the
// contracts it names, and opens them. Every command that takes a contract
// resolves it here, so that each accepts the same four kinds, or refuses
// one with the same sentence.
package contractarg

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/clistyle"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// BundleSuffix ends the name of a bundle file in a directory of bundles.
const BundleSuffix = ".tnb"

// Kind is what a contract argument names.
type Kind int

const (
	Dir        Kind = iota + 1 // a contract directory (*.tenet.hcl directly inside)
	BundleFile                 // a bundle file
	Collection                 // a directory of contract directories
	Bundles                    // a directory of bundle files (*.tnb)
)

func (k Kind) String() string {
	switch k {
	case Dir:
		return "contract directory"
	case BundleFile:
		return "bundle file"
	case Collection:
		return "directory of contract directories"
	case Bundles:
		return "directory of bundles"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Arg is a resolved contract argument.
type Arg struct {
	Path string
	Kind Kind
	// Paths are the contracts, each a contract directory or a bundle
	// file: Path itself for Dir and BundleFile, else each member in name
	// order.
	Paths []string
}

// Several reports whether the argument is a directory of contracts
// (Collection or Bundles), which may hold one or more.
func (a Arg) Several() bool { return a.Kind == Collection || a.Kind == Bundles }

// Compiled reports whether the contracts are bundle files (BundleFile or
// Bundles): compiled, without their sources and test blocks.
func (a Arg) Compiled() bool { return a.Kind == BundleFile || a.Kind == Bundles }

// Names are the contracts' base names (a directory's or a bundle file's),
// for messages.
func (a Arg) Names() []string {
	names := make([]string, len(a.Paths))
	for i, p := range a.Paths {
		names[i] = filepath.Base(p)
	}
	return names
}

// Resolve says what path names. A directory that holds *.tenet.hcl files
// is a contract directory, whatever else it holds; else its
// subdirectories that hold *.tenet.hcl files are a collection, and its
// *.tnb files a directory of bundles. A directory with both is refused:
// which of them is meant cannot be told. A path that is not a directory
// is a bundle file (opening it checks that it is one), unless it is a
// contract source file (*.tenet.hcl), refused naming its directory. A missing path is
// the *fs.PathError of os.Stat.
func Resolve(path string) (Arg, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Arg{}, err
	}
	if !st.IsDir() {
		if strings.HasSuffix(path, lang.FileSuffix) {
			return Arg{}, fmt.Errorf("%s is a contract source file: name its directory, %s, which is the contract", path, filepath.Dir(path))
		}
		return Arg{Path: path, Kind: BundleFile, Paths: []string{path}}, nil
	}
	if len(lang.SourceFiles(path)) > 0 {
		return Arg{Path: path, Kind: Dir, Paths: []string{path}}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return Arg{}, err
	}
	var dirs, bundles []string
	for _, e := range entries {
		sub := filepath.Join(path, e.Name())
		st, err := os.Stat(sub) // a link is what it names
		switch {
		case err != nil:
		case st.IsDir() && len(lang.SourceFiles(sub)) > 0:
			dirs = append(dirs, sub)
		case !st.IsDir() && strings.HasSuffix(e.Name(), BundleSuffix):
			bundles = append(bundles, sub)
		}
	}
	switch {
	case len(dirs) > 0 && len(bundles) > 0:
		return Arg{}, fmt.Errorf("%s holds both contract directories (%s) and bundles (%s): a directory of contracts holds one kind; move the bundles to a directory of their own", path, list(dirs), list(bundles))
	case len(dirs) > 0:
		return Arg{Path: path, Kind: Collection, Paths: dirs}, nil
	case len(bundles) > 0:
		return Arg{Path: path, Kind: Bundles, Paths: bundles}, nil
	}
	return Arg{}, fmt.Errorf("%s holds no *.tenet.hcl files, no contract directories and no *%s bundles", path, BundleSuffix)
}

// list names the first paths by base name, "…" for the rest.
func list(paths []string) string {
	const shown = 3
	names := make([]string, 0, shown+1)
	for i, p := range paths {
		if i == shown {
			names = append(names, "…")
			break
		}
		names = append(names, filepath.Base(p))
	}
	return strings.Join(names, ", ")
}

// One resolves path for a command that works with one contract (why says
// why, e.g. "a decision is made with one contract") and returns it: a
// directory of several contracts is refused, naming them.
func One(path, why string) (string, error) {
	a, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if len(a.Paths) > 1 {
		return "", fmt.Errorf("%s is a %s holding %d contracts (%s): %s; name one of them, e.g. %s", path, a.Kind, len(a.Paths), strings.Join(a.Names(), ", "), why, a.Paths[0])
	}
	return a.Paths[0], nil
}

// Diagnostics has tenet.Build and tenet.Open print a contract directory's
// diagnostics to w as every command shows them (diag.WriteTextStyle):
// syntax errors alone when there are any (diag.SyntaxOnly), coloured on
// a terminal.
func Diagnostics(w io.Writer) tenet.LoadOption {
	return tenet.WithDiagnostics(func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics) {
		diag.WriteTextStyle(w, dir, files, diag.SyntaxOnly(diags), clistyle.Of(w, os.Getenv))
	})
}

// Open opens one contract, a bundle file or a contract directory, under
// pol (tenet.Open), the directory's diagnostics written to stderr; c is
// the compile cache (nil: none). A *tenet.BuildError is returned as is
// (its diagnostics are printed).
func Open(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache) (*tenet.Bundle, error) {
	b, err := tenet.Open(path, tenet.WithPolicy(pol), Diagnostics(stderr), tenet.WithCache(c))
	te, ude := (*readlimit.FileTypeError)(nil), (*tenet.UnsignedDirError)(nil)
	switch {
	case errors.As(err, &te):
		return nil, fmt.Errorf("%w: want a contract directory or a bundle file", err)
	case errors.As(err, &ude):
		return nil, fmt.Errorf("%s is a contract directory, compiled here, and carries no signature: --verify-key (or %s) accepts only bundles signed with tenet build --sign KEY", ude.Dir, cliflags.VerifyKeyEnv)
	}
	return b, err
}

// OpenAll opens every contract of a (Open), in parallel, one per CPU;
// their diagnostics are written to stderr, and the first error returned,
// in order, as if they were opened one after the other. Contracts of one
// directory must have distinct names: their runs, reports and bundle
// files are named after them.
func OpenAll(a Arg, stderr io.Writer, pol bundle.Policy, c *cache.Cache) ([]*tenet.Bundle, error) {
	bs, errs, diags := make([]*tenet.Bundle, len(a.Paths)), make([]error, len(a.Paths)), make([]bytes.Buffer, len(a.Paths))
	style := clistyle.Of(stderr, os.Getenv) // the buffers end up on stderr
	InParallel(len(a.Paths), func(i int) {
		bs[i], errs[i] = Open(a.Paths[i], clistyle.Writer{Writer: &diags[i], Style: style}, pol, c)
	})
	for i := range a.Paths {
		if _, err := diags[i].WriteTo(stderr); err != nil {
			return nil, err
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return bs, Distinct(a.Paths, bs)
}

// Distinct refuses two contracts of one directory with the same name.
func Distinct(paths []string, bs []*tenet.Bundle) error {
	seen := map[string]string{}
	for i, b := range bs {
		name := b.Contract().Manifest.Contract
		if first, ok := seen[name]; ok {
			return fmt.Errorf("%s and %s are both contract %q: the contracts of one directory need distinct names, as their runs, reports and bundles are named after them", first, paths[i], name)
		}
		seen[name] = paths[i]
	}
	return nil
}

// InParallel calls f(0) … f(n-1), at most one call per CPU at a time, and
// returns when all have returned.
func InParallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}
