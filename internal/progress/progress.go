// Package progress draws the one-line progress report of a long read on a
// terminal (tenet eval's "judging: …" line on stderr).
//
// It takes the counts of records and bytes read as they grow and the total
// bytes to read; it gives a line redrawn in place at most every Every,
// erased before other output. It is silent unless its writer is a
// terminal, so that logs and pipes only ever see results. It imports no
// tenet package.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// Every is how often the line is redrawn at most.
const Every = 200 * time.Millisecond

// Line draws one line while records are read:
//
//	judging: 1204 runs read, 812 runs/s, 41%, ETA 0:03
//
// The ETA is by bytes: a reader that reads the files several times (once
// per transcript format of the contracts) gives the total as Σ file sizes
// × passes. A Line is used from one goroutine.
type Line struct {
	w     io.Writer // nil: silent
	now   func() time.Time
	total int64 // bytes to read, over all passes
	start time.Time
	drawn time.Time

	// base* are the counts of the passes already done (see Next); records
	// and bytes include them.
	baseRecords int
	baseBytes   int64
	records     int
	bytes       int64
	shown       bool
}

// New returns a line on stderr when it is a terminal, and a silent one
// otherwise. files are read passes times; sizeOf gives a file's size (nil:
// os.Stat's; a copy of standard input is not at its name).
func New(stderr io.Writer, files []string, passes int, sizeOf func(string) int64) *Line {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &Line{}
	}
	var size int64
	for _, name := range files {
		if sizeOf != nil {
			size += sizeOf(name)
		} else if st, err := os.Stat(name); err == nil {
			size += st.Size()
		}
	}
	return NewTo(stderr, size*int64(passes), time.Now)
}

// NewTo draws on w whatever it is (tests give a buffer and a clock).
func NewTo(w io.Writer, total int64, now func() time.Time) *Line {
	t := now()
	return &Line{w: w, now: now, total: total, start: t}
}

// Update takes the counts since the last Next (eval's Options.Progress:
// the pipeline counts over all its passes, so tenet eval never calls Next).
func (p *Line) Update(records int, bytes int64) {
	if p.w == nil {
		return
	}
	p.records, p.bytes = p.baseRecords+records, p.baseBytes+bytes
	t := p.now()
	if p.shown && t.Sub(p.drawn) < Every {
		return
	}
	p.drawn = t
	elapsed := t.Sub(p.start).Seconds()
	runs := "runs"
	if p.records == 1 {
		runs = "run"
	}
	line := fmt.Sprintf("judging: %d %s read", p.records, runs)
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

// Next marks the end of one counting of the files: later counts start from
// zero again.
func (p *Line) Next() {
	p.baseRecords, p.baseBytes = p.records, p.bytes
}

// Clear erases the line, before other output goes to the same writer.
func (p *Line) Clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Done erases the line for good.
func (p *Line) Done() { p.Clear() }

// clock renders a duration as m:ss (h:mm:ss past an hour).
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
