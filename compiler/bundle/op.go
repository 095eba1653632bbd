package bundle

import (
	"fmt"
	"strings"

	"github.com/fxamacker/cbor/v2"
)

// Op is a pattern VM instruction (Inst.Op): the instruction set the
// compiler emits, Validate checks, Disassemble prints and eval's Pike VM
// runs (docs/patterns.md, docs/bundle.md). In memory it is a small integer,
// so the VM compares integers; in the bundle it is its name (the text
// form below), so bundle bytes and ids do not depend on the numbering.
// The zero Op is no instruction: a bundle holding one is refused.
type Op uint8

// The instructions. Adding one means a name in opNames, a rule in
// validProgram, a line in disasm and a case in eval's VM; TestEveryOp and
// eval's TestVMRunsEveryOp fail until each is there.
const (
	_       Op = iota // not an instruction
	OpStep            // step X: consume an item matching step X (selector and guard), binding it to X
	OpNot             // not X: consume an item that does not match step X
	OpAny             // any: consume any item
	OpSplit           // split X Y: continue at X and at Y (X preferred)
	OpJmp             // jmp X: continue at X
	OpBol             // bol: succeed only before the first item
	OpEol             // eol: succeed only after the last item
	OpMatch           // match: the pattern matched
	opEnd             // one past the last instruction
)

// opNames is each instruction's text form: what the bundle stores and the
// disassembly prints. Fixed forever for a given format version.
var opNames = [opEnd]string{
	OpStep:  "step",
	OpNot:   "not",
	OpAny:   "any",
	OpSplit: "split",
	OpJmp:   "jmp",
	OpBol:   "bol",
	OpEol:   "eol",
	OpMatch: "match",
}

// Ops returns every instruction, in numbering order.
func Ops() []Op {
	out := make([]Op, 0, opEnd-1)
	for o := OpStep; o < opEnd; o++ {
		out = append(out, o)
	}
	return out
}

// Valid reports whether o is an instruction of this instruction set.
func (o Op) Valid() bool { return o > 0 && o < opEnd }

// String is the instruction's text form, e.g. "split"; an invalid Op
// renders as "op(N)" so that no message hides it.
func (o Op) String() string {
	if !o.Valid() {
		return fmt.Sprintf("op(%d)", uint8(o))
	}
	return opNames[o]
}

// ParseOp returns the instruction whose text form is s.
func ParseOp(s string) (Op, bool) {
	for o := OpStep; o < opEnd; o++ {
		if opNames[o] == s {
			return o, true
		}
	}
	return 0, false
}

// MarshalCBOR writes the text form: the bundle encoding is the one the
// string-typed Op of earlier tenets wrote, byte for byte.
func (o Op) MarshalCBOR() ([]byte, error) {
	if !o.Valid() {
		return nil, fmt.Errorf("pattern instruction %s is not in the instruction set", o)
	}
	return cbor.Marshal(opNames[o])
}

// UnmarshalCBOR reads the text form; a name this tenet does not know is
// refused here, once, when the bundle is decoded.
func (o *Op) UnmarshalCBOR(data []byte) error {
	var s string
	if err := cbor.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("pattern instruction: %w", err)
	}
	op, ok := ParseOp(s)
	if !ok {
		return fmt.Errorf("pattern instruction %q is not one this tenet knows (%s)", clipName(s), strings.Join(opNames[1:], ", "))
	}
	*o = op
	return nil
}

// clipName shortens a name read from a hostile bundle for a message.
func clipName(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
