// Package patterncode turns a trace pattern into the program the pattern
// VM (eval/pike) runs: a parsed pattern over its steps' names → a list of
// bundle.Inst by Thompson's construction, bounded by MaxProgram. The
// compiler stores the program in a bundle; eval/consistency compiles a
// bundle's pattern texts again with PatternProgram, so that the program
// that runs cannot disagree with the text inspect and explain show.
//
// It takes lang/pattern's tree (or a pattern's text) and gives
// compiler/bundle's instructions; it imports only those two packages.
package patterncode

import (
	"fmt"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/lang/pattern"
)

// MaxProgram bounds a pattern's compiled size (instructions): counted
// repetition is expanded into copies, so {100}{100} would otherwise explode.
const MaxProgram = 10_000

// program builds a pattern's bytecode by Thompson's construction.
type program struct {
	code  []bundle.Inst
	steps map[string]int
}

func (p *program) add(op bundle.Op, x, y int) int {
	p.code = append(p.code, bundle.Inst{Op: op, X: x, Y: y})
	return len(p.code) - 1
}

// emit appends the code of n; code falls through to what follows.
func (p *program) emit(n *pattern.Node) {
	if len(p.code) > MaxProgram {
		return // the caller reports the size
	}
	switch n.Kind {
	case pattern.Step:
		p.add(bundle.OpStep, p.steps[n.Name], 0)
	case pattern.Not:
		p.add(bundle.OpNot, p.steps[n.Name], 0)
	case pattern.Any:
		p.add(bundle.OpAny, 0, 0)
	case pattern.Begin:
		p.add(bundle.OpBol, 0, 0)
	case pattern.End:
		p.add(bundle.OpEol, 0, 0)
	case pattern.Seq:
		for _, ch := range n.Children {
			p.emit(ch)
		}
	case pattern.Alt:
		// split L1, next; L1: a; jmp end; next: split L2, next2; ...
		var jumps []int
		for i, ch := range n.Children {
			if i == len(n.Children)-1 {
				p.emit(ch)
				break
			}
			split := p.add(bundle.OpSplit, 0, 0)
			p.code[split].X = len(p.code)
			p.emit(ch)
			jumps = append(jumps, p.add(bundle.OpJmp, 0, 0))
			p.code[split].Y = len(p.code)
		}
		for _, j := range jumps {
			p.code[j].X = len(p.code)
		}
	case pattern.Repeat:
		body := n.Children[0]
		for i := 0; i < n.Min; i++ {
			p.emit(body)
		}
		if n.Max < 0 {
			// loop: split body, out; body; jmp loop
			loop := p.add(bundle.OpSplit, 0, 0)
			p.code[loop].X = len(p.code)
			p.emit(body)
			p.add(bundle.OpJmp, loop, 0)
			p.code[loop].Y = len(p.code)
			return
		}
		// (max-min) optional copies: split body, out; body; ... all exits to the end
		var exits []int
		for i := n.Min; i < n.Max; i++ {
			split := p.add(bundle.OpSplit, 0, 0)
			p.code[split].X = len(p.code)
			exits = append(exits, split)
			p.emit(body)
		}
		for _, s := range exits {
			p.code[s].Y = len(p.code)
		}
	}
}

// Emit returns the program of a parsed pattern whose step names index
// gives (name → step number), ending in OpMatch. When it is longer than
// MaxProgram, emission stopped early: the caller reports the size.
func Emit(tree *pattern.Node, index map[string]int) []bundle.Inst {
	prog := &program{steps: index}
	prog.emit(tree)
	prog.add(bundle.OpMatch, 0, 0)
	return prog.code
}

// PatternProgram compiles a pattern's text, over its steps' names (in
// order), into the program the compiler stores in a bundle. eval compiles
// a bundle's pattern texts again with it, so that the program that runs
// cannot disagree with the text inspect and explain show.
func PatternProgram(text string, steps []string) ([]bundle.Inst, error) {
	tree, perr := pattern.Parse(text)
	if perr != nil {
		return nil, fmt.Errorf("the pattern does not parse: %s", perr.Msg)
	}
	index := map[string]int{}
	for i, s := range steps {
		index[s] = i
	}
	for _, r := range pattern.Steps(tree) {
		if _, ok := index[r.Name]; !ok {
			return nil, fmt.Errorf("the pattern names step %q, which the pattern does not declare", r.Name)
		}
	}
	code := Emit(tree, index)
	if len(code) > MaxProgram {
		return nil, fmt.Errorf("the pattern compiles to %d instructions, more than %d", len(code), MaxProgram)
	}
	return code, nil
}
