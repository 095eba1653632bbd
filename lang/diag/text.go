package diag

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// WriteText prints diagnostics as tenet's commands show them: each one
// preceded by a "file:line:col: " line start (when it has a location) and
// its code in brackets (when it has one), then in HCL's snippet format (see
// TextWriter). Ranges in diagnostics are relative to the contract
// directory dir; they are shown joined to dir so that editors can open
// them, and files is keyed by those relative names (lang.Module.FileMap).
//
// Printing takes time linear in the size of the files and of the output,
// and is buffered: w has everything when WriteText returns.
func WriteText(w io.Writer, dir string, files map[string]*hcl.File, diags hcl.Diagnostics) {
	writeText(w, dir, files, diags, nil)
}

// Style colours the parts of a diagnostic's first line: its severity
// ("Error", "Warning") and its code. internal/termstyle's Style is one;
// the interface keeps this package free of tenet imports.
type Style interface {
	Error(text string) string
	Warning(text string) string
	Dim(text string) string
}

// WriteTextStyled is WriteText with the severity and code coloured by
// style (nil: no colour). Only a terminal should see colour: commands
// pass termstyle.For(w, os.Getenv).
func WriteTextStyled(w io.Writer, dir string, files map[string]*hcl.File, diags hcl.Diagnostics, style Style) {
	writeText(w, dir, files, diags, style)
}

// plain is the Style that colours nothing.
type plain struct{}

func (plain) Error(s string) string   { return s }
func (plain) Warning(s string) string { return s }
func (plain) Dim(s string) string     { return s }

// writeText is WriteText; it returns the TextWriter it used, whose counts
// tests read.
func writeText(w io.Writer, dir string, files map[string]*hcl.File, diags hcl.Diagnostics, style Style) *TextWriter {
	if style == nil {
		style = plain{}
	}
	shown := map[string]*hcl.File{}
	for name, f := range files {
		shown[filepath.Join(dir, name)] = f
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	tw := NewTextWriter(bw, shown)
	tw.style = style
	for _, d := range diags {
		d := *d
		if d.Subject != nil {
			s := *d.Subject
			if s.Filename != "" {
				s.Filename = filepath.Join(dir, s.Filename)
			}
			d.Subject = &s
			fmt.Fprintf(bw, "%s:%d:%d: ", s.Filename, s.Start.Line, s.Start.Column)
		}
		if code := Of(&d); code != "" {
			fmt.Fprintf(bw, "%s ", style.Dim("["+string(code)+"]"))
		}
		if d.Context != nil {
			c := *d.Context
			c.Filename = filepath.Join(dir, c.Filename)
			d.Context = &c
		}
		tw.WriteDiagnostic(&d)
	}
	return tw
}

// TextWriter prints diagnostics exactly as hcl.NewDiagnosticTextWriter
// does with no width limit and no color, but in time linear in the output
// and with hostile source lines made safe to show (see snippetLine):
// HCL's writer scans the whole source file for the snippet's lines, and
// walks every top-level block for the "in ..." context, once per
// diagnostic, so that printing n diagnostics of an n-line file took
// quadratic time. TextWriter indexes each file once, on its first
// diagnostic, and finds a snippet's lines and block by binary search.
// files maps a range's Filename to its parsed file.
type TextWriter struct {
	w     io.Writer
	files map[string]*hcl.File
	index map[string]*fileIndex
	// scans counts the files indexed and visited the lines looked at, for
	// tests.
	scans, visited int
	style          Style // nil: plain
}

// NewTextWriter returns a TextWriter printing to w the snippets of files.
func NewTextWriter(w io.Writer, files map[string]*hcl.File) *TextWriter {
	return &TextWriter{w: w, files: files, index: map[string]*fileIndex{}}
}

// fileIndex is what printing snippets of one file needs.
type fileIndex struct {
	src []byte
	// lines are the file's lines as hcl.RangeScanner with bufio.ScanLines
	// produces them (the range excludes the line break; line numbers count
	// grapheme clusters that start with CR or LF, as HCL does), in order.
	lines []indexedLine
	// blocks are the top-level blocks that can contain an offset, with
	// their ranges; sorted says whether those ranges are in order and
	// disjoint, so that a binary search finds the one HCL's linear search
	// would.
	blocks []*hclsyntax.Block
	ranges []hcl.Range
	sorted bool
	hasNav bool
}

type indexedLine struct {
	rng   hcl.Range
	bytes []byte
}

// scanLines splits src into lines as hcl.NewRangeScanner(src, name,
// bufio.ScanLines) does, without its cost (a bufio.Scanner and a grapheme
// cluster scan per line). A line ends at LF, which is dropped with a CR
// before it; the range's start line counts, like HCL, the grapheme clusters
// that start with CR or LF before it: every LF, and every CR not followed by
// LF (CR LF is one cluster, and CR and LF always start a cluster). Only
// the byte offsets and the start line are set: they are all a snippet uses.
func scanLines(src []byte) []indexedLine {
	var lines []indexedLine
	line := 1
	for pos := 0; pos < len(src); {
		end, next := len(src), len(src)
		if i := bytes.IndexByte(src[pos:], '\n'); i >= 0 {
			end, next = pos+i, pos+i+1
		}
		tok := src[pos:end]
		if len(tok) > 0 && tok[len(tok)-1] == '\r' {
			tok = tok[:len(tok)-1]
		}
		lines = append(lines, indexedLine{
			rng: hcl.Range{
				Start: hcl.Pos{Byte: pos, Line: line, Column: 1},
				End:   hcl.Pos{Byte: pos + len(tok), Line: line},
			},
			bytes: tok,
		})
		// Line breaks in src[pos:next]: the LF, if any, and every lone CR.
		for i := pos; i < next; i++ {
			switch {
			case src[i] == '\n':
				line++
			case src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n'):
				line++
			}
		}
		pos = next
	}
	return lines
}

func (sw *TextWriter) fileIndex(name string, f *hcl.File) *fileIndex {
	if x := sw.index[name]; x != nil {
		return x
	}
	sw.scans++
	x := &fileIndex{src: f.Bytes, hasNav: f.Nav != nil, sorted: true}
	x.lines = scanLines(f.Bytes)
	if body, ok := f.Body.(*hclsyntax.Body); ok && x.hasNav {
		for _, b := range body.Blocks {
			r := b.Range()
			if r.Start.Byte >= r.End.Byte {
				continue // contains no offset
			}
			if n := len(x.ranges); n > 0 && r.Start.Byte < x.ranges[n-1].End.Byte {
				x.sorted = false
			}
			x.blocks = append(x.blocks, b)
			x.ranges = append(x.ranges, r)
		}
	}
	sw.index[name] = x
	return x
}

// contextString is hclsyntax's navigation.ContextString: the header of the
// top-level block holding offset.
func (x *fileIndex) contextString(offset int) string {
	if !x.hasNav {
		return ""
	}
	var block *hclsyntax.Block
	if x.sorted {
		i := sort.Search(len(x.ranges), func(i int) bool { return x.ranges[i].End.Byte > offset })
		if i < len(x.ranges) && x.ranges[i].ContainsOffset(offset) {
			block = x.blocks[i]
		}
	} else {
		for i, r := range x.ranges {
			if r.ContainsOffset(offset) {
				block = x.blocks[i]
				break
			}
		}
	}
	if block == nil {
		return ""
	}
	s := block.Type
	for _, label := range block.Labels {
		s += fmt.Sprintf(" %q", label)
	}
	return s
}

// WriteDiagnostic prints d as HCL's text writer would.
func (sw *TextWriter) WriteDiagnostic(d *hcl.Diagnostic) {
	if d.Expression != nil && d.EvalContext != nil {
		// HCL then also prints the values of the expression's variables;
		// tenet evaluates constants without an EvalContext, so this does
		// not happen, but if it did HCL's writer would say it best.
		hcl.NewDiagnosticTextWriter(sw.w, sw.files, 0, false).WriteDiagnostic(d)
		return
	}
	severity := "???????"
	style := sw.style
	if style == nil {
		style = plain{}
	}
	switch d.Severity {
	case hcl.DiagError:
		severity = style.Error("Error")
	case hcl.DiagWarning:
		severity = style.Warning("Warning")
	}
	fmt.Fprintf(sw.w, "%s: %s\n\n", severity, d.Summary)

	if d.Subject != nil {
		snip := *d.Subject
		highlight := snip
		if d.Context != nil {
			snip = hcl.RangeOver(snip, *d.Context)
		}
		// An empty range is shown as one character, as HCL does.
		if snip.Empty() {
			snip.End.Byte++
			snip.End.Column++
		}
		if highlight.Empty() {
			highlight.End.Byte++
			highlight.End.Column++
		}
		name := d.Subject.Filename
		f := sw.files[name]
		if f == nil || f.Bytes == nil {
			fmt.Fprintf(sw.w, "  on %s line %d:\n  (source code not available)\n\n", name, d.Subject.Start.Line)
		} else {
			x := sw.fileIndex(name, f)
			context := x.contextString(d.Subject.Start.Byte)
			if context != "" {
				context = ", in " + context
			}
			fmt.Fprintf(sw.w, "  on %s line %d%s:\n", name, d.Subject.Start.Line, context)
			// Only lines between lo and hi can overlap the snippet (see
			// hcl.Range.Overlaps); lines are in order of both their start
			// and their end.
			lo, hi := min(snip.Start.Byte, snip.End.Byte), max(snip.Start.Byte, snip.End.Byte)
			i := sort.Search(len(x.lines), func(i int) bool { return x.lines[i].rng.End.Byte >= lo })
			for ; i < len(x.lines) && x.lines[i].rng.Start.Byte <= hi; i++ {
				sw.visited++
				line := x.lines[i].rng
				line.Filename = name
				if !line.Overlaps(snip) {
					continue
				}
				before, highlighted, after := line.PartitionAround(highlight)
				if highlighted.Empty() {
					fmt.Fprintf(sw.w, "%4d: %s\n", line.Start.Line, snippetLine(x.lines[i].bytes, 0))
				} else {
					b := before.SliceBytes(x.src)
					text := append(append(append([]byte(nil), b...), highlighted.SliceBytes(x.src)...), after.SliceBytes(x.src)...)
					fmt.Fprintf(sw.w, "%4d: %s\n", line.Start.Line, snippetLine(text, len(b)))
				}
			}
			sw.w.Write([]byte{'\n'})
		}
	}
	if d.Detail != "" {
		fmt.Fprintf(sw.w, "%s\n\n", d.Detail)
	}
}

// maxSnippetLine bounds the bytes of one source line a snippet prints: a
// hostile contract may hold a line of megabytes (100,000 nested brackets,
// a generated CEL expression), which would otherwise be echoed whole for
// every diagnostic on it.
const maxSnippetLine = 1000

// snippetWindow is how much of a longer line is shown: from
// snippetBefore bytes before the highlight.
const (
	snippetWindow = 400
	snippetBefore = 100
)

// snippetLine returns a source line as a snippet prints it (hl is the
// offset of the highlighted part, 0 without one). It is the line itself,
// except that:
//
//   - control characters but tab and LF (C0, DEL, C1), and the bidirectional
//     formatting characters that can make text read in another order than
//     it parses, are written as \xNN or \uNNNN escapes, so that a contract
//     cannot move the cursor or recolour the terminal of whoever checks it;
//   - a line longer than maxSnippetLine bytes is cut to snippetWindow
//     bytes starting snippetBefore bytes before hl, with "…" where bytes
//     were left out.
//
// Ordinary lines (printable, at most maxSnippetLine bytes) come out
// unchanged, byte for byte as HCL's diagnostic writer prints them.
func snippetLine(line []byte, hl int) []byte {
	var pre, post string
	// (A range whose line and byte numbers disagree, which tenet never
	// produces, can make HCL print bytes of several lines as one: those
	// are left whole, as HCL prints them.)
	if len(line) > maxSnippetLine && bytes.IndexByte(line, '\n') < 0 {
		a := max(0, min(hl, len(line))-snippetBefore)
		for a > 0 && !utf8.RuneStart(line[a]) {
			a--
		}
		b := min(len(line), a+snippetWindow)
		for b < len(line) && !utf8.RuneStart(line[b]) {
			b--
		}
		if a > 0 {
			pre = "…"
		}
		if b < len(line) {
			post = fmt.Sprintf("… (%d more bytes)", len(line)-b)
		}
		line = line[a:b]
	}
	clean := true
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if escaped(r, n) {
			clean = false
			break
		}
		i += n
	}
	if clean && pre == "" && post == "" {
		return line
	}
	out := []byte(pre)
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		switch {
		case !escaped(r, n):
			out = append(out, line[i:i+n]...)
		case r < 0x80:
			out = fmt.Appendf(out, "\\x%02x", r)
		default:
			out = fmt.Appendf(out, "\\u%04x", r)
		}
		i += n
	}
	return append(out, post...)
}

// escaped reports whether snippetLine escapes the rune r (of n bytes).
func escaped(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return false // invalid UTF-8 is printed as HCL prints it
	case r == '\t', r == '\n': // a line holds no LF; a snippet of an inconsistent range may
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
