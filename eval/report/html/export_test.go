package html

import (
	"strconv"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
)

// LabelBoxes draws the utility/ASR scatter of conds (numbered 1.. in
// order) as a contract's metrics section does, 380×340 points, and
// returns the boxes of the labels shown ([minX, minY, maxX, maxY]), the
// texts of those left out, and the number of points.
func LabelBoxes(t *testing.T, conds []metrics.Condition) (boxes [][4]float64, hidden []string, points int) {
	var pts []plotScatterPoint
	for i, c := range conds {
		bu, _ := c.Rate("benign_utility")
		asr, _ := c.Rate("targeted_asr")
		x, okx := plotPoint(bu)
		y, oky := plotPoint(asr)
		if okx && oky {
			pts = append(pts, plotScatterPoint{Label: strconv.Itoa(i + 1), Color: plotColor(i + 1), Marker: plotMarkerOf(i + 1),
				X: x, Y: y, XI: bu.Wilson, YI: asr.Wilson})
		}
	}
	s, canvas, marks := drawScatter(t, pts, 380, 340)
	checkLabels(t, s, canvas, marks)
	for _, l := range s.labels {
		if !l.Shown {
			hidden = append(hidden, l.Text)
			continue
		}
		boxes = append(boxes, [4]float64{float64(l.Box.Min.X), float64(l.Box.Min.Y), float64(l.Box.Max.X), float64(l.Box.Max.Y)})
	}
	return boxes, hidden, len(pts)
}
