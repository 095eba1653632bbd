package trend

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"image/color"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The HTML page is one self-contained file: a title, the plot as inline
// SVG (gonum/plot's SVG canvas writes no date, id or random number, and
// embeds no font, so the same series gives the same bytes), and the table
// of points. x is the evaluation in recording order (ticks "#id"), y the
// metric from 0 to 1; one line per condition, each point with its 95%
// interval as an error bar, the legend to the right of the plotting
// area. An evaluation without a value for a condition breaks its line;
// a condition with no value at all is named in a caption under the plot.

// palette styles conditions in sorted order: eight hues apart in colour
// and lightness, with a dash pattern per group of eight so that a ninth
// condition differs from the first.
var palette = []color.RGBA{
	{0x1f, 0x5f, 0xa8, 0xff}, {0xc4, 0x3c, 0x1c, 0xff}, {0x2a, 0x8a, 0x3e, 0xff}, {0x7b, 0x3f, 0xa0, 0xff},
	{0xb0, 0x7a, 0x00, 0xff}, {0x00, 0x86, 0x8a, 0xff}, {0xd0, 0x3a, 0x8c, 0xff}, {0x4d, 0x4d, 0x4d, 0xff},
}

var dashes = [][]vg.Length{nil, {vg.Points(4), vg.Points(2)}, {vg.Points(1), vg.Points(2)}}

// plotFont is Liberation Sans (gonum's bundled fonts), named in the SVG
// with the usual fallbacks.
var plotFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

const (
	svgFontFamily = "font-family:Liberation Sans;"
	cssFontFamily = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

// xy is a condition's points with their interval, for gonum's plotters.
type xy struct {
	x, y, lo, hi []float64
}

func (p *xy) Len() int                        { return len(p.x) }
func (p *xy) XY(i int) (float64, float64)     { return p.x[i], p.y[i] }
func (p *xy) YError(i int) (float64, float64) { return p.y[i] - p.lo[i], p.hi[i] - p.y[i] }

// SVG draws the series' plot as an <svg> element to inline.
func SVG(s Series) (out string, err error) {
	defer func() {
		if r := recover(); r != nil { // gonum panics on degenerate input
			err = fmt.Errorf("cannot draw the trend of %s: %v", s.Metric, r)
		}
	}()
	evals := s.Evaluations()
	index := map[int64]int{}
	var ticks []plot.Tick
	for i, e := range evals {
		index[e] = i
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: fmt.Sprintf("#%d", e)})
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, contract %s", s.Metric, s.Contract)
	p.Title.TextStyle.Font = font.From(plotFont, 12)
	p.X.Label.Text, p.Y.Label.Text = "evaluation (recording order)", s.Metric
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(plotFont, 11)
		a.Tick.Label.Font = font.From(plotFont, 10)
	}
	// The legend is drawn beside the plotting area, never over its
	// points.
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(plotFont, 9)
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(2) // long names at 9pt: keep the rows apart
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(evals))-0.5
	p.Y.Min, p.Y.Max = 0, 1
	p.Add(plotter.NewGrid())
	conds := s.Conditions()
	for ci, c := range conds {
		col := palette[ci%len(palette)]
		dash := dashes[(ci/len(palette))%len(dashes)]
		// Conditions side by side within an evaluation, so that their
		// error bars do not overlap.
		shift := (float64(ci) - float64(len(conds)-1)/2) * 0.3 / float64(max(len(conds), 1))
		for si, seg := range segments(s, c, index, shift) {
			line, points, err := plotter.NewLinePoints(seg)
			if err != nil {
				return "", err
			}
			line.Color, line.Width, line.Dashes = col, vg.Points(1.5), dash
			points.Color, points.Shape, points.Radius = col, draw.CircleGlyph{}, vg.Points(2.5)
			bars, err := plotter.NewYErrorBars(seg)
			if err != nil {
				return "", err
			}
			bars.Color, bars.Width, bars.CapWidth = col, vg.Points(0.8), vg.Points(4)
			p.Add(line, points, bars)
			if si == 0 {
				leg.Add(c, line, points)
			}
		}
	}
	pw, h := vg.Points(640), vg.Points(360)
	lr := leg.Rectangle(draw.Canvas{})
	lw := lr.Size().X + vg.Points(16)
	h = max(h, lr.Size().Y+vg.Points(40))
	w := pw + lw
	cv := vgsvg.New(w, h)
	dc := draw.New(cv)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	// Top-aligned with the plot's title.
	leg.Draw(draw.Crop(dc, pw+vg.Points(8), 0, 0, -vg.Points(24)))
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return "", err
	}
	// Drop the XML prolog and namespaces (HTML needs neither) and add a
	// title for screen readers.
	str := buf.String()
	start := strings.Index(str, "<svg")
	end := strings.IndexByte(str[max(start, 0):], '>')
	if start < 0 || end < 0 {
		return "", fmt.Errorf("cannot draw the trend of %s: no <svg> element", s.Metric)
	}
	body := strings.ReplaceAll(str[start+end+1:], svgFontFamily, cssFontFamily)
	t := html.EscapeString(p.Title.Text)
	return fmt.Sprintf(`<svg viewBox="0 0 %.5g %.5g" width="%.5gpt" height="%.5gpt" role="img" aria-label="%s"><title>%s</title>`,
		w.Points(), h.Points(), w.Points(), h.Points(), t, t) + body, nil
}

// segments are condition c's points with a value, split wherever an
// evaluation of the series has no value for c (none recorded, or one
// without a value): a line never joins two evaluations across one
// where the condition was not measured.
func segments(s Series, c string, index map[int64]int, shift float64) []*xy {
	byEval := map[int64]Point{}
	for _, pt := range s.Points {
		if pt.Condition == c {
			byEval[pt.Evaluation] = pt
		}
	}
	var segs []*xy
	cur := &xy{}
	for _, e := range s.Evaluations() {
		pt, ok := byEval[e]
		if !ok || !pt.Known {
			if cur.Len() > 0 {
				segs, cur = append(segs, cur), &xy{}
			}
			continue
		}
		cur.x = append(cur.x, float64(index[e])+shift)
		lo, hi := pt.Value, pt.Value // no interval: a bar of no height
		if pt.hasInterval() {
			lo, hi = pt.Low, pt.High
		}
		cur.y, cur.lo, cur.hi = append(cur.y, pt.Value), append(cur.lo, lo), append(cur.hi, hi)
	}
	if cur.Len() > 0 {
		segs = append(segs, cur)
	}
	return segs
}

// caption names the conditions the plot cannot draw.
func caption(s Series) string {
	v := s.Valueless()
	if len(v) == 0 {
		return ""
	}
	return fmt.Sprintf("<figcaption>no value: %s (unknown labels or no runs to count: see tenet history show)</figcaption>", html.EscapeString(strings.Join(v, ", ")))
}

const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#1b1f24}
table{border-collapse:collapse;font-size:14px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left}
td.n{text-align:right}
</style>
</head>
<body>
<h1>%s</h1>
<figure>%s%s</figure>
<table>
<thead><tr>%s</tr></thead>
<tbody>
%s</tbody>
</table>
</body>
</html>
`

func writeHTML(w io.Writer, s Series) error {
	svg, err := SVG(s)
	if err != nil {
		return err
	}
	var th, rows strings.Builder
	for _, h := range head {
		fmt.Fprintf(&th, "<th>%s</th>", html.EscapeString(h))
	}
	for _, p := range s.Points {
		rows.WriteString("<tr>")
		for i, c := range p.cells() {
			class := ""
			if i == 0 || i == len(head)-1 {
				class = ` class="n"`
			}
			fmt.Fprintf(&rows, "<td%s>%s</td>", class, html.EscapeString(c))
		}
		rows.WriteString("</tr>\n")
	}
	t := html.EscapeString(s.title())
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, page, t, t, svg, caption(s), th.String(), rows.String())
	return bw.Flush()
}
