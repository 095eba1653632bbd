package lang

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang/diag"
)

// MaxUseDepth bounds how deeply use blocks may import: a chain of more
// than MaxUseDepth imported directories is an error.
const MaxUseDepth = 32

// Namespace returns the name the use block imports under: As, or the base
// name of Path ("../common" → "common").
func (u *Use) Namespace() string {
	if u.As != nil {
		return u.As.Value
	}
	return path.Base(slashPath(u.Path.Value))
}

// namespaceRange is where the namespace is written: as, or the path.
func (u *Use) namespaceRange() hcl.Range {
	if u.As != nil {
		return u.As.Range
	}
	return u.Path.Range
}

// slashPath makes a use path slash-separated.
func slashPath(p string) string {
	return strings.ReplaceAll(p, `\`, "/")
}

func (d *decoder) use(b *hcl.Block) *Use {
	c := d.content(b.Body, useSchema)
	u := &Use{
		Path:  d.label(b, "path", false),
		As:    d.str(c.Attributes["as"]),
		Range: b.DefRange,
	}
	p := slashPath(u.Path.Value)
	valid := p != ""
	if valid && (path.IsAbs(p) || filepath.IsAbs(u.Path.Value) || filepath.VolumeName(u.Path.Value) != "") {
		d.errorf(diag.InvalidValue, u.Path.Range, "Absolute use path",
			"A use path is relative to the directory of the file holding the use block, so that the contract reads the same wherever it is checked out; write %q relative to this file's directory.", u.Path.Value)
		valid = false
	}
	if valid || u.As != nil {
		valid = d.checkNamespace(u) && valid
	}
	if c.Attributes["as"] != nil && u.As == nil { // as has a bad value, already reported
		valid = false
	}
	u.valid = valid
	return u
}

// checkNamespace reports a namespace that is not an identifier, is
// reserved or is taken by another use block; it returns whether it is valid.
func (d *decoder) checkNamespace(u *Use) bool {
	ns, rng := u.Namespace(), u.namespaceRange()
	if u.As == nil && (!isIdent(ns) || IsReserved(ns)) {
		code, why, fix := diag.InvalidName, "is not an identifier", identFix(ns)
		if IsReserved(ns) {
			code, why, fix = diag.ReservedWord, "is reserved by CEL", ns+"_"
		}
		if fix == "" {
			fix = "name"
		}
		d.errorf(code, rng, "Invalid use namespace",
			"Without an as attribute, the namespace of a use block is the base name of its path, %q, which %s, so criteria could not refer to it. Add as = %q.", ns, why, fix)
		return false
	}
	if !d.checkName(Str{Value: ns, Range: rng}, "Invalid use namespace", "use namespace") {
		return false
	}
	return d.declare("use namespace", Str{Value: ns, Range: rng}, rng)
}

// loader loads the modules use blocks name, for one ParseDir call.
type loader struct {
	root   string             // the root module's directory, as given to ParseDir
	stack  []loadFrame        // the modules being loaded, the root first
	loaded map[string]*Module // fully loaded modules by canonicalDir
}

// loadFrame is a module being loaded: its canonical directory and its slash
// path relative to the root module's directory.
type loadFrame struct{ key, rel string }

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
// to the root), into m.Imports.
func (l *loader) loadImports(m *Module, rel string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byDir := map[string]*Use{}
	for _, u := range m.Uses {
		if !u.valid {
			continue
		}
		urel := path.Join(rel, slashPath(u.Path.Value))
		dir := filepath.Join(l.root, filepath.FromSlash(urel))
		key := canonicalDir(dir)
		if prev, dup := byDir[key]; dup {
			diags = append(diags, diag.Errorf(diag.UseDuplicate, u.Path.Range, "Directory imported twice",
				"This contract already imports %s as %q at %s; import a directory once, under one namespace.",
				quote(prev.Path.Value), prev.Namespace(), at(prev.Range)))
			continue
		}
		byDir[key] = u
		if i := l.onStack(key); i >= 0 {
			var chain []string
			for _, f := range l.stack[i:] {
				chain = append(chain, l.display(f.rel))
			}
			chain = append(chain, l.display(l.stack[i].rel))
			diags = append(diags, diag.Errorf(diag.UseCycle, u.Path.Range, "Import cycle",
				"Contract directories import each other in a cycle: %s. Move what they share into a directory they all import.",
				strings.Join(chain, " → ")))
			continue
		}
		if len(l.stack) > MaxUseDepth {
			diags = append(diags, diag.Errorf(diag.UseTooDeep, u.Path.Range, "Imports nest too deep",
				"This use block would import a directory %d levels deep; tenet refuses chains of use blocks deeper than %d.", len(l.stack), MaxUseDepth))
			continue
		}
		mod := l.loaded[key]
		if mod == nil {
			var more hcl.Diagnostics
			mod, more = l.load(u, dir, urel, key)
			diags = append(diags, more...)
			if mod == nil {
				continue
			}
		}
		m.Imports = append(m.Imports, &Import{Use: u, Namespace: u.Namespace(), Module: mod})
	}
	return diags
}

// load parses the directory a use block names, then its own imports; the
// module is nil when the directory is missing or holds no contract file.
func (l *loader) load(u *Use, dir, rel, key string) (*Module, hcl.Diagnostics) {
	files, diags, err := readContractFiles(dir, rel)
	var detail string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		detail = "There is no directory " + quote(u.Path.Value) + " relative to the directory of this file."
		if s := siblingSuggestion(dir, u.Path.Value); s != "" {
			detail += " Did you mean " + quote(s) + "?"
		}
	case err != nil && isNotDir(dir):
		what := "a file"
		if te := (*readlimit.FileTypeError)(nil); errors.As(err, &te) && !te.Mode.IsRegular() {
			what = readlimit.Kind(te.Mode) // a named pipe, a device: say which
		}
		detail = quote(u.Path.Value) + " is " + what + "; a use block imports a contract directory."
	case err != nil:
		detail = "Cannot read the directory " + quote(u.Path.Value) + ": " + err.Error() + "."
	case len(files) == 0 && !diags.HasErrors():
		detail = "The directory " + quote(u.Path.Value) + " holds no *" + FileSuffix + " file to import."
	case len(files) == 0:
		return nil, diags
	}
	if detail != "" {
		return nil, hcl.Diagnostics{diag.Errorf(diag.UseMissing, u.Path.Range, "Imported directory not found", "%s", detail)}
	}
	m, more := parseFiles(dir, files, true)
	diags = append(diags, more...)
	l.stack = append(l.stack, loadFrame{key: key, rel: rel})
	diags = append(diags, l.loadImports(m, rel)...)
	l.stack = l.stack[:len(l.stack)-1]
	l.loaded[key] = m
	return m, diags
}

// onStack returns the index in the stack of the module being loaded from
// the directory key, or -1.
func (l *loader) onStack(key string) int {
	for i, f := range l.stack {
		if f.key == key {
			return i
		}
	}
	return -1
}

// display names a directory relative to the root in messages; the root
// itself is shown by its base name.
func (l *loader) display(rel string) string {
	if rel == "." {
		abs, err := filepath.Abs(l.root)
		if err != nil {
			return l.root
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
	p := strings.TrimRight(slashPath(usePath), "/")
	s := diag.Suggest(path.Base(p), names)
	if s == "" {
		return ""
	}
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i+1] + s
	}
	return s
}
