package pipeline

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
)

// Select before decoding (docs/performance.md, "Select before decoding
// (issue 17)"). A record no target selects needs none of its transcript:
// when every target's select reads only what a peek at the record gives
// (its meta, and its record's members but the transcript), the pass
// peeks at each record and evaluates the selects first. A record every
// select leaves unselected is then counted, as after decoding it, without
// being decoded — once its bytes are checked to be JSON the reader's
// decoder accepts, so that invalid JSON is still the error it was at its
// file:line. What is not checked is what the reader would refuse in the
// transcript itself (a malformed message): nothing judges it.

// canPeek reports whether a record of the pass can be left undecoded: every
// target has a select (without one a target selects every record), and the
// pass's format (or, under auto, some format) has a peek.
func (ps *pass) canPeek() bool {
	if ps.format != transcript.Auto && !transcript.CanPeek(ps.format) {
		return false
	}
	for _, t := range ps.targets {
		if t.src.Select == bundle.NoExpr {
			return false
		}
	}
	return len(ps.targets) > 0
}

// peekSelect peeks at a record of format and evaluates every target's
// select on it. When no target selects it and it is JSON the reader
// accepts, o is its outcome (every verdict eval.NotSelected). Else
// o.verdict is nil, the record is to be decoded, and unselected, when not
// nil, marks the targets whose select the peek found false (the decoded
// run, whose meta is the peek's, gives the same).
func (ps *pass) peekSelect(format string, data []byte) (o outcome, unselected []bool) {
	pk, ok := transcript.Peek(format, data)
	if !ok {
		return outcome{}, nil
	}
	unselected = make([]bool, len(ps.targets))
	all := true
	for i, t := range ps.targets {
		selected, ok := t.p.PeekSelect(t.src, pk.Meta, pk.Record, pk.Unread)
		unselected[i] = ok && !selected
		all = all && unselected[i]
	}
	if !all || !pk.Check() {
		return outcome{}, unselected
	}
	vs := make([]verdict, len(ps.targets))
	for i := range vs {
		vs[i].j = eval.Judgement{Skip: eval.NotSelected}
	}
	return outcome{verdict: vs}, nil
}
