package lang

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/lang/diag"
	"github.com/tenetlang/tenet/lang/internal/lex"
	"github.com/tenetlang/tenet/lang/internal/literal"
	"github.com/tenetlang/tenet/lang/internal/load"
)

// ParseDir reads every *.tenet.hcl file directly inside dir (not in
// subdirectories), in name order, into one Module, then loads the
// directories its use blocks name, recursively, into Module.Imports (see
// there). An imported directory needs no contract block.
//
// Paths in the module and its imports (SourceFile.Path and every hcl.Range
// Filename) are relative to dir and slash-separated, so diagnostics and
// bundles do not depend on the working directory. A directory without
// contract files is an error naming the directory. The returned Module is
// never nil; it holds whatever could be decoded, and the diagnostics report
// every problem found (decoding goes on after errors), each with a code
// (package lang/diag).
func ParseDir(dir string) (m *Module, diags hcl.Diagnostics) {
	files, diags, err := load.ReadDir(dir, ".", FileSuffix, MaxFileBytes)
	if err != nil {
		return &Module{Dir: dir}, hcl.Diagnostics{diag.ErrorfNoRange(diag.ReadError, "Cannot read contract directory", "%s", err.Error())}
	}
	if len(files) == 0 && diags.HasErrors() {
		return &Module{Dir: dir}, diags
	}
	m, more := parseFiles(dir, files, false)
	diags = append(diags, more...)
	// Loading imports must not take the program down either.
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, diag.ErrorfNoRange(diag.InternalError, "Internal error in the contract parser",
				"%v. This is a bug in tenet; please report it with the contract that caused it.", r))
		}
	}()
	l := &load.Loader[*Module]{Root: dir, Suffix: FileSuffix, MaxBytes: MaxFileBytes, MaxDepth: MaxUseDepth,
		Parse: func(dir string, files map[string][]byte) (*Module, hcl.Diagnostics) {
			return parseFiles(dir, files, true)
		},
		Uses: loadUses,
		Link: func(m *Module, i int, imported *Module) {
			u := m.Uses[i]
			m.Imports = append(m.Imports, &Import{Use: u, Namespace: u.Namespace(), Module: imported})
		},
	}
	diags = append(diags, l.Load(m)...)
	return m, diags
}

// ParseFiles is ParseDir over files held in memory: files maps a path
// relative to dir to the file's contents. Only paths ending in FileSuffix
// are read, in name order; backslashes in paths become slashes. Use blocks
// are decoded and checked but not loaded: Imports stays empty.
func ParseFiles(dir string, files map[string][]byte) (*Module, hcl.Diagnostics) {
	return parseFiles(dir, files, false)
}

// parseFiles is ParseFiles; a library (an imported module) needs no
// contract block.
func parseFiles(dir string, files map[string][]byte, library bool) (m *Module, diags hcl.Diagnostics) {
	m = &Module{Dir: dir}
	d := &decoder{m: m, files: map[string]*srcFile{}}
	// The parser must never take the program down on bad input; a panic is
	// a bug in lang or HCL, reported as a diagnostic (and caught by fuzzing).
	defer func() {
		if r := recover(); r != nil {
			diags = append(d.diags, diag.ErrorfNoRange(diag.InternalError, "Internal error in the contract parser",
				"%v. This is a bug in tenet; please report it with the contract that caused it.", r))
		}
	}()

	var names []string
	byName := map[string][]byte{}
	for name, b := range files {
		name = strings.ReplaceAll(name, "\\", "/")
		if strings.HasSuffix(name, FileSuffix) {
			names = append(names, name)
			byName[name] = b
		}
	}
	if len(names) == 0 {
		return m, hcl.Diagnostics{diag.ErrorfNoRange(diag.NoContractFiles, "No contract files",
			"The directory %s contains no *%s files.", dir, FileSuffix)}
	}
	sort.Strings(names)

	syntaxErrors := false
	for _, name := range names {
		src := byName[name]
		toks, refused := Lex(src, name)
		if refused != nil {
			d.diags = append(d.diags, diag.MarkSyntax(hcl.Diagnostics{refused})...)
			syntaxErrors = true
			m.Files = append(m.Files, &SourceFile{Path: name, Bytes: src, HCL: &hcl.File{Bytes: src}})
			continue
		}
		f, pdiags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		d.addHCL(pdiags, diag.HCLSyntax)
		// Only what leaves a partial parse is a syntax error: an attribute
		// set twice (duplicate-attribute) is reported by the parser too,
		// yet the file around it parses.
		for _, x := range pdiags {
			if diag.Of(x) == diag.HCLSyntax {
				diag.MarkSyntax(hcl.Diagnostics{x})
			}
		}
		syntaxErrors = syntaxErrors || pdiags.HasErrors()
		if f == nil {
			f = &hcl.File{Bytes: src}
		}
		sf := &SourceFile{Path: name, Bytes: src, HCL: f}
		m.Files = append(m.Files, sf)
		d.files[name] = &srcFile{SourceFile: sf, lines: literal.LineStarts(src), tokens: toks}
		if f.Body != nil {
			d.decodeFile(f.Body)
		}
	}
	m.SyntaxErrors = syntaxErrors
	// A missing contract block is noise next to syntax errors, which may
	// well be what hid it.
	if m.Contract == nil && !syntaxErrors && !library {
		start := hcl.Range{Filename: names[0], Start: hcl.InitialPos, End: hcl.InitialPos}
		d.errorf(diag.MissingContract, start, "Missing contract block",
			"A contract directory needs exactly one contract \"name\" { version = \"...\" } block; none of its %d file(s) has one.", len(names))
	}
	return m, d.diags
}

// FileMap returns the parsed files of the module and of every module it
// imports keyed by their relative path, as hcl.NewDiagnosticTextWriter
// wants them for source snippets.
func (m *Module) FileMap() map[string]*hcl.File {
	out := make(map[string]*hcl.File, len(m.Files))
	for _, x := range append([]*Module{m}, m.Imported()...) {
		for _, f := range x.Files {
			out[f.Path] = f.HCL
		}
	}
	return out
}

// srcFile is a SourceFile with what decoding criteria needs: where lines
// start and the file's tokens, as HCL's lexer produces them.
type srcFile struct {
	*SourceFile
	lines  []int
	tokens hclsyntax.Tokens
}

// decoder accumulates the module and its diagnostics over every file.
type decoder struct {
	m     *Module
	diags hcl.Diagnostics
	files map[string]*srcFile
	// declared[kind][name] is where a named block (or param) was first
	// declared, to report duplicates.
	declared map[string]map[string]hcl.Range
}

// file returns the source file a range belongs to, or nil.
func (d *decoder) file(name string) *srcFile {
	return d.files[name]
}

// addHCL appends diagnostics produced by HCL, giving each one without a
// code the code its summary maps to (or fallback).
func (d *decoder) addHCL(diags hcl.Diagnostics, fallback diag.Code) {
	d.diags = append(d.diags, diag.FromHCL(diags, fallback)...)
}

// errorf appends an error diagnostic with a code on subject.
func (d *decoder) errorf(code diag.Code, subject hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, diag.Errorf(code, subject, summary, format, args...))
}

// MaxFileBytes bounds the size of one contract file (64 MiB, a thousand
// times the largest shipped contract): a larger one is a read-error
// diagnostic, and is not read into memory.
const MaxFileBytes = 64 << 20

// Limits on a string of a contract file (package lang/internal/literal
// says why): a string of more than MaxStringParts literal parts, or of more
// than one part whose parts × bytes exceed MaxStringWork, is refused.
const (
	MaxStringParts = literal.MaxParts
	MaxStringWork  = literal.MaxWork
)

// Lex returns the tokens of a contract file as HCL's lexer gives them and,
// when the file must not be parsed, the error that says why (package
// lang/internal/lex: nesting beyond MaxNesting, a string beyond
// MaxStringParts or MaxStringWork). ParseFiles and `tenet fmt` (package
// lang/format) both check files this way before parsing them.
func Lex(src []byte, filename string) (hclsyntax.Tokens, *hcl.Diagnostic) {
	return lex.Lex(src, filename)
}

// MaxNesting bounds how deeply brackets, braces, parentheses and template
// interpolations may nest in a contract file.
const MaxNesting = lex.MaxNesting
