package eval

import (
	"cel.dev/cel-go/cel"

	"github.com/tenetlang/tenet/compiler/celenv"
)

// GateProgram returns the planned CEL program of gate expression expr (an
// index in Bundle.Exprs that a GatePlan's Require names) and the fields of
// tenet.Metrics it reads, for eval/gates, which evaluates gates against
// computed metrics. The program was planned and checked against its text
// with every other expression (Plan). false: expr is not a gate expression
// of the bundle.
func (p *Program) GateProgram(expr int) (prog cel.Program, fields []string, ok bool) {
	if expr < 0 || expr >= len(p.progs) || p.Bundle.Exprs[expr].Env != celenv.KindGate {
		return nil, nil, false
	}
	return p.progs[expr], p.gateFields[expr], true
}
