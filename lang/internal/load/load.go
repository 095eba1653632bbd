// Package load reads the contract directories of one contract: the
// *.tenet.hcl files directly inside a directory (ReadDir), and the
// directories its use blocks import, recursively (Loader).
//
// Its contract: it owns the file system side of imports — resolving a use
// path against the directory of its file, refusing cycles, duplicates and
// chains deeper than a limit, loading each directory once — and reports
// each problem as a diagnostic with a code (lang/diag) at the use block's
// path. It does not decode HCL: the caller's Parse does, and the caller's
// Uses and Link say what a parsed module imports and record the result.
// It imports lang/diag and internal/readlimit only.
package load

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang/diag"
)

// ReadDir reads the contract files (names ending in suffix, at most max
// bytes each) directly inside dir, keyed by their slash path under prefix
// (a directory relative to the root module's directory). err is set when
// dir itself cannot be read, or is not a directory (a named pipe there
// would block os.ReadDir); a contract file that cannot be read, or is not
// a regular file, is a read-error diagnostic.
func ReadDir(dir, prefix, suffix string, max int64) (map[string][]byte, hcl.Diagnostics, error) {
	entries, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var diags hcl.Diagnostics
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		b, err := readlimit.ReadFile(filepath.Join(dir, e.Name()), max)
		if err != nil {
			// At the file's start, so that it reads file:1:1 like any other.
			at := hcl.Range{Filename: path.Join(prefix, e.Name()), Start: hcl.InitialPos, End: hcl.InitialPos}
			diags = append(diags, diag.Errorf(diag.ReadError, at, "Cannot read contract file", "%s", err.Error()))
			continue
		}
		files[path.Join(prefix, e.Name())] = b
	}
	return files, diags, nil
}

// Use is one use block of a parsed module, as the loader needs it.
type Use struct {
	Path      string    // as written: relative to the directory of its file
	PathRange hcl.Range // where the path is written
	Namespace string    // the name the directory is imported under
	Def       hcl.Range // the block's definition range
}

// Loader loads the directories the use blocks of a root module name, for
// one root; M is the caller's module (lang's *Module).
type Loader[M any] struct {
	Root     string // the root module's directory, as given to lang.ParseDir
	Suffix   string // the suffix of contract files
	MaxBytes int64  // the size limit of one contract file
	MaxDepth int    // the longest chain of imported directories

	// Parse decodes the files of an imported directory (ReadDir's map).
	Parse func(dir string, files map[string][]byte) (M, hcl.Diagnostics)
	// Uses lists the use blocks of m, nil for a block in error (it is not
	// loaded).
	Uses func(m M) []*Use
	// Link records that use block i of m imports the module imported.
	Link func(m M, i int, imported M)

	stack  []frame      // the modules being loaded, the root first
	loaded map[string]M // fully loaded modules by canonicalDir
}

// frame is a module being loaded: its canonical directory and its slash
// path relative to the root module's directory.
type frame struct{ key, rel string }

// Load loads the imports of root, the module read from l.Root, and theirs.
func (l *Loader[M]) Load(root M) hcl.Diagnostics {
	l.loaded = map[string]M{}
	l.stack = []frame{{key: canonicalDir(l.Root), rel: "."}}
	return l.loadImports(root, ".")
}

// canonicalDir identifies a directory: absolute, symbolic links resolved
// when possible.
func canonicalDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// loadImports loads the use blocks of m, whose directory is rel (relative
// to the root), and links each to the module it imports.
func (l *Loader[M]) loadImports(m M, rel string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byDir := map[string]*Use{}
	for i, u := range l.Uses(m) {
		if u == nil {
			continue
		}
		urel := path.Join(rel, SlashPath(u.Path))
		dir := filepath.Join(l.Root, filepath.FromSlash(urel))
		key := canonicalDir(dir)
		if prev, dup := byDir[key]; dup {
			diags = append(diags, diag.Errorf(diag.UseDuplicate, u.PathRange, "Directory imported twice",
				"This contract already imports %s as %q at %s:%d:%d; import a directory once, under one namespace.",
				strconv.Quote(prev.Path), prev.Namespace, prev.Def.Filename, prev.Def.Start.Line, prev.Def.Start.Column))
			continue
		}
		byDir[key] = u
		if i := l.onStack(key); i >= 0 {
			var chain []string
			for _, f := range l.stack[i:] {
				chain = append(chain, l.display(f.rel))
			}
			chain = append(chain, l.display(l.stack[i].rel))
			diags = append(diags, diag.Errorf(diag.UseCycle, u.PathRange, "Import cycle",
				"Contract directories import each other in a cycle: %s. Move what they share into a directory they all import.",
				strings.Join(chain, " → ")))
			continue
		}
		if len(l.stack) > l.MaxDepth {
			diags = append(diags, diag.Errorf(diag.UseTooDeep, u.PathRange, "Imports nest too deep",
				"This use block would import a directory %d levels deep; tenet refuses chains of use blocks deeper than %d.", len(l.stack), l.MaxDepth))
			continue
		}
		mod, ok := l.loaded[key]
		if !ok {
			var more hcl.Diagnostics
			mod, ok, more = l.load(u, dir, urel, key)
			diags = append(diags, more...)
			if !ok {
				continue
			}
		}
		l.Link(m, i, mod)
	}
	return diags
}

// load parses the directory a use block names, then its own imports; ok
// is false when the directory is missing or holds no contract file.
func (l *Loader[M]) load(u *Use, dir, rel, key string) (m M, ok bool, diags hcl.Diagnostics) {
	files, diags, err := ReadDir(dir, rel, l.Suffix, l.MaxBytes)
	quoted := strconv.Quote(u.Path)
	var detail string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		detail = "There is no directory " + quoted + " relative to the directory of this file."
		if s := siblingSuggestion(dir, u.Path); s != "" {
			detail += " Did you mean " + strconv.Quote(s) + "?"
		}
	case err != nil && isNotDir(dir):
		what := "a file"
		if te := (*readlimit.FileTypeError)(nil); errors.As(err, &te) && !te.Mode.IsRegular() {
			what = readlimit.Kind(te.Mode) // a named pipe, a device: say which
		}
		detail = quoted + " is " + what + "; a use block imports a contract directory."
	case err != nil:
		detail = "Cannot read the directory " + quoted + ": " + err.Error() + "."
	case len(files) == 0 && !diags.HasErrors():
		detail = "The directory " + quoted + " holds no *" + l.Suffix + " file to import."
	case len(files) == 0:
		return m, false, diags
	}
	if detail != "" {
		return m, false, hcl.Diagnostics{diag.Errorf(diag.UseMissing, u.PathRange, "Imported directory not found", "%s", detail)}
	}
	m, more := l.Parse(dir, files)
	diags = append(diags, more...)
	l.stack = append(l.stack, frame{key: key, rel: rel})
	diags = append(diags, l.loadImports(m, rel)...)
	l.stack = l.stack[:len(l.stack)-1]
	l.loaded[key] = m
	return m, true, diags
}

// onStack returns the index in the stack of the module being loaded from
// the directory key, or -1.
func (l *Loader[M]) onStack(key string) int {
	for i, f := range l.stack {
		if f.key == key {
			return i
		}
	}
	return -1
}

// display names a directory relative to the root in messages; the root
// itself is shown by its base name.
func (l *Loader[M]) display(rel string) string {
	if rel == "." {
		abs, err := filepath.Abs(l.Root)
		if err != nil {
			return l.Root
		}
		return filepath.Base(abs)
	}
	return rel
}

// isNotDir reports whether p exists and is not a directory.
func isNotDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// siblingSuggestion returns the use path with its last element replaced
// by the closest directory name next to the missing dir, or "".
func siblingSuggestion(dir, usePath string) string {
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	p := strings.TrimRight(SlashPath(usePath), "/")
	s := diag.Suggest(path.Base(p), names)
	if s == "" {
		return ""
	}
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i+1] + s
	}
	return s
}

// SlashPath makes a use path slash-separated: a backslash is a separator
// on every system, so a use path means the same everywhere.
func SlashPath(p string) string {
	return strings.ReplaceAll(p, `\`, "/")
}
