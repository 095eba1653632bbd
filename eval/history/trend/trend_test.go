package trend

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func at(h int) time.Time { return time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC) }

// points: evaluations 1, 2, 3 (recorded in that order, given shuffled) of
// conditions m1 and m2; m2 has no value in evaluation 2.
func points() []Point {
	return []Point{
		{Evaluation: 3, Recorded: at(12), Commit: "0123456789abcdef0123", Condition: "m2", Known: true, Value: 0.5, Low: 0.15, High: 0.85, Successes: 2, N: 4},
		{Evaluation: 1, Recorded: at(10), Commit: "aaaaaaaaaaaaaaaaaaaa", Condition: "m1", Known: true, Value: 0.25, Low: 0.05, High: 0.7, Successes: 1, N: 4},
		{Evaluation: 1, Recorded: at(10), Commit: "aaaaaaaaaaaaaaaaaaaa", Condition: "m2", Known: true, Value: 0.75, Low: 0.3, High: 0.95, Successes: 3, N: 4},
		{Evaluation: 2, Recorded: at(11), Condition: "m1", Known: true, Value: 0.5, Low: 0.15, High: 0.85, Successes: 2, N: 4},
		{Evaluation: 2, Recorded: at(11), Condition: "m2", Known: true, Value: math.NaN(), Low: math.NaN(), High: math.NaN()},
		{Evaluation: 3, Recorded: at(12), Commit: "0123456789abcdef0123", Dirty: true, Condition: "m1", Known: true, Value: 1, Low: 0.51, High: 1, Successes: 4, N: 4},
	}
}

func TestNew(t *testing.T) {
	s, err := New("c", "targeted_asr", points())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Points {
		got = append(got, string(rune('0'+p.Evaluation))+p.Condition)
	}
	if strings.Join(got, " ") != "1m1 1m2 2m1 2m2 3m1 3m2" {
		t.Errorf("order %q", got)
	}
	if s.Points[3].Known {
		t.Error("a NaN value is known")
	}
	if e := s.Evaluations(); len(e) != 3 || e[0] != 1 || e[2] != 3 {
		t.Errorf("evaluations %v", e)
	}
	if _, err := New("c", "targeted_asr", nil); err == nil || err.Error() != "no recorded evaluation of contract c has targeted_asr: record evaluations with tenet eval --record" {
		t.Errorf("%v", err)
	}
}

func TestCheckMetric(t *testing.T) {
	for _, m := range Metrics() {
		if err := CheckMetric(m); err != nil {
			t.Error(err)
		}
	}
	err := CheckMetric("targeted_asr_")
	if err == nil || !strings.HasPrefix(err.Error(), "--metric targeted_asr_: no such metric (did you mean targeted_asr?); the metrics are benign_utility, ") {
		t.Errorf("%v", err)
	}
	if err := CheckMetric("zzz"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("%v", err)
	}
}

func TestGolden(t *testing.T) {
	s, err := New("c", "targeted_asr", points())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{Table, JSON, Markdown} {
		var buf bytes.Buffer
		if err := Write(&buf, s, f); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "trend."+string(f))
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from %s (go test -update):\n%s", f, path, buf.String())
		}
	}
}

// TestHTML: the page parses, holds one plot with a line per condition and
// the table of points, and the same series gives the same bytes.
func TestHTML(t *testing.T) {
	s, err := New("c<x>", "targeted_asr", points())
	if err != nil {
		t.Fatal(err)
	}
	var one, two bytes.Buffer
	if err := Write(&one, s, HTML); err != nil {
		t.Fatal(err)
	}
	if err := Write(&two, s, HTML); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("two renderings of one series differ")
	}
	d := xml.NewDecoder(bytes.NewReader(one.Bytes()))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	count := map[string]int{}
	var text strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			count[tok.Name.Local]++
		case xml.CharData:
			text.Write(tok)
		}
	}
	if count["svg"] != 1 || count["figure"] != 1 || count["table"] != 1 || count["tr"] != 7 {
		t.Errorf("elements %v", count)
	}
	for _, want := range []string{"trend of targeted_asr, contract c<x>: 3 evaluations, 2 conditions", "#1", "#3", "m1", "m2", "0123456789ab+dirty"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the page's text lacks %q", want)
		}
	}
	if strings.Contains(one.String(), "<x>") {
		t.Error("a name is not escaped")
	}
}

func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("html"); err != nil || f != HTML {
		t.Errorf("%v %v", f, err)
	}
	if _, err := ParseFormat("csv"); err == nil || err.Error() != "--format csv: want table, json, markdown or html" {
		t.Errorf("%v", err)
	}
}
