package beampipe

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/runs"
)

// BadRecordsError is the pipeline's error when records could not be read
// or mapped to a run, or are duplicates: no report is written (the shards
// of the conditions without duplicates are, under temporary names that
// Abort removes).
type BadRecordsError struct {
	N     int      // bad records in all
	Lines []string // the first Options.MaxBadRecords by file then line, then "... N more bad records not shown"
}

func (e *BadRecordsError) Error() string {
	return report.Count(e.N, "bad record") + ":\n" + strings.Join(e.Lines, "\n")
}

// reportFn builds the report document from the shards and the facts, on
// one worker: the shards are read back in key order (by contract, then
// condition, each sorted) into an eval/assemble Assembler, which holds
// one condition at a time — what tenet report does with runs files, and
// tenet eval with its sorted runs, so the Document is theirs.
type reportFn struct {
	Opt Options
	ts  []target
}

func (f *reportFn) Setup() error {
	ts, err := f.Opt.targets()
	f.ts = ts
	return err
}

func (f *reportFn) ProcessElement(ctx context.Context, _ []byte, shardIt func(*Shard) bool, factIt func(*Fact) bool) error {
	var shards []Shard
	var sh Shard
	for shardIt(&sh) {
		shards = append(shards, sh)
	}
	doc, err := f.document(ctx, shards, factIt)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := formats.Write(&b, doc, "json"); err != nil {
		return err
	}
	return writeFile(ctx, TempPath(f.Opt.Report, f.Opt.RunID), b.Bytes()) // Commit names it, last
}

// document is the report of the shards and facts, or the bad records'
// error.
func (f *reportFn) document(ctx context.Context, shards []Shard, factIt func(*Fact) bool) (*report.Document, error) {
	// Bad records are named as tenet eval names them: contract by
	// contract, each in input order (files by name, then lines).
	byPlace := func(a, b Fact) int {
		return cmp.Or(cmp.Compare(a.Contract, b.Contract), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Msg, b.Msg))
	}
	// The facts are read once, keeping only what the report or the error
	// names: a corpus's records no contract selects may be millions.
	maxBad := f.Opt.MaxBadRecords
	if maxBad == 0 {
		maxBad = defaultMaxBadRecords
	}
	var bad, notSel []Fact
	nbad := 0
	keep := func(fs []Fact, n int) []Fact {
		if len(fs) > 4*n+64 {
			slices.SortFunc(fs, byPlace)
			fs = fs[:n]
		}
		return fs
	}
	index := map[string]int{}
	for i, t := range f.ts {
		index[t.p.Bundle.Manifest.Contract] = i
	}
	for _, s := range shards {
		for _, d := range s.Dups {
			d.Contract = index[s.Contract]
			bad = keep(append(bad, d), maxBad)
			nbad++
		}
	}
	res := make([]*pipeline.Result, len(f.ts))
	for i := range res {
		res[i] = &pipeline.Result{Skipped: map[eval.Skip]int{}, SkippedIDs: map[eval.Skip]map[string]int{}}
	}
	unselected := &report.Unselected{}
	var fa Fact
	for factIt(&fa) {
		switch fa.Kind {
		case FactBad:
			bad = keep(append(bad, fa), maxBad)
			nbad++
		case FactHeader:
			for _, r := range res {
				r.Headers++
			}
		case FactUnselected:
			unselected.Records++
			notSel = keep(append(notSel, fa), pipeline.MaxUnselectedListed)
		case FactSkipped:
			r, s := res[fa.Contract], eval.Skip(fa.Reason)
			r.Skipped[s]++
			if s == eval.NotSelected {
				continue
			}
			if r.SkippedIDs[s] == nil {
				r.SkippedIDs[s] = map[string]int{}
			}
			r.SkippedIDs[s][fa.ID]++
		}
	}
	if nbad > 0 {
		slices.SortFunc(bad, byPlace)
		e := &BadRecordsError{N: nbad}
		for _, b := range bad[:min(len(bad), maxBad)] {
			e.Lines = append(e.Lines, b.Msg)
		}
		if nbad > maxBad {
			e.Lines = append(e.Lines, "... "+report.Count(nbad-maxBad, "more bad record")+" not shown")
		}
		return nil, e
	}
	slices.SortFunc(notSel, byPlace)
	for _, fa := range notSel[:min(len(notSel), pipeline.MaxUnselectedListed)] {
		unselected.First = append(unselected.First, report.UnselectedAt{File: fa.File, Line: fa.Line})
	}
	slices.SortFunc(shards, func(a, b Shard) int {
		return cmp.Or(cmp.Compare(a.Contract, b.Contract), cmp.Compare(a.Condition, b.Condition))
	})
	var files []string
	var progs []*eval.Program
	var contracts []report.Contract
	for i, t := range f.ts {
		c := assemble.ContractOf(t.p, res[i])
		c.Judged = 0 // res holds no runs: the shards count them
		for _, s := range shards {
			if s.Contract == c.Name {
				c.Judged += s.Runs
			}
		}
		contracts = append(contracts, c)
		progs = append(progs, t.p)
	}
	for _, s := range shards {
		files = append(files, s.Path)
	}
	in := assemble.Input{Command: report.CommandEval, Version: compiler.Version, Inputs: []string{f.Opt.Input},
		Contracts: contracts, Programs: progs,
		Metrics: f.Opt.metrics(), MaxListed: f.Opt.MaxListed, RunsFiles: files}
	a := assemble.New(in)
	for _, s := range shards {
		recs, err := readShard(ctx, TempPath(s.Path, f.Opt.RunID))
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if err := a.Add(r); err != nil {
				return nil, fmt.Errorf("runs shard %s: %w", s.Path, err)
			}
		}
	}
	doc := a.Document()
	doc.Unselected = unselected
	return doc, nil
}

// readShard reads one runs shard back.
func readShard(ctx context.Context, path string) ([]runs.Record, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("runs shard %s: %w", path, err)
	}
	defer r.Close()
	return runs.Read(path, r)
}

// writeFile writes data to path on its Beam filesystem, replacing it.
func writeFile(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := io.Copy(w, bytes.NewReader(data)); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return w.Close()
}
