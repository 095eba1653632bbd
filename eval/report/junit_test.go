package report

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func writeJUnit(t *testing.T, d *Document) string {
	t.Helper()
	return render(t, func(b *strings.Builder) error { return testWrite(b, d, "junit") })
}

func TestJUnitGolden(t *testing.T) {
	for _, f := range testDocuments(t) {
		golden(t, f.name+".xml.golden", writeJUnit(t, f.doc))
	}
}

// junitParsed is what a JUnit reader sees.
type junitParsed struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// parseJUnit decodes a JUnit document strictly, token by token to the end, then
// into junitParsed.
func parseJUnit(t *testing.T, out string) junitParsed {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(out))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%v in\n%s", err, out)
		}
	}
	var p junitParsed
	if err := xml.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJUnitCounts checks the documents parse and their counts add up: per
// suite and in total, tests are the test cases, failures the <failure>
// elements, errors the <error> elements.
func TestJUnitCounts(t *testing.T) {
	want := map[string][3]int{ // tests, failures, errors
		"eval": {8, 2, 0}, "bounds": {2, 0, 0}, "compare": {5, 0, 0}, "test": {2, 1, 0}, "errors": {3, 1, 1}, "empty": {1, 0, 1}, "observed": {1, 0, 0},
		// eval's failed gate is not failing; its violated invariant, of a
		// contract whose severities are unknown, still fails.
		"policy": {8, 1, 0},
	}
	for _, f := range testDocuments(t) {
		out := writeJUnit(t, f.doc)
		if !strings.HasPrefix(out, xml.Header+"<testsuites name=\"tenet "+f.doc.Command+"\"") || !utf8.ValidString(out) {
			t.Errorf("%s: bad start or invalid UTF-8:\n%s", f.name, out)
		}
		p := parseJUnit(t, out)
		var total [3]int
		for _, s := range p.Suites {
			var n [3]int
			for _, c := range s.Cases {
				n[0]++
				if c.Failure != nil {
					n[1]++
				}
				if c.Error != nil {
					n[2]++
				}
			}
			if n != [3]int{s.Tests, s.Failures, s.Errors} {
				t.Errorf("%s suite %s: counts %v, attributes %d/%d/%d", f.name, s.Name, n, s.Tests, s.Failures, s.Errors)
			}
			for i := range total {
				total[i] += n[i]
			}
		}
		if total != [3]int{p.Tests, p.Failures, p.Errors} || total != want[f.name] {
			t.Errorf("%s: counts %v, attributes %d/%d/%d, want %v", f.name, total, p.Tests, p.Failures, p.Errors, want[f.name])
		}
	}
}

// TestJUnitNamesRuns checks an invariant's failure names the first runs in
// its message and every run in its text.
func TestJUnitNamesRuns(t *testing.T) {
	p := parseJUnit(t, writeJUnit(t, manyViolations()))
	var msg, text string
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			if s.Name == "invariants" && c.Failure != nil {
				msg, text = c.Failure.Message, c.Failure.Text
			}
		}
	}
	if want := "invariant answered violated on 25 runs of 25 runs in m: m/T00, m/T01, m/T02 … and 22 more"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	lines := strings.Split(text, "\n")
	if len(lines) != 25 || lines[0] != "violated on m/T00" || lines[24] != "violated on m/T24" {
		t.Errorf("text:\n%s", text)
	}
}

// TestJUnitHostile checks hostile names and reasons survive the round trip,
// with the characters XML cannot hold replaced.
func TestJUnitHostile(t *testing.T) {
	p := parseJUnit(t, writeJUnit(t, errorsDocument()))
	c := p.Suites[0].Cases[0]
	if c.Classname != "a|b<script>" || c.Error == nil ||
		c.Error.Text != "run a|b<script>/T2: label utility is unknown: criterion error: \uFFFD[31mred\uFFFD | `x` <b>" {
		t.Errorf("case %+v", c)
	}
	inv := p.Suites[1].Cases[0]
	if inv.Failure == nil || inv.Failure.Text != `violated on a|b<script>/"t\nx"` {
		t.Errorf("invariant case %+v", inv)
	}
}
