package pipeline

import (
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
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
// target has a select (without one a target selects every record) or the
// pass is sharded, and the pass's format (or, under auto, some format) has
// a peek.
func (ps *pass) canPeek() bool {
	if ps.format != transcript.Auto && !transcript.CanPeek(ps.format) {
		return false
	}
	if ps.sharded() {
		// A record's key on its peek may leave it undecoded too.
		return len(ps.targets) > 0
	}
	for _, t := range ps.targets {
		if t.src.Select == bundle.NoExpr {
			return false
		}
	}
	return len(ps.targets) > 0
}

// selection is what a peek found of one target's select.
type selection uint8

const (
	undecided   selection = iota // the peek could not tell: Judge evaluates select
	selected                     // true: Judge need not evaluate it again
	notSelected                  // false: the target does not judge the record
	otherShard                   // its key is another shard's (shard.go)
)

// peekSelect peeks at a record of format and evaluates every target's
// select on it (and, sharded, the key of each target that selects it).
// When no target selects it in this shard and it is JSON the reader
// accepts, o is its outcome (every verdict eval.NotSelected, or another
// shard's). Else
// o.verdict is nil, and sel, when not nil, is what the peek found of each
// target's select (the decoded run, whose meta is the peek's, gives the
// same) and rn, when not nil, is the record decoded reusing the peek
// (transcript.DecodePeeked): with it, a record some target selects costs
// little more than its decoding did without a peek. A nil rn means the
// record is to be decoded (transcript.Decode says what it is).
func (ps *pass) peekSelect(format string, origin run.Origin, data []byte) (o outcome, sel []selection, rn *run.Run) {
	pk, ok := transcript.Peek(format, data)
	if !ok {
		return outcome{}, nil, nil
	}
	sel = make([]selection, len(ps.targets))
	all := true
	for i, t := range ps.targets {
		switch s, ok := t.p.PeekSelect(t.src, pk.Meta, pk.Record, pk.Unread); {
		case !ok:
			sel[i] = undecided
		case s:
			sel[i] = selected
		default:
			sel[i] = notSelected
		}
	}
	if ps.sharded() {
		ps.peekShard(sel, pk.Meta, pk.Record, pk.Unread)
	}
	for _, s := range sel {
		all = all && (s == notSelected || s == otherShard)
	}
	if all {
		if !pk.Check() {
			return outcome{}, sel, nil // invalid JSON: Decode's error
		}
		vs := make([]verdict, len(ps.targets))
		for i := range vs {
			vs[i].j = eval.Judgement{Skip: eval.NotSelected}
			if sel[i] == otherShard {
				vs[i] = otherShardVerdict()
			}
		}
		return outcome{verdict: vs}, nil, nil
	}
	rn, _ = transcript.DecodePeeked(format, origin, pk)
	return outcome{}, sel, rn
}
