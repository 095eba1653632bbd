package eval

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
)

// Result is the outcome of evaluating transcript files with one source.
type Result struct {
	Records []runs.Record // judged runs, sorted by key
	// Headers counts records without a transcript (e.g. header lines).
	Headers int
	// Skipped counts records by why they were not judged, and SkippedIDs
	// the task (or task/goal) ids per reason, so reports can name them.
	Skipped    map[Skip]int
	SkippedIDs map[Skip]map[string]int
	// Errors are records that could not be read or mapped to a run
	// (file:line: reason), in input order.
	Errors []error
}

// Options configure EvalFiles.
type Options struct {
	Source     string // source block name; "" when the contract has exactly one
	Format     string // transcript format; "" means the source's format
	Grant      string // audit against this grant instead of the source's (DESIGN §7)
	Transcript transcript.Options
	// Progress, when set, is called after each record with the records and
	// the bytes of transcript read so far by this EvalFiles call (bytes
	// run ahead of records by at most a read buffer).
	Progress func(records int, bytes int64)
}

// EvalFiles streams each transcript file through the source plan and judges
// every run. Duplicate run keys are errors naming both records. Only I/O
// failures (a file that cannot be opened) end it early; bad records are
// collected in Result.Errors.
func (p *Program) EvalFiles(files []string, opt Options) (*Result, error) {
	src, err := p.Source(opt.Source)
	if err != nil {
		return nil, err
	}
	format := opt.Format
	if format == "" {
		format = src.Format
	}
	if opt.Grant != "" {
		if _, ok := p.grants[opt.Grant]; !ok {
			return nil, fmt.Errorf("contract %s has no grant %q", p.Bundle.Manifest.Contract, opt.Grant)
		}
		s := *src // the bundle's plan is shared: override a copy
		s.Grant = opt.Grant
		src = &s
	}
	res := &Result{Skipped: map[Skip]int{}, SkippedIDs: map[Skip]map[string]int{}}
	seen := map[runs.Key]runs.Record{}
	var read progress
	for _, name := range files {
		if err := p.evalFile(name, format, src, opt, res, seen, &read); err != nil {
			return nil, err
		}
	}
	runs.SortRecords(res.Records)
	return res, nil
}

func (p *Program) evalFile(name, format string, src *bundle.SourcePlan, opt Options, res *Result, seen map[runs.Key]runs.Record, read *progress) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	read.r = f
	rd, err := transcript.Open(format, name, read, opt.Transcript)
	if err != nil {
		return err
	}
	for {
		r, err := rd.Next()
		if opt.Progress != nil && !errors.Is(err, io.EOF) {
			read.records++
			opt.Progress(read.records, read.bytes)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var te *transcript.Error
			if errors.As(err, &te) {
				res.Errors = append(res.Errors, err)
				continue
			}
			return fmt.Errorf("%s: %w", name, err)
		}
		j, err := p.Judge(src, r)
		if err != nil {
			res.Errors = append(res.Errors, err)
			continue
		}
		if j.Skip != Judged {
			res.Skipped[j.Skip]++
			id := j.Record.Key.Task
			if j.Skip == GoalNotDeclared || j.Skip == CaseNotDeclared {
				id += "/" + j.Record.Key.Goal
			}
			if j.Skip != NotSelected {
				if res.SkippedIDs[j.Skip] == nil {
					res.SkippedIDs[j.Skip] = map[string]int{}
				}
				res.SkippedIDs[j.Skip][id]++
			}
			continue
		}
		if prev, dup := seen[j.Record.Key]; dup {
			res.Errors = append(res.Errors, fmt.Errorf("%s:%d: duplicate run %s: the same key as %s:%d",
				r.Origin.File, r.Origin.Line, j.Record.Key.String(), prev.OriginFile, prev.OriginLine))
			continue
		}
		seen[j.Record.Key] = j.Record
		res.Records = append(res.Records, j.Record)
	}
	res.Headers += rd.Skipped()
	return nil
}

// progress counts the records and bytes EvalFiles has read; it reads
// through to the current file.
type progress struct {
	r       io.Reader
	records int
	bytes   int64
}

func (c *progress) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.bytes += int64(n)
	return n, err
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
