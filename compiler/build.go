package compiler

import (
	"fmt"
	"os"
	"path/filepath"

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

// SourceFiles lists the contract sources (*.tenet.hcl) directly inside
// dir, sorted; none when dir cannot be read.
func SourceFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"+lang.FileSuffix))
	return files
}

// ContractDirs lists the contracts a directory holds: dir itself when it
// holds sources, else each subdirectory that does, in name order (a
// collection, such as contracts/agentdojo). It is an error when there are
// none.
func ContractDirs(dir string) ([]string, error) {
	if len(SourceFiles(dir)) > 0 {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && len(SourceFiles(sub)) > 0 {
			dirs = append(dirs, sub)
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no *.tenet.hcl files and no contract directories", dir)
	}
	return dirs, nil
}

// Summary describes a compiled contract in one line, as `tenet check` and
// `tenet build` print it.
func Summary(b *bundle.Bundle) string {
	m := b.Manifest
	name := m.Contract
	if m.Version != "" {
		name += " " + m.Version
	}
	return fmt.Sprintf("ok: contract %s: %s, %s, %s, %s, %s, %s", name,
		count(len(b.Decls.Tools), "tool"), count(len(b.Decls.Scopes[0].Predicates), "predicate"), count(len(b.Plan.Tasks), "task"),
		count(len(b.Plan.Goals), "goal"), count(len(b.Plan.Cases), "security case"), count(len(b.Plan.Sources), "source"))
}

// count renders "1 task", "2 tasks".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
