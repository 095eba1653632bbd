package html

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	plottext "gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/tenetlang/tenet/eval/metrics"
)

// The figures of the HTML report are drawn with gonum/plot on its SVG
// canvas and inlined. The canvas escapes every text it draws
// (html.EscapeString), embeds no font and writes no id, date or random
// number, so the same Document gives the same bytes; plotSVG drops the XML
// prolog and the namespace declarations (the HTML parser needs neither)
// and adds a <title>.

// plotPalette and plotMarkers style conditions by their number n
// (1-based): condition n has colour plotPalette[(n-1) % 24] and marker
// plotMarkers[(n-1) % 6]. The 24 colours are four rows of six hues, each
// row at one CIE lightness L* (34, 50, 66, 82: greyscale levels 16 apart),
// each hue at the greatest chroma sRGB holds at that lightness (CIE LCh
// hues 25° + 60°·k, the odd rows turned by 30° so that a marker's four
// colours also differ in hue). Condition i (0-based) is in row i/6 with
// marker i%6, so two conditions with the same marker are in different
// rows (they differ in colour and in grey), and two with the same row
// differ in marker and in hue: any two of the first 24 differ in at least
// two of colour, grey and marker, in print and for readers who do not see
// some hues (TestPaletteDistinct measures it). Beyond 24 the styles
// repeat; the numbers drawn beside the points stay unique.
var plotPalette = []color.RGBA{
	plotRGB(0xa30229), plotRGB(0x654c01), plotRGB(0x015d22), plotRGB(0x02595e), plotRGB(0x035483), plotRGB(0x8d019a),
	plotRGB(0xc55501), plotRGB(0x668102), plotRGB(0x058771), plotRGB(0x0481a1), plotRGB(0x4069ff), plotRGB(0xe50385),
	plotRGB(0xff7577), plotRGB(0xc89a02), plotRGB(0x06b94c), plotRGB(0x04b2bb), plotRGB(0x12a8ff), plotRGB(0xf265fe),
	plotRGB(0xffbe9a), plotRGB(0xafdc01), plotRGB(0x06e6c1), plotRGB(0x74d9fe), plotRGB(0xcac6ff), plotRGB(0xffb9d2),
}

// plotMarker is a marker shape: a polygon of unit radius around (0, 0),
// y up, or a disc (nil).
type plotMarker struct {
	Name string
	Poly [][2]float64
}

// plotMarkers are six shapes told apart at 7 points without colour:
// disc, square, triangle up, diamond, triangle down, plus. Each covers its
// centre, where the browser test samples its grey.
var plotMarkers = []plotMarker{
	{Name: "disc"},
	{Name: "square", Poly: [][2]float64{{-0.85, -0.85}, {0.85, -0.85}, {0.85, 0.85}, {-0.85, 0.85}}},
	{Name: "triangle-up", Poly: [][2]float64{{0, 1.15}, {1, -0.6}, {-1, -0.6}}},
	{Name: "diamond", Poly: [][2]float64{{0, 1.15}, {1.15, 0}, {0, -1.15}, {-1.15, 0}}},
	{Name: "triangle-down", Poly: [][2]float64{{0, -1.15}, {1, 0.6}, {-1, 0.6}}},
	{Name: "plus", Poly: [][2]float64{{-0.35, 1}, {0.35, 1}, {0.35, 0.35}, {1, 0.35}, {1, -0.35}, {0.35, -0.35},
		{0.35, -1}, {-0.35, -1}, {-0.35, -0.35}, {-1, -0.35}, {-1, 0.35}, {-0.35, 0.35}}},
}

// plotOutline is the thin dark edge of every marker, so that the light
// rows of the palette stand out on white.
var plotOutline = color.RGBA{0x33, 0x33, 0x33, 0xff}

// plotLabelColor is the colour of the numbers beside the points: one dark
// ink for all, readable on white whatever the condition's colour (the
// marker beside it carries the colour).
var plotLabelColor = color.RGBA{0x1b, 0x1f, 0x24, 0xff}

func plotRGB(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

// plotColor is the palette colour of condition number n (1-based).
func plotColor(n int) color.RGBA { return plotPalette[(n-1)%len(plotPalette)] }

// plotMarkerOf is the marker of condition number n (1-based).
func plotMarkerOf(n int) plotMarker { return plotMarkers[(n-1)%len(plotMarkers)] }

// drawMarker draws marker m filled with fill, radius r, centred at at.
func drawMarker(c draw.Canvas, m plotMarker, fill color.Color, at vg.Point, r vg.Length) {
	if m.Poly == nil {
		c.DrawGlyph(draw.GlyphStyle{Color: fill, Radius: r, Shape: draw.CircleGlyph{}}, at)
		c.DrawGlyph(draw.GlyphStyle{Color: plotOutline, Radius: r, Shape: draw.RingGlyph{}}, at)
		return
	}
	pts := make([]vg.Point, len(m.Poly)+1)
	for i, p := range m.Poly {
		pts[i] = vg.Point{X: at.X + r*vg.Length(p[0]), Y: at.Y + r*vg.Length(p[1])}
	}
	pts[len(m.Poly)] = pts[0]
	c.FillPolygon(fill, pts[:len(m.Poly)])
	c.StrokeLines(draw.LineStyle{Color: plotOutline, Width: 0.6}, pts)
}

// markerSVG is marker m as a small inline <svg> swatch for the page's
// legend and tables (fixed markup and a hex colour: nothing from input).
func markerSVG(m plotMarker, fill color.RGBA) template.HTML {
	shape := `<circle r="4.6"`
	if m.Poly != nil {
		var d strings.Builder
		for i, p := range m.Poly {
			cmd := "L"
			if i == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%.2f %.2f", cmd, 4.6*p[0], -4.6*p[1]) // SVG's y points down
		}
		shape = `<path d="` + d.String() + `Z"`
	}
	return template.HTML(fmt.Sprintf(`<svg class="mk" data-marker="%s" viewBox="-6 -6 12 12" width="12" height="12" aria-hidden="true">%s fill="%s" stroke="#333" stroke-width="0.8"/></svg>`,
		m.Name, shape, plotHex(fill)))
}

// plotHex renders "#1f77b4".
func plotHex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// The four cells of the joint utility/attack bars, and the part of |C|
// that unknown labels leave undetermined (--unknown=bounds).
var (
	plotColorUtilityOnly = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	plotColorBoth        = color.RGBA{0xff, 0xa5, 0x00, 0xff}
	plotColorAttackOnly  = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	plotColorNeither     = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	plotColorUnknown     = color.RGBA{0xf3, 0xe7, 0xb5, 0xff}
	plotColorGood        = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	plotColorBad         = color.RGBA{0xd6, 0x27, 0x28, 0xff}
)

// plotFont is the plots' typeface: Liberation Sans, metrically compatible
// with Arial, which plotSVG names as its fallback.
var plotFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// plotFontFamily is how vgsvg names plotFont, and plotCSSFamily what
// plotSVG makes of it.
const (
	plotFontFamily = "font-family:Liberation Sans;"
	plotCSSFamily  = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

// plotMaxLabel bounds the length of a name drawn in a plot; the tables
// print it whole.
const plotMaxLabel = 50

// plotLabel shortens a name for a plot axis: at most plotMaxLabel runes,
// "…" marking a cut.
func plotLabel(s string) string {
	if utf8.RuneCountInString(s) <= plotMaxLabel {
		return s
	}
	r := []rune(s)
	return string(r[:plotMaxLabel-1]) + "…"
}

// plotNew returns a plot whose texts are all set in plotFont.
func plotNew(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(plotFont, 12)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(plotFont, 11)
		a.Tick.Label.Font = font.From(plotFont, 10)
	}
	p.Legend.TextStyle.Font = font.From(plotFont, 9)
	return p
}

// plotRateTicks are 0, 0.2, …, 1 with minor ticks between them.
func plotRateTicks() plot.Ticker {
	var ts []plot.Tick
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = fmt.Sprintf("%.1f", t.Value)
			if i == 0 || i == 10 {
				t.Label = fmt.Sprint(i / 10)
			}
		}
		ts = append(ts, t)
	}
	return plot.ConstantTicks(ts)
}

// plotSVG draws the plot on a w×h point SVG canvas and returns the <svg>
// element to inline, titled title (for screen readers and tooltips).
// A plot that cannot be drawn (gonum panics on degenerate input) is an
// error.
func plotSVG(p *plot.Plot, w, h vg.Length, title string) (out template.HTML, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot draw %q: %v", title, r)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	start := strings.Index(s, "<svg")
	end := strings.IndexByte(s[max(start, 0):], '>')
	if start < 0 || end < 0 {
		return "", fmt.Errorf("cannot draw %q: no <svg> element", title)
	}
	body := strings.ReplaceAll(s[start+end+1:], plotFontFamily, plotCSSFamily)
	t := html.EscapeString(title)
	head := fmt.Sprintf(`<svg viewBox="0 0 %.5g %.5g" width="%.5gpt" height="%.5gpt" role="img" aria-label="%s"><title>%s</title>`,
		w.Points(), h.Points(), w.Points(), h.Points(), t, t)
	return template.HTML(head + body), nil
}

// plotScatterPoint is one condition in the utility/ASR plane: its value on
// each axis as [low, high] (equal unless unknown labels bound it) and its
// Wilson 95% interval.
type plotScatterPoint struct {
	Label  string // the condition's number
	Color  color.RGBA
	Marker plotMarker
	X, Y   [2]float64
	XI, YI metrics.Interval
}

// plotPoint is the point of a rate's stats on one axis, ok false when the
// rate is null (no denominator).
func plotPoint(s metrics.RateStats) ([2]float64, bool) {
	if !s.Low.Valid || !s.High.Valid || s.Low.Rate.Den == 0 || s.High.Rate.Den == 0 {
		return [2]float64{}, false
	}
	lo, hi := s.Low.Rate.Value(), s.High.Rate.Value()
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return [2]float64{}, false
	}
	return [2]float64{lo, hi}, true
}

// plotScatterSVG plots benign utility (x) against targeted ASR (y), both in
// [0, 1], one numbered marker per point with its Wilson error bars, on a
// w×h point canvas. hidden lists the labels the layout found no room for
// (their points are drawn; the figure's caption names them).
func plotScatterSVG(title string, pts []plotScatterPoint, w, h vg.Length) (svg template.HTML, hidden []string, err error) {
	s := plotScatterOf(title, pts)
	svg, err = plotSVG(s.plot, w, h, title)
	for _, l := range s.labels {
		if !l.Shown {
			hidden = append(hidden, l.Text)
		}
	}
	return svg, hidden, err
}

// plotScatterOf builds the scatter plot of pts; drawing it fills the
// returned plotter's labels.
func plotScatterOf(title string, pts []plotScatterPoint) *plotScatter {
	p := plotNew(title)
	p.X.Label.Text = "benign utility →"
	p.Y.Label.Text = "targeted ASR (lower is better) →"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.X.Tick.Marker, p.Y.Tick.Marker = plotRateTicks(), plotRateTicks()
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{0xe4}
	grid.Horizontal.Color = color.Gray{0xe4}
	s := &plotScatter{plot: p, pts: pts, label: plottext.Style{Color: plotLabelColor, Font: font.From(plotFont, 10),
		Handler: p.TextHandler}}
	p.Add(grid, s)
	return s
}

// plotScatter draws plotScatterPoints: error bars, then markers, then
// labels placed by plotLayoutLabels, so that no two labels overlap.
type plotScatter struct {
	plot  *plot.Plot
	pts   []plotScatterPoint
	label plottext.Style
	// labels is what the last Plot placed, in drawing order.
	labels []plotDrawnLabel
}

// plotDrawnLabel is one drawn label: its text and, when Shown, its box on the
// canvas (a 1-point margin around the text).
type plotDrawnLabel struct {
	Text   string
	Box    vg.Rectangle
	Leader bool
	Shown  bool
}

const plotMarkerRadius = vg.Length(3.5)

// DataRange is the unit square.
func (s *plotScatter) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, 0, 1 }

// GlyphBoxes reserves room for a marker and its label around each point,
// so that points on the edges are drawn whole.
func (s *plotScatter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	r := plotMarkerRadius + 2
	var out []plot.GlyphBox
	for _, pt := range s.pts {
		out = append(out, plot.GlyphBox{X: p.X.Norm(pt.X[0]), Y: p.Y.Norm(pt.Y[0]),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -r, Y: -r}, Max: vg.Point{X: r, Y: r}}})
	}
	return out
}

// Plot implements plot.Plotter.
func (s *plotScatter) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	bar := func(clr color.RGBA, pts ...vg.Point) {
		c.StrokeLines(draw.LineStyle{Color: plotTranslucent(clr, 0x99), Width: 1}, pts)
	}
	const capLen = 2.5
	// The marker of each point: its shape, or the box of the values the
	// unknown labels allow.
	marks := make([]vg.Rectangle, len(s.pts))
	for i, pt := range s.pts {
		x0, x1, y0, y1 := tx(pt.X[0]), tx(pt.X[1]), ty(pt.Y[0]), ty(pt.Y[1])
		xm, ym := (x0+x1)/2, (y0+y1)/2
		if pt.XI.Valid {
			a, b := tx(pt.XI.Low), tx(pt.XI.High)
			bar(pt.Color, vg.Point{X: a, Y: ym}, vg.Point{X: b, Y: ym})
			bar(pt.Color, vg.Point{X: a, Y: ym - capLen}, vg.Point{X: a, Y: ym + capLen})
			bar(pt.Color, vg.Point{X: b, Y: ym - capLen}, vg.Point{X: b, Y: ym + capLen})
		}
		if pt.YI.Valid {
			a, b := ty(pt.YI.Low), ty(pt.YI.High)
			bar(pt.Color, vg.Point{X: xm, Y: a}, vg.Point{X: xm, Y: b})
			bar(pt.Color, vg.Point{X: xm - capLen, Y: a}, vg.Point{X: xm + capLen, Y: a})
			bar(pt.Color, vg.Point{X: xm - capLen, Y: b}, vg.Point{X: xm + capLen, Y: b})
		}
		marks[i] = vg.Rectangle{Min: vg.Point{X: x0 - plotMarkerRadius, Y: y0 - plotMarkerRadius},
			Max: vg.Point{X: x1 + plotMarkerRadius, Y: y1 + plotMarkerRadius}}
	}
	for i, pt := range s.pts {
		m := marks[i]
		ctr := vg.Point{X: (m.Min.X + m.Max.X) / 2, Y: (m.Min.Y + m.Max.Y) / 2}
		if pt.X[0] == pt.X[1] && pt.Y[0] == pt.Y[1] {
			drawMarker(c, pt.Marker, pt.Color, ctr, plotMarkerRadius)
			continue
		}
		box := []vg.Point{m.Min, {X: m.Max.X, Y: m.Min.Y}, m.Max, {X: m.Min.X, Y: m.Max.Y}, m.Min}
		c.FillPolygon(plotTranslucent(pt.Color, 0x60), box)
		c.StrokeLines(draw.LineStyle{Color: pt.Color, Width: 1}, box)
		drawMarker(c, pt.Marker, pt.Color, ctr, plotMarkerRadius*0.8)
	}
	// Points drawn at the same place share one label: "2, 6".
	type group struct {
		mark  vg.Rectangle
		label string
		color color.RGBA
	}
	var groups []group
	for i, pt := range s.pts {
		j := slices.IndexFunc(groups, func(g group) bool { return g.mark == marks[i] })
		if j < 0 {
			groups = append(groups, group{marks[i], pt.Label, pt.Color})
			continue
		}
		groups[j].label += ", " + pt.Label
		groups[j].color = color.RGBA{0x40, 0x40, 0x40, 0xff}
	}
	gmarks := make([]vg.Rectangle, len(groups))
	sizes := make([]vg.Point, len(groups))
	for i, g := range groups {
		gmarks[i] = g.mark
		sizes[i] = vg.Point{X: s.label.Width(g.label), Y: s.label.Height(g.label)}
	}
	s.labels = s.labels[:0]
	for i, at := range plotLayoutLabels(c.Rectangle, gmarks, sizes) {
		g := groups[i]
		s.labels = append(s.labels, plotDrawnLabel{Text: g.label, Box: at.Box, Leader: at.Leader, Shown: at.Shown})
		if !at.Shown {
			continue
		}
		box := at.Box
		if at.Leader {
			ctr := vg.Point{X: (g.mark.Min.X + g.mark.Max.X) / 2, Y: (g.mark.Min.Y + g.mark.Max.Y) / 2}
			c.StrokeLines(draw.LineStyle{Color: plotTranslucent(g.color, 0xcc), Width: 0.8}, []vg.Point{ctr, plotNearest(box, ctr)})
		}
		c.FillPolygon(color.NRGBA{0xff, 0xff, 0xff, 0xc0}, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}})
		sty := s.label
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		c.FillText(sty, vg.Point{X: (box.Min.X + box.Max.X) / 2, Y: (box.Min.Y + box.Max.Y) / 2}, g.label)
	}
}

// plotPlacement is where plotLayoutLabels put one label.
type plotPlacement struct {
	Box    vg.Rectangle
	Leader bool // away from its marker: a line joins them
	Shown  bool // false: no room anywhere on the canvas
}

// plotLayoutLabels places the labels of marks (sizes[i] is label i's width
// and height) inside bounds so that no label overlaps another label or any
// marker, deterministically, in order: first the eight places around the
// marker at growing distances (rings 1 to 6, a leader line beyond the
// first), then the free place on a 2-point grid over the canvas nearest to
// the marker (with a leader line), and when the canvas has no room left
// the label is not drawn (Shown false) rather than drawn over another.
func plotLayoutLabels(bounds vg.Rectangle, marks []vg.Rectangle, sizes []vg.Point) []plotPlacement {
	out := make([]plotPlacement, len(marks))
	taken := append([]vg.Rectangle(nil), marks...)
	free := func(box vg.Rectangle) bool {
		if box.Min.X < bounds.Min.X || box.Min.Y < bounds.Min.Y || box.Max.X > bounds.Max.X || box.Max.Y > bounds.Max.Y {
			return false
		}
		for _, o := range taken {
			if plotOverlap(box, o) > 0 {
				return false
			}
		}
		return true
	}
	for i, m := range marks {
		w, h := sizes[i].X+2, sizes[i].Y+2
		cx, cy := (m.Min.X+m.Max.X)/2, (m.Min.Y+m.Max.Y)/2
		placed := false
		for ring := 0; ring < 6 && !placed; ring++ {
			d := vg.Length(1 + 6*ring)
			for _, at := range []vg.Point{
				{X: m.Max.X + d, Y: cy - h/2},            // right
				{X: m.Min.X - d - w, Y: cy - h/2},        // left
				{X: cx - w/2, Y: m.Max.Y + d},            // above
				{X: cx - w/2, Y: m.Min.Y - d - h},        // below
				{X: m.Max.X + d*0.7, Y: m.Max.Y + d*0.7}, // above right
				{X: m.Min.X - d*0.7 - w, Y: m.Max.Y + d*0.7},
				{X: m.Max.X + d*0.7, Y: m.Min.Y - d*0.7 - h},
				{X: m.Min.X - d*0.7 - w, Y: m.Min.Y - d*0.7 - h},
			} {
				box := vg.Rectangle{Min: at, Max: vg.Point{X: at.X + w, Y: at.Y + h}}
				if free(box) {
					out[i], placed = plotPlacement{Box: box, Leader: ring > 0, Shown: true}, true
					break
				}
			}
		}
		if !placed {
			const step = 2
			best, bestD := vg.Rectangle{}, vg.Length(math.Inf(1))
			for y := bounds.Min.Y; y+h <= bounds.Max.Y; y += step {
				for x := bounds.Min.X; x+w <= bounds.Max.X; x += step {
					box := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
					n := plotNearest(box, vg.Point{X: cx, Y: cy})
					d := vg.Length(math.Hypot(float64(n.X-cx), float64(n.Y-cy)))
					if d < bestD && free(box) {
						best, bestD = box, d
					}
				}
			}
			if !math.IsInf(float64(bestD), 1) {
				out[i], placed = plotPlacement{Box: best, Leader: true, Shown: true}, true
			}
		}
		if placed {
			taken = append(taken, out[i].Box)
		}
	}
	return out
}

// plotOverlap is the area two rectangles share.
func plotOverlap(a, b vg.Rectangle) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// plotNearest is the point of r closest to p.
func plotNearest(r vg.Rectangle, p vg.Point) vg.Point {
	return vg.Point{X: min(max(p.X, r.Min.X), r.Max.X), Y: min(max(p.Y, r.Min.Y), r.Max.Y)}
}

// plotTranslucent is c with alpha a (color.RGBA is alpha-premultiplied,
// color.NRGBA is not).
func plotTranslucent(c color.RGBA, a uint8) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, a} }

// plotBarSeg is one segment of a horizontal bar: row Row (0 at the top) from
// From to To in data units, with an optional text drawn inside it.
type plotBarSeg struct {
	Row      int
	From, To float64
	Color    color.RGBA
	Text     string
}

// plotBars draws plotBarSegs as horizontal bars, rows top to bottom, and marks
// (a black tick) at given values.
type plotBars struct {
	rows       int
	xmin, xmax float64
	segs       []plotBarSeg
	marks      []plotBarSeg // From is the value; To, Color and Text are unused
	text       plottext.Style
}

// DataRange spans [xmin, xmax] and the rows.
func (b *plotBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.xmin, b.xmax, -0.5, float64(b.rows) - 0.5
}

// Plot implements plot.Plotter.
func (b *plotBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	y := func(row int, d float64) vg.Length { return ty(float64(b.rows-1-row) + d) }
	for _, s := range b.segs {
		x0, x1 := tx(s.From), tx(s.To)
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		if x1-x0 <= 0 {
			continue
		}
		y0, y1 := y(s.Row, -0.36), y(s.Row, 0.36)
		c.FillPolygon(s.Color, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
		if s.Text != "" && b.text.Width(s.Text)+4 <= x1-x0 && b.text.Height(s.Text) <= y1-y0 {
			sty := b.text
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
			if plotLuminance(s.Color) < 0.5 {
				sty.Color = color.White
			}
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, s.Text)
		}
	}
	for _, m := range b.marks {
		x := tx(m.From)
		c.StrokeLines(draw.LineStyle{Color: color.Black, Width: 2}, []vg.Point{{X: x, Y: y(m.Row, -0.45)}, {X: x, Y: y(m.Row, 0.45)}})
	}
}

// plotLuminance is a colour's relative luminance, roughly.
func plotLuminance(c color.RGBA) float64 {
	return (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
}

// plotBarsSVG draws horizontal bars, one row per name (top to bottom;
// names already shortened by plotLabel), with the x axis spanning
// [xmin, xmax] labelled xlabel and ticked by ticks, width points wide.
func plotBarsSVG(title, xlabel string, names []string, xmin, xmax float64, ticks plot.Ticker, segs, marks []plotBarSeg, width vg.Length) (template.HTML, error) {
	p := plotNew(title)
	p.X.Label.Text = xlabel
	p.X.Min, p.X.Max = xmin, xmax
	p.X.Tick.Marker = ticks
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{0xe4}
	grid.Horizontal.Color = nil
	rev := make([]string, len(names))
	for i, n := range names {
		rev[len(names)-1-i] = n
	}
	p.Add(grid, &plotBars{rows: len(names), xmin: xmin, xmax: xmax, segs: segs, marks: marks,
		text: plottext.Style{Color: color.Black, Font: font.From(plotFont, 9), Handler: p.TextHandler}})
	p.NominalY(rev...)
	height := vg.Length(75 + 19*len(names))
	return plotSVG(p, width, height, title)
}

// plotShareTicks are 0%, 25%, …, 100% of a bar's whole, 1.
func plotShareTicks() plot.Ticker {
	var ts []plot.Tick
	for i := 0; i <= 4; i++ {
		ts = append(ts, plot.Tick{Value: float64(i) / 4, Label: fmt.Sprintf("%d%%", 25*i)})
	}
	return plot.ConstantTicks(ts)
}

// plotSymmetricTicks tick [-m, m] every step, labelled with signs.
func plotSymmetricTicks(m, step float64) plot.Ticker {
	var ts []plot.Tick
	n := int(math.Round(m / step))
	for i := -n; i <= n; i++ {
		v := float64(i) * step
		label := fmt.Sprintf("%+.2g", v)
		if i == 0 {
			label = "0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return plot.ConstantTicks(ts)
}
