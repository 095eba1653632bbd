package trend

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPlotGapsAndValueless: a condition missing from an evaluation has its
// line broken there (two separate line paths, not one from #1 to #3), a
// condition without any value is named in the caption under the plot,
// and the legend lies right of the plotting area.
func TestPlotGapsAndValueless(t *testing.T) {
	pts := []Point{
		{Evaluation: 1, Condition: "m1", Known: true, Value: 0.25, Low: math.NaN(), High: math.NaN(), Successes: 1, N: 4},
		{Evaluation: 2, Condition: "m1", Known: true, Value: 0.5, Low: math.NaN(), High: math.NaN(), Successes: 2, N: 4},
		{Evaluation: 3, Condition: "m2", Known: true, Value: 0.5, Low: math.NaN(), High: math.NaN(), Successes: 2, N: 4},
		{Evaluation: 4, Condition: "m1", Known: true, Value: 0.75, Low: math.NaN(), High: math.NaN(), Successes: 3, N: 4},
		{Evaluation: 5, Condition: "m1", Known: true, Value: 1, Low: math.NaN(), High: math.NaN(), Successes: 4, N: 4},
		{Evaluation: 1, Condition: "m3", Low: math.NaN(), High: math.NaN(), N: 240, Unknown: true},
		{Evaluation: 2, Condition: "m4", Low: math.NaN(), High: math.NaN()},
	}
	s, err := New("c", "targeted_asr", pts)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := SVG(s)
	if err != nil {
		t.Fatal(err)
	}
	// m1 is the first condition: palette[0], lines 1.5pt wide; the
	// plotting area is the first 640pt, the legend's sample line is
	// right of it.
	var inPlot, inLegend []string
	for _, m := range regexp.MustCompile(`<path d="M([0-9.]+),[^"]*" style="fill:none;stroke:#1F5FA8;stroke-width:1.5"`).FindAllStringSubmatch(svg, -1) {
		if x, _ := strconv.ParseFloat(m[1], 64); x < 640 {
			inPlot = append(inPlot, m[0])
		} else {
			inLegend = append(inLegend, m[0])
		}
	}
	if len(inPlot) != 2 || len(inLegend) != 1 {
		t.Errorf("m1: %d line paths in the plot (want 2: #1 to #2, #4 to #5), %d in the legend right of it (want 1):\n%s",
			len(inPlot), len(inLegend), strings.Join(append(inPlot, inLegend...), "\n"))
	}
	var b strings.Builder
	if err := Write(&b, s, HTML); err != nil {
		t.Fatal(err)
	}
	want := "<figcaption>no value: m3, m4 (unknown labels or no runs to count: see tenet history show)</figcaption>"
	if !strings.Contains(b.String(), want) {
		t.Errorf("no caption %q", want)
	}
}

// TestRecordingOrder: evaluations are ordered by id (the recording order
// tenet history list uses), not by recorded time, which concurrent
// writers can make disagree.
func TestRecordingOrder(t *testing.T) {
	s, err := New("c", "targeted_asr", []Point{
		{Evaluation: 2, Recorded: at(10), Condition: "m", Known: true, Value: 1, Successes: 1, N: 1},
		{Evaluation: 1, Recorded: at(11), Condition: "m", Known: true, Value: 0, N: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Evaluations(); len(e) != 2 || e[0] != 1 || e[1] != 2 {
		t.Errorf("evaluations %v, want [1 2]", e)
	}
}

// TestUnknownLabelsShowDenominator: a rate the unknown labels change has
// no value but its true n (and its bounds when recorded), in the table
// and in JSON.
func TestUnknownLabelsShowDenominator(t *testing.T) {
	s, err := New("c", "targeted_asr", []Point{
		{Evaluation: 1, Recorded: at(10), Condition: "m", Value: math.NaN(), Low: math.NaN(), High: math.NaN(), N: 240, Unknown: true},
		{Evaluation: 2, Recorded: at(11), Condition: "m", Value: math.NaN(), Low: math.NaN(), High: math.NaN(), N: 240, Unknown: true,
			HasBounds: true, LowBound: 0.125, HighBound: 0.25},
	})
	if err != nil {
		t.Fatal(err)
	}
	var tb, js strings.Builder
	if err := Write(&tb, s, Table); err != nil {
		t.Fatal(err)
	}
	if err := Write(&js, s, JSON); err != nil {
		t.Fatal(err)
	}
	wantTable := `trend of targeted_asr, contract c: 2 evaluations, 1 condition
evaluation  recorded              commit  condition  value                                        interval (95%)  n
1           2026-12-01T10:00:00Z  —       m          — (unknown labels)                           —               240
2           2026-12-01T11:00:00Z  —       m          — (unknown labels; bounds [0.1250, 0.2500])  —               240
`
	if tb.String() != wantTable {
		t.Errorf("table\n%s\nwant\n%s", tb.String(), wantTable)
	}
	for _, want := range []string{`"value": null,
      "low": null,
      "high": null,
      "successes": null,
      "n": 240,
      "unknown": true,
      "bounds": null`, `"n": 240,
      "unknown": true,
      "bounds": [
        0.125,
        0.25
      ]`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("JSON lacks\n%s\n%s", want, js.String())
		}
	}
}
