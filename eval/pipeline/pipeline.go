package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/inputs"
)

// The evaluation pipeline (docs/performance.md, "The evaluation pipeline").
// One pass per transcript format reads the files once:
//
//	reader ──jobs (cap W)──▶ W workers: decode, judge with every target
//	   └────order (cap 4W)──▶ collector: records outcomes in input order
//
// The reader (one goroutine) frames records and sends each, with its own
// result channel, to the workers and, in input order, to the collector (the
// caller's goroutine), which waits for each record's outcome in turn. A
// record goes to order before jobs, so at most 4W+2 records are framed and
// not yet collected (the buffer, the one the collector waits for, the one
// the reader holds), whatever the corpus size, and everything order-dependent (errors, duplicate detection,
// progress) happens in input order on one goroutine.

// Target is one program to evaluate with its own Source, Format and Grant
// (each as in Options). EvalTargets takes everything else from its Options.
type Target struct {
	Program *eval.Program
	Source  string
	Format  string
	Grant   string
}

// EvalCollection evaluates several programs over the same files, as
// EvalFiles would one after the other, with opt's Source, Format and Grant
// for every program: it returns one Result per program, in the order of
// programs, each with the content EvalFiles gives. It is EvalTargets.
func EvalCollection(programs []*eval.Program, files []string, opt Options) ([]*Result, error) {
	ts := make([]Target, len(programs))
	for i, p := range programs {
		ts[i] = Target{Program: p, Source: opt.Source, Format: opt.Format, Grant: opt.Grant}
	}
	return EvalTargets(ts, files, opt)
}

// EvalTargets evaluates targets over files in a single pass per transcript
// format: each record is read and decoded once and judged by every target of
// its format (whose source then selects it or not), on opt.Workers
// goroutines. It returns one Result per target, in the order of targets;
// the results, including the order of Errors (input order: files as given,
// then lines) and which of two records with the same key is the duplicate
// (the later one), do not depend on the number of workers.
//
// The error is the one evaluating the targets one after the other would
// give: a target's own error (no such source or grant, an unknown format,
// named as by EvalFiles) is returned before any record is read, unless a
// file that an earlier target would have read cannot be opened; a file that
// cannot be opened ends the evaluation with the os.Open error. Bad records
// are not errors: they are in each Result's Errors.
func EvalTargets(targets []Target, files []string, opt Options) ([]*Result, error) {
	if opt.Shard != (shard.Shard{}) {
		if _, err := shard.Parse(opt.Shard.String()); err != nil {
			// A shard that is none would judge nothing, quietly.
			return nil, fmt.Errorf("Options.Shard %d/%d: %w", opt.Shard.Index, opt.Shard.Count, err)
		}
	}
	var passes []*pass
	byFormat := map[string]*pass{}
	results := make([]*Result, len(targets))
	fail := func(err error) ([]*Result, error) {
		for _, r := range results {
			if r != nil {
				r.Close()
			}
		}
		return nil, err
	}
	for i, t := range targets {
		jt, err := t.resolve()
		isFormat := false
		if err == nil && len(files) > 0 {
			// Without files no reader is opened, so a format is not checked.
			err, isFormat = transcript.CheckFormat(jt.format), true
		}
		if err != nil {
			return fail(sequentialError(files, opt.open, i, err, isFormat))
		}
		results[i] = &Result{Skipped: map[eval.Skip]int{}, SkippedIDs: map[eval.Skip]map[string]int{}, maxErrors: opt.MaxErrors}
		if opt.SortBytes > 0 {
			results[i].store = newStore(opt.SortDir, opt.SortBytes/len(targets))
		}
		ps := byFormat[jt.format]
		if ps == nil {
			ps = &pass{format: jt.format, unread: &unread{}, unselected: &unselected{}}
			byFormat[jt.format] = ps
			passes = append(passes, ps)
		}
		ps.targets = append(ps.targets, jt)
		ps.results = append(ps.results, results[i])
		results[i].unread = ps.unread
		results[i].unselected = ps.unselected
		ps.seen = append(ps.seen, map[runs.Key]runs.Record{})
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var c counts
	for _, ps := range passes {
		ps.unselected.keepAll = len(passes) > 1 // for AllUnselected
		if ps.shard = opt.Shard; ps.sharded() {
			for _, t := range ps.targets {
				ps.keyers = append(ps.keyers, newKeyer(t))
			}
		}
		ps.peek = ps.canPeek()
		if err := ps.run(files, opt, workers, &c); err != nil {
			return fail(err)
		}
	}
	for _, res := range results {
		runs.SortRecords(res.Records)
	}
	return results, nil
}

// sequentialError returns the error evaluating targets one after the other
// gives when target k fails with err: each earlier target reads every file
// (and the first that cannot be opened ends it), and a format error of
// target k comes once its first file is open.
func sequentialError(files []string, open func(string) (io.ReadCloser, error), k int, err error, isFormat bool) error {
	check := files
	if k == 0 {
		if !isFormat {
			return err
		}
		check = files[:1]
	}
	for _, name := range check {
		f, oerr := open(name)
		if oerr != nil {
			return oerr
		}
		f.Close()
	}
	return err
}

// open is Options.Open, os.Open when unset.
func (o Options) open(name string) (io.ReadCloser, error) {
	if o.Open != nil {
		return o.Open(name)
	}
	return os.Open(name)
}

// judgeTarget is a Target resolved: its source plan (with the grant
// override applied) and format.
type judgeTarget struct {
	p      *eval.Program
	src    *bundle.SourcePlan
	format string
}

func (t Target) resolve() (judgeTarget, error) {
	p := t.Program
	src, err := p.Source(t.Source)
	if err != nil {
		return judgeTarget{}, err
	}
	format := t.Format
	if format == "" {
		format = src.Format
	}
	if transcript.IsAuto(format) {
		// A source without a format, and format "auto", are one pass
		// that chooses each file's reader (pass.readFile).
		format = transcript.Auto
	}
	if t.Grant != "" {
		if !slices.ContainsFunc(p.Bundle.Decls.Grants, func(g bundle.Grant) bool { return g.Name == t.Grant }) {
			return judgeTarget{}, fmt.Errorf("contract %s has no grant %q", p.Bundle.Manifest.Contract, t.Grant)
		}
		s := *src // the bundle's plan is shared: override a copy
		s.Grant = t.Grant
		src = &s
	}
	return judgeTarget{p: p, src: src, format: format}, nil
}

// counts are the progress counts over all passes.
type counts struct {
	records int
	bytes   int64
}

// pass reads the files once in one format for its targets.
type pass struct {
	format  string
	targets []judgeTarget
	results []*Result                  // index-aligned with targets
	seen    []map[runs.Key]runs.Record // per target: the runs judged so far (without a store)
	n       int                        // records collected, for their runs.Seq
	failed  error                      // a store's temporary file failed
	unread  *unread                    // the records no target could read, shared by the results

	unselected *unselected // the records no target selected, shared by the results
	// peek is set when a record can be left undecoded because no target
	// selects it (peek.go): every target has a select, or the pass is sharded.
	peek bool

	shard  shard.Shard // Options.Shard
	keyers []*keyer    // sharded: per target, its key before judging (shard.go)
}

// job is one framed record on its way through the pipeline.
type job struct {
	origin run.Origin
	format string // the record's format: the pass's, or under auto its file's
	file   int    // the index of origin.File in the files
	data   []byte // the record; dropped once decoded
	bytes  int64  // transcript bytes read, over all passes, when it was framed
	// fatal ends the evaluation (a file could not be opened); done is then nil.
	fatal error
	done  chan outcome // capacity 1: a worker never waits for the collector
}

// outcome is what became of a record.
type outcome struct {
	err     error     // a bad record (framing or decoding): the same for every target
	header  bool      // the record carries no transcript
	verdict []verdict // else one per target
}

type verdict struct {
	j     eval.Judgement
	err   error
	other bool // the run is another shard's: not judged (shard.go)
}

// run reads files through the pipeline and records every outcome in the
// pass's results. It returns the error that ends the evaluation, if any.
func (ps *pass) run(files []string, opt Options, workers int, c *counts) error {
	jobs := make(chan *job, workers)
	order := make(chan *job, 4*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.done <- ps.process(j)
			}
		}()
	}
	end := c.bytes // set by the reader before it closes order
	go ps.read(files, opt.open, opt.Transcript, c.bytes, &end, order, jobs, stop)
	defer func() {
		close(stop) // the collector is gone (also on a panic): stop the reader
		wg.Wait()
	}()
	var fatal error
	for j := range order {
		if ctx := opt.Context; ctx != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if j.fatal != nil {
			fatal = j.fatal
			continue
		}
		o := <-j.done
		ps.n++
		ps.record(o, runs.Seq{File: j.file, Line: ps.n})
		ps.noteUnselected(o, j)
		if ps.failed != nil {
			return ps.failed
		}
		if !o.header {
			c.records++
			c.bytes = j.bytes
			if opt.Progress != nil {
				opt.Progress(c.records, c.bytes)
			}
		}
	}
	c.bytes = end
	return fatal
}

// read frames the records of files, in order, and sends each to the
// collector (order) and, unless framing already failed, to the workers
// (jobs). A file that cannot be opened is sent as a fatal job and ends the
// reading. It closes both channels when done, and stops early when stop is
// closed. base is the bytes read by earlier passes; *end gets the total.
func (ps *pass) read(files []string, open func(string) (io.ReadCloser, error), topt transcript.Options, base int64, end *int64, order, jobs chan<- *job, stop <-chan struct{}) {
	defer close(order)
	defer close(jobs)
	cr := &countingReader{n: base}
	defer func() { *end = cr.n }()
	send := func(ch chan<- *job, j *job) bool {
		select {
		case ch <- j:
			return true
		case <-stop:
			return false
		}
	}
	for i, name := range files {
		f, err := open(name)
		if err != nil {
			send(order, &job{fatal: err})
			return
		}
		ok := ps.readFile(f, i, name, cr, topt, send, order, jobs)
		f.Close()
		if !ok {
			return
		}
	}
}

// readFile frames one open file, decompressed; false means the reading
// ends. The bytes counted are those read from f (compressed ones).
func (ps *pass) readFile(f io.Reader, file int, name string, cr *countingReader, topt transcript.Options,
	send func(chan<- *job, *job) bool, order, jobs chan<- *job) bool {
	cr.r = f
	dr := inputs.Decompress(cr)
	defer dr.Close()
	format, r, err := transcript.ResolveFormat(ps.format, name, dr)
	if err != nil {
		// Under auto a file no format (or several) claims is bad input,
		// one error for the file; the other files are still read.
		j := &job{origin: run.Origin{File: name, Line: 1}, file: file, bytes: cr.n, done: make(chan outcome, 1)}
		j.done <- outcome{err: err}
		return send(order, j)
	}
	rr, err := transcript.OpenRecords(format, name, r, topt)
	if err != nil {
		send(order, &job{fatal: err})
		return false
	}
	for {
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return true
		}
		j := &job{origin: rec.Origin, format: format, file: file, bytes: cr.n, done: make(chan outcome, 1)}
		if err != nil {
			var te *transcript.Error
			if !errors.As(err, &te) {
				send(order, &job{fatal: fmt.Errorf("%s: %w", name, err)})
				return false
			}
			j.done <- outcome{err: err} // a bad record: nothing to decode
			if !send(order, j) {
				return false
			}
			continue
		}
		j.data = bytes.Clone(rec.Data) // rec.Data is reused for the next record
		if !send(order, j) || !send(jobs, j) {
			return false
		}
	}
}

// process decodes a record and judges it with every target of the pass. It
// runs on a worker; the decoded run is dropped when it returns.
func (ps *pass) process(j *job) outcome {
	data := j.data
	var sel []selection // what a peek found of each target's select
	var rn *run.Run     // the record, decoded reusing its peek
	if ps.peek {
		var o outcome
		if o, sel, rn = ps.peekSelect(j.format, j.origin, data); o.verdict != nil {
			j.data = nil
			return o
		}
	}
	var skip bool
	var err error
	if rn == nil {
		rn, skip, err = transcript.Decode(j.format, j.origin, data)
	}
	j.data = nil
	if err != nil {
		return outcome{err: err}
	}
	if skip {
		// A header line a source maps to a run is a run without its
		// transcript: bad input (headers are rare, so decoding it again
		// costs nothing that matters).
		if rec := transcript.HeaderRecord(data); rec != nil {
			for _, t := range ps.targets {
				if msg := t.p.HeaderRun(t.src, rec); msg != "" {
					return outcome{err: &transcript.Error{File: j.origin.File, Line: j.origin.Line, Msg: msg}}
				}
			}
		}
		return outcome{header: true}
	}
	vs := make([]verdict, len(ps.targets))
	for i, t := range ps.targets {
		s := undecided
		if sel != nil {
			s = sel[i]
		}
		if ps.sharded() {
			s = ps.runShard(i, s, rn)
		}
		switch s {
		case otherShard:
			vs[i] = otherShardVerdict()
		case undecided:
			vs[i].j, vs[i].err = t.p.Judge(t.src, rn)
		case selected:
			vs[i].j, vs[i].err = t.p.JudgeSelected(t.src, rn)
		default:
			vs[i].j = eval.Judgement{Skip: eval.NotSelected}
		}
	}
	return outcome{verdict: vs}
}

// record adds a record's outcome, at input position seq, to every
// target's result; it runs on the collector, in input order.
func (ps *pass) record(o outcome, seq runs.Seq) {
	for i, res := range ps.results {
		switch {
		case o.err != nil:
			if i == 0 {
				o.err = &unreadError{o.err}
				ps.unread.n++
			}
			res.addError(o.err, seq)
		case o.header:
			res.Headers++
		default:
			ps.judged(i, o.verdict[i], seq)
		}
	}
}

// judged records target i's judgement of one run.
func (ps *pass) judged(i int, v verdict, seq runs.Seq) {
	res, j := ps.results[i], v.j
	if v.err != nil {
		res.addError(v.err, seq)
		return
	}
	if v.other || ps.ownedElsewhere(i, j) {
		res.OtherShards++
		return
	}
	if j.Skip != eval.Judged {
		res.Skipped[j.Skip]++
		id := j.Record.Key.Task
		if j.Skip == eval.GoalNotDeclared || j.Skip == eval.CaseNotDeclared {
			id += "/" + j.Record.Key.Goal
		}
		if j.Skip != eval.NotSelected {
			if res.SkippedIDs[j.Skip] == nil {
				res.SkippedIDs[j.Skip] = map[string]int{}
			}
			res.SkippedIDs[j.Skip][id]++
		}
		return
	}
	rec := j.Record
	if res.store != nil {
		// Duplicates are found when the runs are sorted (SortResults).
		bad, fatal := res.store.add(rec, seq)
		if fatal != nil {
			ps.failed = fatal
			return
		}
		if bad != nil {
			res.addError(fmt.Errorf("%s:%d: %w", rec.OriginFile, rec.OriginLine, bad), seq)
		}
		return
	}
	if prev, dup := ps.seen[i][rec.Key]; dup {
		res.addError(fmt.Errorf("%s:%d: duplicate run %s: the same key as %s:%d",
			rec.OriginFile, rec.OriginLine, rec.Key.String(), prev.OriginFile, prev.OriginLine), seq)
		return
	}
	ps.seen[i][rec.Key] = rec
	res.Records = append(res.Records, rec)
}

// countingReader counts the bytes read through it, from n.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
