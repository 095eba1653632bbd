package tenet

import (
	"io"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/consistency"
)

// Inspect writes what the bundle holds (bundle.Disassemble: id,
// signatures, header, manifest, declarations, plan, every expression and
// a disassembly of each pattern's program), as `tenet inspect` prints it;
// size is the bundle file's length for the header, 0 for none (a bundle
// compiled from a directory). Each expression's and pattern's compiled
// form is first checked against its text (consistency.CheckTexts; with
// verify, every text is compiled again and compared byte for byte): those
// that differ are marked MISMATCH, with what actually runs, and returned.
// With none, the bundle is planned as eval plans it, and what eval would
// refuse is an error, before anything is written.
func (b *Bundle) Inspect(w io.Writer, size int, verify bool) (consistency.TextIssues, error) {
	c := b.contract
	issues, err := consistency.CheckTexts(c, verify)
	if err != nil {
		return issues, err
	}
	if issues.Len() == 0 {
		if _, err := eval.Plan(c, b.id); err != nil {
			return issues, err
		}
	}
	a := bundle.Annotations{Size: size, Signers: b.signers, Exprs: map[int]bundle.ExprMismatch{}, Patterns: issues.Patterns}
	for i, err := range issues.Exprs {
		a.Exprs[i] = bundle.ExprMismatch{Err: err, Runs: consistency.Unparse(&c.Exprs[i])}
	}
	bundle.Disassemble(w, c, b.id, a)
	return issues, nil
}
