package beampipe

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/tenetlang/tenet/eval/runs"
)

// Shard is one runs shard written: the runs of one (contract, condition),
// sorted by key, at Path; Dups are its duplicate runs (bad records: the
// shard is then not written).
type Shard struct {
	Contract  string
	Condition string
	Path      string
	Runs      int
	Dups      []Fact
}

// ShardPath is where the runs of (contract, condition) go under prefix:
// prefix-<FNV-1a 64 of contract NUL condition, 16 hex digits>.jsonl. The
// name depends on the condition only, so that a retried or re-run
// pipeline replaces its own shards and two conditions never share one
// (their names are untrusted text, kept out of the path).
func ShardPath(prefix, contract, condition string) string {
	h := fnv.New64a()
	h.Write([]byte(contract + "\x00" + condition))
	return fmt.Sprintf("%s-%016x.jsonl", prefix, h.Sum64())
}

// shardFn writes the runs of one (contract, condition) group: decoded
// (eval/runs), sorted by key, written with runs.Writer (which checks what
// a runs file must hold) to the group's shard on its Beam filesystem. Of
// two runs with one key the later in input order (file, then line) is the
// duplicate, as in tenet eval.
type shardFn struct {
	Out   string
	RunID string // the shard is written to TempPath(its path, RunID): Commit names it
}

type judged struct {
	rec  runs.Record
	line []byte
}

func (f *shardFn) ProcessElement(ctx context.Context, key string, lines func(*[]byte) bool, emit func(Shard)) error {
	var rs []judged
	var line []byte
	for lines(&line) {
		recs, err := runs.Read("judged run", bytes.NewReader(line))
		if err != nil || len(recs) != 1 {
			return fmt.Errorf("a judged run does not read back (%v): %s", err, line)
		}
		rs = append(rs, judged{recs[0], slices.Clone(line)})
	}
	slices.SortFunc(rs, func(a, b judged) int {
		return cmp.Or(a.rec.Key.Compare(b.rec.Key), cmp.Compare(a.rec.OriginFile, b.rec.OriginFile), cmp.Compare(a.rec.OriginLine, b.rec.OriginLine))
	})
	contract, condition, _ := strings.Cut(key, "\x00")
	sh := Shard{Contract: contract, Condition: condition, Path: ShardPath(f.Out, contract, condition)}
	kept := rs[:0]
	for _, r := range rs {
		if n := len(kept); n > 0 && kept[n-1].rec.Key == r.rec.Key {
			prev := kept[n-1].rec
			sh.Dups = append(sh.Dups, Fact{Kind: FactBad, File: r.rec.OriginFile, Line: r.rec.OriginLine,
				Msg: fmt.Sprintf("%s:%d: duplicate run %s: the same key as %s:%d",
					r.rec.OriginFile, r.rec.OriginLine, r.rec.Key.String(), prev.OriginFile, prev.OriginLine)})
			continue
		}
		kept = append(kept, r)
	}
	sh.Runs = len(kept)
	if len(sh.Dups) > 0 {
		emit(sh) // the evaluation fails: no shard is written
		return nil
	}
	if err := writeShard(ctx, TempPath(sh.Path, f.RunID), kept); err != nil {
		return err
	}
	emit(sh)
	return nil
}

// writeShard writes the sorted runs to path, replacing it.
func writeShard(ctx context.Context, path string, rs []judged) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("runs shard %s: %w", path, err)
	}
	rw := runs.NewWriter(w)
	for _, r := range rs {
		if err := rw.Write(r.rec, r.line); err != nil {
			w.Close()
			return fmt.Errorf("runs shard %s: %w", path, err)
		}
	}
	if err := rw.Close(); err != nil {
		w.Close()
		return fmt.Errorf("runs shard %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("runs shard %s: %w", path, err)
	}
	return nil
}
