package compiler

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// Built is a contract compiled and encoded: the bundle file `tenet build`
// writes and `tenet eval DIR` loads. Build and BuildDir are the one way
// from sources to bundle bytes, so that a bundle compiled in memory has the
// id the same contract gets from `tenet build`.
type Built struct {
	// Module is the parsed contract: its source files (for diagnostic
	// snippets) and test blocks. Nil only when the directory could not be
	// read at all.
	Module *lang.Module
	// Bundle, Data and ID are set when no diagnostic is an error: the
	// compiled bundle, its file bytes (bundle.Encode) and its id
	// ("sha256:<hex>" of the payload).
	Bundle *bundle.Bundle
	Data   []byte
	ID     string
}

// BuildDir parses the contract in dir (lang.ParseDir), compiles it
// (CompileDir) and encodes its bundle. Every diagnostic is returned, the
// warnings of a contract that compiles included; when one is an error, the
// Built holds only the Module.
func BuildDir(dir string, opt Options) (*Built, hcl.Diagnostics) {
	mod, b, diags := CompileDir(dir, opt)
	return encode(mod, b, diags)
}

// BuildFiles is BuildDir for sources in memory (lang.ParseFiles: file name
// → contents, the names relative to dir).
func BuildFiles(dir string, files map[string][]byte, opt Options) (*Built, hcl.Diagnostics) {
	mod, diags := lang.ParseFiles(dir, files)
	if mod == nil || len(mod.Files) == 0 {
		return &Built{Module: mod}, diags
	}
	b, more := Compile(mod, opt)
	diags = append(diags, more...)
	SortDiagnostics(diags)
	return encode(mod, b, diags)
}

// encode finishes Build and BuildDir. The bundle of a contract that
// compiled always encodes (it holds only CBOR-encodable values); a failure
// is a bug in tenet, reported as an internal-error diagnostic like a panic
// of the compiler.
func encode(m *lang.Module, b *bundle.Bundle, diags hcl.Diagnostics) (*Built, hcl.Diagnostics) {
	out := &Built{Module: m}
	if b == nil || diags.HasErrors() {
		return out, diags
	}
	data, id, err := bundle.Encode(b)
	if err != nil {
		return out, append(diags, diag.Set(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Internal error in the compiler",
			Detail: fmt.Sprintf("%v. This is a bug in tenet; please report it with the contract that caused it.", err)}, "internal-error"))
	}
	out.Bundle, out.Data, out.ID = b, data, id
	return out, diags
}
