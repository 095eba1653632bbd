package lang

import (
	"path"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/ident"
	"github.com/tenetlang/tenet/lang/internal/load"
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
	return path.Base(load.SlashPath(u.Path.Value))
}

// namespaceRange is where the namespace is written: as, or the path.
func (u *Use) namespaceRange() hcl.Range {
	if u.As != nil {
		return u.As.Range
	}
	return u.Path.Range
}

func (d *decoder) use(b *hcl.Block) *Use {
	c := d.content(b.Body, useSchema)
	u := &Use{
		Path:  d.label(b, "path", false),
		As:    d.str(c.Attributes["as"]),
		Range: b.DefRange,
	}
	p := load.SlashPath(u.Path.Value)
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
	if u.As == nil && (!ident.IsIdent(ns) || IsReserved(ns)) {
		code, why, fix := diag.InvalidName, "is not an identifier", ident.Fix(ns)
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

// loadUses lists the use blocks of m for the loader: nil for a block in
// error, which is not loaded.
func loadUses(m *Module) []*load.Use {
	out := make([]*load.Use, len(m.Uses))
	for i, u := range m.Uses {
		if u.valid {
			out[i] = &load.Use{Path: u.Path.Value, PathRange: u.Path.Range, Namespace: u.Namespace(), Def: u.Range}
		}
	}
	return out
}
