package pipeline

import (
	"slices"

	"cel.dev/cel-go/cel"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/celread"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	srcexpr "github.com/tenetlang/tenet/eval/source"
)

// Sharding (docs/scale-out.md, "Sharding"). With Options.Shard a pass
// judges only the runs whose key (eval/shard: contract, condition, task)
// falls in its shard; a profile's run (condition "C+NAME") falls in the
// shard of its base run (condition C: shard.Base), so that each shard
// pairs its own tasks' runs for the profile's flip counts. The shard is decided as early as the key is
// known: on a record's peek when the format has one and the source's key
// expressions read nothing the peek leaves out (the record is then not
// decoded when no target owns it), else on the decoded record before it
// is judged. Either way a keyer, the source's select and key expressions
// compiled again from the bundle's checked forms, computes the key as
// eval.Program.Judge does; when it cannot (an expression fails, or gives
// what a key cannot hold), Judge decides and reports. A keyer runs the
// very expressions Judge runs on the same meta and record (a peek's meta
// is the decoded run's, and its record lacks only members the key does not
// read), so it finds Judge's key; the collector (judged) checks every
// judged run's key again, so a run no keyer placed is placed by its key.
//
// A record whose key cannot be computed — bad input before the key (a
// framing or decoding error, a source expression that fails) — is reported
// by every shard, as the unsharded evaluation would; a record with a key
// is reported (judged, skipped or refused) by its own shard only.

// OtherShardReason is the reason a Result's OtherShards are reported
// under (a report's skipped records).
const OtherShardReason = "in another shard"

// keyer maps a record to its run key for one target before it is judged.
type keyer struct {
	src      *bundle.SourcePlan
	x        srcexpr.Exprs // index-aligned with the bundle's Exprs: the source's select and key parts only
	reads    []celread.Use
	contract string
}

// newKeyer compiles t's source expressions for sharding; nil when one of
// them cannot be (Judge then decides every record of t, and the collector
// drops the runs of other shards).
func newKeyer(t judgeTarget) *keyer {
	b, src := t.p.Bundle, t.src
	env, err := celenv.NewSource()
	if err != nil {
		return nil
	}
	k := &keyer{src: src, x: make(srcexpr.Exprs, len(b.Exprs)), contract: b.Manifest.Contract}
	idx := []int{src.Select, src.Task, src.Goal, src.Condition, src.Attempt, src.Repetition}
	if src.Attack != nil {
		idx = append(idx, *src.Attack)
	}
	for n, i := range idx {
		if i == bundle.NoExpr {
			continue
		}
		if i < 0 || i >= len(b.Exprs) {
			return nil
		}
		var ce exprpb.CheckedExpr
		if err := proto.Unmarshal(b.Exprs[i].Checked, &ce); err != nil {
			return nil
		}
		ast := cel.CheckedExprToAst(&ce)
		prg, err := env.Program(ast, cel.CostLimit(b.Plan.RunCostLimit))
		if err != nil {
			return nil
		}
		k.x[i] = prg
		if n > 0 { // a key part: what it reads of record decides whether a peek can give it
			k.reads = append(k.reads, celread.UseOf(ast, "record"))
		}
	}
	return k
}

// key is the run key of a record as Judge maps it, its contract set, but
// its condition without the suffix a profile's Program adds (the base
// condition the shard is decided on: shard.Base); false when it cannot be
// computed.
func (k *keyer) key(meta, record map[string]any) (runs.Key, bool) {
	act := srcexpr.Activation{Meta: meta, Record: record}
	if act.Meta == nil {
		act.Meta = map[string]any{}
	}
	key, err := k.x.Key(k.src, &act)
	if err != nil {
		return runs.Key{}, false
	}
	key.Contract = k.contract
	return key, true
}

// peekable reports whether the key parts read nothing of record that a
// peek left out (unread).
func (k *keyer) peekable(unread []string) bool {
	for _, u := range k.reads {
		if u.Whole || slices.ContainsFunc(u.Fields, func(f string) bool { return slices.Contains(unread, f) }) {
			return false
		}
	}
	return true
}

// sharded reports whether the pass judges one shard of several.
func (ps *pass) sharded() bool { return !ps.shard.Whole() }

// peekShard turns the selection of each target that the peek pk selects
// (or that has no select) into otherShard when its key, computed on the
// peek, is another shard's.
func (ps *pass) peekShard(sel []selection, meta, record map[string]any, unread []string) {
	for i, t := range ps.targets {
		k := ps.keyers[i]
		if k == nil || !(sel[i] == selected || sel[i] == undecided && t.src.Select == bundle.NoExpr) || !k.peekable(unread) {
			continue
		}
		if key, ok := k.key(meta, record); ok && !ps.shard.Owns(key) {
			sel[i] = otherShard
		}
	}
}

// runShard decides target i's shard on the decoded run rn, before it is
// judged: otherShard when its key is another shard's, else s unchanged
// (Judge decides, evaluating select again unless a peek found it true, and
// reports what fails).
func (ps *pass) runShard(i int, s selection, rn *run.Run) selection {
	k := ps.keyers[i]
	if k == nil || (s != undecided && s != selected) {
		return s
	}
	act := srcexpr.Activation{Meta: rn.Meta, Record: rn.Record}
	if act.Meta == nil {
		act.Meta = map[string]any{}
	}
	if s == undecided {
		if ok, err := k.x.Select(k.src, &act); err != nil || !ok {
			return s
		}
	}
	key, ok := k.key(rn.Meta, rn.Record)
	if ok && !ps.shard.Owns(key) {
		return otherShard
	}
	return s
}

// otherShardVerdict is the verdict of a target whose run is another
// shard's: not judged here, counted in Result.OtherShards.
func otherShardVerdict() verdict { return verdict{other: true} }

// ownedElsewhere reports whether target i's judgement's key (set for a
// judged run and for the skips that have one) is another shard's: the
// collector's check, whatever the keyer found. The shard is its base
// key's (without target i's profile suffix), as the keyer's.
func (ps *pass) ownedElsewhere(i int, j eval.Judgement) bool {
	return ps.sharded() && j.Skip != eval.NotSelected && !ps.shard.Owns(shard.Base(j.Record.Key, ps.targets[i].p.Profile()))
}
