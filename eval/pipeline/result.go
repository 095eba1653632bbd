package pipeline

import (
	"context"
	"io"
	"sort"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	"github.com/tenetlang/tenet/eval/transcript"
)

// Result is the outcome of evaluating transcript files with one source.
type Result struct {
	// Records holds the judged runs, sorted by key; nil when
	// Options.SortBytes > 0, which leaves them to SortResults.
	Records []runs.Record
	// Headers counts records without a transcript (e.g. header lines).
	Headers int
	// Skipped counts records by why they were not judged, and SkippedIDs
	// the task (or task/goal) ids per reason, so reports can name them.
	Skipped    map[eval.Skip]int
	SkippedIDs map[eval.Skip]map[string]int
	// OtherShards counts the records (with Options.Shard) whose run is
	// another shard's: not judged here (OtherShardReason).
	OtherShards int
	// Errors are records that could not be read or mapped to a run
	// (file:line: reason), in input order. With Options.SortBytes > 0,
	// duplicate keys are among them only once SortResults has run. With
	// Options.MaxErrors > 0 only the first MaxErrors are kept, and
	// MoreErrors counts the others.
	Errors     []error
	MoreErrors int

	// With Options.SortBytes > 0: the judged runs, the input position of
	// each error, the duplicates SortResults found.
	store     *store
	errSeqs   []runs.Seq
	dups      int
	maxErrors int     // Options.MaxErrors
	unread    *unread // the unreadable records of this result's pass

	unselected *unselected // the records no target of this result's pass selected
}

// Options configure EvalFiles and EvalCollection.
type Options struct {
	Source     string // source block name; "" when the contract has exactly one
	Format     string // transcript format; "" means the source's format, and "auto" (or a source without one) each file's own, recognised from its start (transcript.ResolveFormat)
	Grant      string // audit against this grant instead of the source's (docs/language.md, "grant")
	Transcript transcript.Options
	// SortBytes, when > 0, bounds the memory of the judged runs: instead
	// of Result.Records each Result holds its runs, the Results sharing a
	// budget of SortBytes bytes. A Result keeps its runs as values while
	// their estimated size fits its share, then moves them to a
	// runsort.Sorter, which holds them encoded and spills what exceeds the
	// share to temporary files in SortDir (os.TempDir() when "").
	// SortResults then yields the runs in key order and reports duplicate
	// keys in Result.Errors; Close each Result after. A judged run a runs
	// file cannot hold exactly (runs.Encodable) is then a bad record.
	SortBytes int
	SortDir   string
	// MaxErrors, when > 0, bounds the bad records each Result keeps (the
	// first in input order, duplicates included); Result.MoreErrors counts
	// the rest, so that memory does not grow with them.
	MaxErrors int
	// Workers is the number of goroutines that decode and judge records;
	// 0 (or less) means runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Progress, when set, is called after each record (a run or a bad
	// record; header lines are not counted) with the records and the bytes
	// of transcript read so far (as stored: compressed bytes for gzip and
	// zstd files) by this call, over all its passes (one per
	// transcript format). Both counts are monotone; bytes run ahead of
	// records by at most the records in flight and a read buffer. It is
	// always called from the goroutine that called EvalFiles or
	// EvalCollection.
	Progress func(records int, bytes int64)
	// Context, when set, ends the evaluation early once it is cancelled
	// (tenet was interrupted): EvalFiles and EvalCollection then return its
	// error. It is checked after each record.
	Context context.Context
	// Open opens a file for reading (its bytes as stored: gzip and zstd
	// are decompressed after, by content, with inputs.Decompress, and the
	// progress counts the stored bytes); nil is os.Open. inputs.List.Open
	// also opens the copy of standard input.
	Open func(name string) (io.ReadCloser, error)
	// Shard, when not the whole (eval/shard), judges only the runs whose
	// key is that shard's (shard.go); the others are counted in
	// Result.OtherShards. A task's runs (benign and attacked, every
	// attempt, repetition and attack) are never split; the results do not
	// depend on the workers.
	Shard shard.Shard
}

// EvalFiles streams each transcript file through the source plan and judges
// every run. Duplicate run keys are errors naming both records (the later
// record, in the order of files then lines, is the error). Only I/O failures
// (a file that cannot be opened) end it early, with that error; bad records
// are collected in Result.Errors, in input order. It is EvalCollection with
// one program.
func EvalFiles(p *eval.Program, files []string, opt Options) (*Result, error) {
	res, err := EvalCollection([]*eval.Program{p}, files, opt)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// SortedIDs returns the ids of a SkippedIDs entry, sorted.
func SortedIDs(m map[string]int) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
