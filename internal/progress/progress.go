package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// progressEvery is how often the progress line is redrawn at most.
const progressEvery = 200 * time.Millisecond

// progress draws one line on stderr while tenet eval reads transcripts:
//
//	judging: 1204 runs read, 812 runs/s, 41%, ETA 0:03
//
// It is silent unless stderr is a terminal (DESIGN §9), so logs and pipes
// only ever see results. The ETA is by bytes: the files are read once per
// transcript format of the contracts (eval.EvalCollection's passes), so the
// work is Σ file sizes × passes.
type progress struct {
	w     io.Writer // nil: silent
	now   func() time.Time
	total int64 // bytes to read, over all passes
	start time.Time
	drawn time.Time

	// base* are the counts of the passes already done (see next); records
	// and bytes include them.
	baseRecords int
	baseBytes   int64
	records     int
	bytes       int64
	shown       bool
}

// newProgress returns a progress line on stderr when it is a terminal, and
// a silent one otherwise.
func newProgress(stderr io.Writer, files []string, passes int) *progress {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	var size int64
	for _, name := range files {
		if st, err := os.Stat(name); err == nil {
			size += st.Size()
		}
	}
	return newProgressTo(stderr, size*int64(passes), time.Now)
}

// newProgressTo draws on w whatever it is (tests give a buffer and a clock).
func newProgressTo(w io.Writer, total int64, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, now: now, total: total, start: t}
}

// update is eval.Options.Progress: counts since the last next (EvalCollection
// counts over all its passes, so tenet eval never calls next).
func (p *progress) update(records int, bytes int64) {
	if p.w == nil {
		return
	}
	p.records, p.bytes = p.baseRecords+records, p.baseBytes+bytes
	t := p.now()
	if p.shown && t.Sub(p.drawn) < progressEvery {
		return
	}
	p.drawn = t
	elapsed := t.Sub(p.start).Seconds()
	line := "judging: " + count(p.records, "run") + " read"
	if elapsed > 0 {
		line += fmt.Sprintf(", %.0f runs/s", float64(p.records)/elapsed)
	}
	if p.total > 0 {
		done := min(float64(p.bytes)/float64(p.total), 1)
		line += fmt.Sprintf(", %.0f%%", 100*done)
		if done > 0 && elapsed > 0 {
			line += ", ETA " + clock(time.Duration(elapsed*(1-done)/done*float64(time.Second)))
		}
	}
	// \r returns to the line's start; \x1b[K clears what a longer line left.
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.shown = true
}

// next marks the end of one counting of the files: later counts start from
// zero again.
func (p *progress) next() {
	p.baseRecords, p.baseBytes = p.records, p.bytes
}

// clear erases the line, before other output goes to stderr.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// done erases the line for good.
func (p *progress) done() { p.clear() }

// clock renders a duration as m:ss (h:mm:ss past an hour).
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
