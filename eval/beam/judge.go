package beampipe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/inputs"
)

// Record is one framed transcript record on its way to a judge: its file,
// its line there (the record's first), its format (under auto, its file's)
// and its bytes. A whole-file format (agentdojo-run, mcp) has one record
// per file.
type Record struct {
	File   string
	Line   int
	Format string
	Data   []byte
}

// FactKind says what became of a record that gave no judged run.
type FactKind int

// The kinds of Fact.
const (
	FactHeader     FactKind = iota + 1 // a record without a transcript (a header line)
	FactSkipped                        // not judged: Reason says why (eval.Skip), ID names the task (or task/goal)
	FactBad                            // a bad record (or a duplicate run): Msg says why
	FactUnselected                     // a record no contract's source selected
)

// Fact is what became of a record that gave no judged run, at File:Line:
// the counts of the report's contracts (headers, skipped, unselected) and
// the bad records, as eval/pipeline's Results hold them. Contract is the
// index of the contract in Options.Contracts; a header line, a record no
// contract selected and a record no contract could read concern them all
// (their Contract is 0: tenet eval names an unreadable record once, with
// the first contract).
type Fact struct {
	Kind     FactKind
	Contract int
	File     string
	Line     int
	Reason   int // eval.Skip, for FactSkipped
	ID       string
	Msg      string
}

// frameFn opens each matched file on its Beam filesystem, decompresses it
// by content (gzip, zstd: internal/inputs, as tenet eval) and frames its
// records with the format's framer (eval/transcript.OpenRecords): JSONL
// formats one record per line, whole-file formats one per file.
type frameFn struct {
	Format string // the resolved format; transcript.Auto: each file's own
}

func (f *frameFn) ProcessElement(ctx context.Context, md fileio.FileMetadata, emit func(Record), fact func(Fact)) error {
	fs, err := filesystem.New(ctx, md.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, md.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", md.Path, err)
	}
	defer rc.Close()
	dr := inputs.Decompress(rc)
	defer dr.Close()
	format, r, err := transcript.ResolveFormat(f.Format, md.Path, dr)
	if err != nil {
		// Under auto a file no format claims is one bad record, as in tenet eval.
		fact(Fact{Kind: FactBad, File: md.Path, Line: 1, Msg: err.Error()})
		return nil
	}
	rr, err := transcript.OpenRecords(format, md.Path, r, transcript.Options{})
	if err != nil {
		return err
	}
	for {
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var te *transcript.Error
			if !errors.As(err, &te) {
				return fmt.Errorf("%s: %w", md.Path, err)
			}
			fact(Fact{Kind: FactBad, File: rec.Origin.File, Line: rec.Origin.Line, Msg: err.Error()})
			continue
		}
		emit(Record{File: rec.Origin.File, Line: rec.Origin.Line, Format: format, Data: bytes.Clone(rec.Data)})
	}
}

// judgeFn decodes a record and judges it with every contract, the
// bundles loaded once per worker (Setup). A judged run leaves as its
// runs-file line (the eval/runs codec), keyed by its (contract,
// condition); anything else as a Fact. It follows eval/pipeline's
// per-record path (peek, decode once, header check, judge with each
// contract) so that each record's outcome is tenet eval's.
type judgeFn struct {
	Opt Options
	ts  []target
}

func (f *judgeFn) Setup() error {
	ts, err := f.Opt.targets()
	f.ts = ts
	return err
}

func (f *judgeFn) ProcessElement(r Record, emit func(string, []byte), fact func(Fact)) {
	js, errs, err := f.judge(r)
	switch {
	case err != nil:
		fact(Fact{Kind: FactBad, File: r.File, Line: r.Line, Msg: err.Error()})
		return
	case js == nil:
		fact(Fact{Kind: FactHeader, File: r.File, Line: r.Line})
		return
	}
	unselected := true
	for i, j := range js {
		unselected = unselected && errs[i] == nil && j.Skip == eval.NotSelected
		switch {
		case errs[i] != nil:
			fact(Fact{Kind: FactBad, Contract: i, File: r.File, Line: r.Line, Msg: errs[i].Error()})
		case j.Skip != eval.Judged:
			id := j.Record.Key.Task
			if j.Skip == eval.GoalNotDeclared || j.Skip == eval.CaseNotDeclared {
				id += "/" + j.Record.Key.Goal
			}
			fact(Fact{Kind: FactSkipped, Contract: i, File: r.File, Line: r.Line, Reason: int(j.Skip), ID: id})
		default:
			rec := j.Record
			var b bytes.Buffer
			if err := runs.Write(&b, []runs.Record{rec}); err != nil {
				// A run the runs file cannot hold exactly is a bad record,
				// as in tenet eval's sorter.
				fact(Fact{Kind: FactBad, Contract: i, File: r.File, Line: r.Line, Msg: fmt.Sprintf("%s:%d: %v", rec.OriginFile, rec.OriginLine, err)})
				continue
			}
			emit(groupKey(rec.Key), b.Bytes())
		}
	}
	if unselected {
		fact(Fact{Kind: FactUnselected, File: r.File, Line: r.Line})
	}
}

// judge is the record's judgement by each contract, with each one's
// error; nil judgements for a header line; err for a record no contract
// can read.
func (f *judgeFn) judge(r Record) (js []eval.Judgement, errs []error, err error) {
	origin := run.Origin{File: r.File, Line: r.Line}
	var rn *run.Run
	var sel []selection // what a peek found of each contract's select; nil: no peek
	if f.canPeek() {
		// A record no select takes needs no decoding (docs/performance.md,
		// "Select before decoding"), once its bytes are JSON the reader
		// accepts.
		if pk, ok := transcript.Peek(r.Format, r.Data); ok {
			sel = make([]selection, len(f.ts))
			all := true
			for i, t := range f.ts {
				switch s, known := t.p.PeekSelect(t.src, pk.Meta, pk.Record, pk.Unread); {
				case !known:
					sel[i] = undecided
				case s:
					sel[i] = selected
				default:
					sel[i] = notSelected
				}
				all = all && sel[i] == notSelected
			}
			switch {
			case !all:
				rn, _ = transcript.DecodePeeked(r.Format, origin, pk)
			case pk.Check():
				js = make([]eval.Judgement, len(f.ts))
				for i := range js {
					js[i] = eval.Judgement{Skip: eval.NotSelected}
				}
				return js, make([]error, len(f.ts)), nil
			}
		}
	}
	if rn == nil {
		var skip bool
		rn, skip, err = transcript.Decode(r.Format, origin, r.Data)
		if err != nil {
			return nil, nil, err
		}
		if skip {
			// A header line a source maps to a run is a run without its
			// transcript: bad input.
			if rec := transcript.HeaderRecord(r.Data); rec != nil {
				for _, t := range f.ts {
					if msg := t.p.HeaderRun(t.src, rec); msg != "" {
						return nil, nil, &transcript.Error{File: r.File, Line: r.Line, Msg: msg}
					}
				}
			}
			return nil, nil, nil
		}
	}
	js, errs = make([]eval.Judgement, len(f.ts)), make([]error, len(f.ts))
	for i, t := range f.ts {
		switch {
		case sel == nil || sel[i] == undecided:
			js[i], errs[i] = t.p.Judge(t.src, rn)
		case sel[i] == selected:
			js[i], errs[i] = t.p.JudgeSelected(t.src, rn)
		default:
			js[i] = eval.Judgement{Skip: eval.NotSelected}
		}
	}
	return js, errs, nil
}

// canPeek is eval/pipeline's rule: a record can be left undecoded when
// every contract has a select and the format (or, under auto, some
// format) has a peek.
func (f *judgeFn) canPeek() bool {
	if f.ts[0].format != transcript.Auto && !transcript.CanPeek(f.ts[0].format) {
		return false
	}
	for _, t := range f.ts {
		if t.src.Select == bundle.NoExpr {
			return false
		}
	}
	return true
}

// selection is what a peek found of the select.
type selection uint8

const (
	undecided   selection = iota // the peek could not tell: Judge evaluates select
	selected                     // true: Judge need not evaluate it again
	notSelected                  // false: the record is not judged
)

// groupKey is the (contract, condition) a run is grouped by.
func groupKey(k runs.Key) string { return k.Contract + "\x00" + k.Condition }
