package html

import (
	"fmt"
	"math"
	"testing"

	colorful "github.com/lucasb-eyer/go-colorful"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The thresholds of "differs" for two condition styles:
//
//   - colour: CIEDE2000 ΔE ≥ 15. A ΔE00 of about 2 is just noticeable for
//     large patches side by side; a marker is 7 points wide and is matched
//     against the legend from memory, not side by side, and small fields
//     need several times the large-field difference (and readers with a
//     colour vision deficiency lose part of the hue term): 15 leaves that
//     margin.
//   - grey: |ΔL*| ≥ 15, CIE lightness from relative luminance (what is
//     left of a colour in greyscale print or a greyscale screenshot). Four
//     levels 15 apart fit between a dark and a light ink that both show on
//     white (with the markers' dark outline).
//   - marker: a different shape (plotMarkers).
const (
	minColourDelta = 15.0
	minGreyDelta   = 15.0
)

// TestPaletteDistinct: any two of the first 24 condition styles differ in
// at least two of colour, grey and marker, by the thresholds above.
func TestPaletteDistinct(t *testing.T) {
	if len(plotPalette) != 24 || len(plotPalette)%len(plotMarkers) != 0 {
		t.Fatalf("%d colours, %d markers: want 24 colours, a multiple of the markers", len(plotPalette), len(plotMarkers))
	}
	shapes := map[string]bool{}
	for _, m := range plotMarkers {
		if shapes[m.Name] {
			t.Errorf("marker %s twice", m.Name)
		}
		shapes[m.Name] = true
	}
	type style struct {
		c      colorful.Color
		grey   float64
		marker string
	}
	styles := make([]style, 24)
	for n := 1; n <= 24; n++ {
		c, _ := colorful.MakeColor(plotColor(n))
		l, _, _ := c.Lab()
		styles[n-1] = style{c, 100 * l, plotMarkerOf(n).Name}
	}
	minColour, minGrey := math.Inf(1), math.Inf(1)
	for i := range styles {
		for j := i + 1; j < len(styles); j++ {
			a, b := styles[i], styles[j]
			dc := 100 * a.c.DistanceCIEDE2000(b.c)
			dg := math.Abs(a.grey - b.grey)
			differ := 0
			for _, d := range []bool{dc >= minColourDelta, dg >= minGreyDelta, a.marker != b.marker} {
				if d {
					differ++
				}
			}
			if differ < 2 {
				t.Errorf("conditions %d and %d differ in %d of colour (ΔE00 %.1f), grey (ΔL* %.1f), marker (%s, %s)",
					i+1, j+1, differ, dc, dg, a.marker, b.marker)
			}
			if a.marker == b.marker {
				minColour, minGrey = math.Min(minColour, dc), math.Min(minGrey, dg)
			}
		}
	}
	// Two conditions with the same marker differ in both colour and grey.
	if minColour < minColourDelta || minGrey < minGreyDelta {
		t.Errorf("same-marker pairs: least ΔE00 %.1f, least ΔL* %.1f", minColour, minGrey)
	}
	t.Logf("same-marker pairs: least ΔE00 %.1f, least ΔL* %.1f", minColour, minGrey)
}

// checkLabels fails when two shown label boxes intersect, or a label
// covers a marker, or leaves the canvas.
func checkLabels(t *testing.T, s *plotScatter, canvas vg.Rectangle, marks []vg.Rectangle) {
	t.Helper()
	for i, a := range s.labels {
		if !a.Shown {
			continue
		}
		if a.Box.Min.X < canvas.Min.X || a.Box.Min.Y < canvas.Min.Y || a.Box.Max.X > canvas.Max.X || a.Box.Max.Y > canvas.Max.Y {
			t.Errorf("label %q at %v leaves the canvas %v", a.Text, a.Box, canvas)
		}
		for _, b := range s.labels[i+1:] {
			if b.Shown && plotOverlap(a.Box, b.Box) > 0 {
				t.Errorf("labels %q %v and %q %v overlap", a.Text, a.Box, b.Text, b.Box)
			}
		}
		for k, m := range marks {
			if plotOverlap(a.Box, m) > 0 {
				t.Errorf("label %q %v covers the marker of point %d %v", a.Text, a.Box, k+1, m)
			}
		}
	}
}

// drawScatter draws pts as the report does (w×h points) and returns the
// plotter, its data canvas and the marker boxes.
func drawScatter(t *testing.T, pts []plotScatterPoint, w, h vg.Length) (*plotScatter, vg.Rectangle, []vg.Rectangle) {
	t.Helper()
	s := plotScatterOf("t", pts)
	c := draw.New(vgsvg.New(w, h))
	s.plot.Draw(c)
	data := s.plot.DataCanvas(c)
	tx, ty := s.plot.Transforms(&data)
	marks := make([]vg.Rectangle, len(pts))
	for i, p := range pts {
		marks[i] = vg.Rectangle{Min: vg.Point{X: tx(p.X[0]) - plotMarkerRadius, Y: ty(p.Y[0]) - plotMarkerRadius},
			Max: vg.Point{X: tx(p.X[1]) + plotMarkerRadius, Y: ty(p.Y[1]) + plotMarkerRadius}}
	}
	return s, data.Rectangle, marks
}

// TestLabelsClusterDoNotOverlap: 30 conditions within a tenth of each axis
// (a deterministic spiral, two of them at one place) get 29 labels, none
// overlapping another or a marker, all shown.
func TestLabelsClusterDoNotOverlap(t *testing.T) {
	var pts []plotScatterPoint
	for i := range 30 {
		r, a := 0.004*float64(i), 2.4*float64(i)
		x, y := 0.5+r*math.Cos(a), 0.5+r*math.Sin(a)
		if i == 29 {
			x, y = pts[0].X[0], pts[0].Y[0]
		}
		pts = append(pts, plotScatterPoint{Label: fmt.Sprint(i + 1), Color: plotColor(i + 1), Marker: plotMarkerOf(i + 1),
			X: [2]float64{x, x}, Y: [2]float64{y, y}})
	}
	s, canvas, marks := drawScatter(t, pts, 380, 340)
	if len(s.labels) != 29 {
		t.Fatalf("%d labels, want 29 (points 1 and 30 share one)", len(s.labels))
	}
	if s.labels[0].Text != "1, 30" {
		t.Errorf("first label %q, want \"1, 30\"", s.labels[0].Text)
	}
	// Markers of a tight cluster overlap one another; only labels must not.
	checkLabels(t, s, canvas, nil)
	for _, l := range s.labels {
		if !l.Shown {
			t.Errorf("label %q not shown: the canvas has room", l.Text)
		}
		for k, m := range marks {
			if plotOverlap(l.Box, m) > 0 {
				t.Errorf("label %q covers marker %d", l.Text, k+1)
			}
		}
	}
	leaders := 0
	for _, l := range s.labels {
		if l.Leader {
			leaders++
		}
	}
	t.Logf("%d of %d labels away from their point, with a leader line", leaders, len(s.labels))
}

// TestLayoutFullCanvas: where no room is left, a label is left out (and
// named in the caption), never drawn over another.
func TestLayoutFullCanvas(t *testing.T) {
	bounds := vg.Rectangle{Max: vg.Point{X: 30, Y: 14}}
	marks := []vg.Rectangle{{Min: vg.Point{X: 0, Y: 0}, Max: vg.Point{X: 4, Y: 4}}, {Min: vg.Point{X: 5, Y: 0}, Max: vg.Point{X: 9, Y: 4}},
		{Min: vg.Point{X: 10, Y: 0}, Max: vg.Point{X: 14, Y: 4}}}
	sizes := []vg.Point{{X: 20, Y: 8}, {X: 20, Y: 8}, {X: 20, Y: 8}}
	got := plotLayoutLabels(bounds, marks, sizes)
	if !got[0].Shown || got[1].Shown || got[2].Shown {
		t.Errorf("shown %v %v %v, want only the first (one 22×10 box fits above the markers)", got[0].Shown, got[1].Shown, got[2].Shown)
	}
}
