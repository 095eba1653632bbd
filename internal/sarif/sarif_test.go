package sarif

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// validate checks data against the official SARIF 2.1.0 schema, formats
// (uri, uri-reference) asserted.
func validate(t *testing.T, data []byte) error {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(v)
}

func sample(results, flow int) *Log {
	run := Run{Tool: Tool{Driver: Driver{Name: "tenet", Version: "0.1.0", InformationURI: "https://github.com/tenetlang/tenet",
		Rules: []Rule{{ID: "unknown-block", ShortDescription: Text("Unsupported block type"), HelpURI: "https://github.com/tenetlang/tenet/blob/main/docs/diagnostics.md#unknown-block",
			DefaultConfiguration: &Configuration{Level: Error}, Properties: &Properties{Tags: []string{"security"}, SecuritySeverity: "8.0"}}}}}}
	for i := range results {
		loc := At("my dir/c.tenet.hcl", i+1, 3)
		loc.PhysicalLocation.Region.EndLine, loc.PhysicalLocation.Region.EndColumn = i+1, 9
		r := Result{RuleID: "unknown-block", Level: Error, Message: Message{Text: fmt.Sprintf("result %d", i)}, Locations: []Location{loc, At("b.hcl", 0, 0)}}
		if flow > 0 {
			var locs []ThreadFlowLocation
			for j := range flow {
				l := At("runs.jsonl", 2, 0)
				l.Message = Text(fmt.Sprintf("step %d", j))
				locs = append(locs, ThreadFlowLocation{Location: l})
			}
			r.CodeFlows = []CodeFlow{{Message: Text("witness"), ThreadFlows: []ThreadFlow{{Locations: locs}}}}
		}
		run.Results = append(run.Results, r)
	}
	return NewLog(run)
}

func TestWriteIsValidSARIF(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample(2, 2), GitHub); err != nil {
		t.Fatal(err)
	}
	if err := validate(t, buf.Bytes()); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, buf.Bytes())
	}
	for _, want := range []string{
		`"$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"`,
		`"version": "2.1.0"`,
		`"uri": "my%20dir/c.tenet.hcl"`,
		`"security-severity": "8.0"`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %s", want)
		}
	}
	var again bytes.Buffer
	Write(&again, sample(2, 2), GitHub)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("the same log gave different bytes")
	}
}

// TestSchemaRefuses: the validator does refuse what is not SARIF, so
// that the tests passing means something.
func TestSchemaRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"bad level":      `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"level":"fatal","message":{"text":"x"}}]}]}`,
		"no version":     `{"runs":[]}`,
		"no tool":        `{"version":"2.1.0","runs":[{"results":[]}]}`,
		"bad start line": `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"message":{"text":"x"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`,
	} {
		if validate(t, []byte(doc)) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLimitsCutWithANote(t *testing.T) {
	log := sample(7, 5)
	var buf bytes.Buffer
	if err := Write(&buf, log, Limits{Results: 5, Locations: 1, ThreadFlowLocations: 3}); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs[0].Results) != 7 || len(log.Runs[0].Results[0].Locations) != 2 {
		t.Fatal("Write changed its argument")
	}
	if err := validate(t, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	var got Log
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	r := got.Runs[0]
	if len(r.Results) != 5 {
		t.Errorf("%d results, want 5", len(r.Results))
	}
	for _, res := range r.Results {
		if len(res.Locations) != 1 || len(res.CodeFlows[0].ThreadFlows[0].Locations) != 3 {
			t.Errorf("%s: %d locations, %d flow locations; want 1 and 3", res.Message.Text, len(res.Locations), len(res.CodeFlows[0].ThreadFlows[0].Locations))
		}
	}
	var notes []string
	for _, n := range r.Invocations[0].ToolExecutionNotifications {
		notes = append(notes, n.Message.Text)
	}
	want := []string{
		"2 of 7 results were left out (at most 5 per run); tenet's text or JSON output lists them all",
		"the locations of 5 results were cut to 1 each",
		"5 code flows were cut to their first 3 locations",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

func TestBytesLimitDropsResults(t *testing.T) {
	var full bytes.Buffer
	Write(&full, sample(100, 0), Limits{})
	max := full.Len() / 3
	var buf bytes.Buffer
	if err := Write(&buf, sample(100, 0), Limits{Bytes: max}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > max {
		t.Fatalf("%d bytes, over %d", buf.Len(), max)
	}
	if err := validate(t, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	var got Log
	json.Unmarshal(buf.Bytes(), &got)
	// 100 results: halved to 50 (over a third), then 25.
	if n := len(got.Runs[0].Results); n != 25 {
		t.Errorf("%d results kept, want 25", n)
	}
	if note := got.Runs[0].Invocations[0].ToolExecutionNotifications[0].Message.Text; note != fmt.Sprintf("75 of 100 results were left out (only the first 25: the log would be larger than %d bytes with more); tenet's text or JSON output lists them all", max) {
		t.Errorf("note %q", note)
	}
	if err := Write(&buf, sample(1, 0), Limits{Bytes: 10}); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes even without results") {
		t.Errorf("a limit no log meets: %v", err)
	}
}

func TestURI(t *testing.T) {
	for in, want := range map[string]string{
		"examples/quickstart/contract.tenet.hcl": "examples/quickstart/contract.tenet.hcl",
		"./a/../b.hcl":                           "b.hcl",
		"my dir/a%b.hcl":                         "my%20dir/a%25b.hcl",
		"a:b/c.hcl":                              "./a:b/c.hcl", // not a scheme
	} {
		if got := URI(in); got != want {
			t.Errorf("URI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBothResultLimitsOneNote: a run cut to Limits.Results and then to
// fit Limits.Bytes has one note, of the results left out in all (6,000
// results, 5,000 at most, 2,500 kept: 3,500 left out).
func TestBothResultLimitsOneNote(t *testing.T) {
	var five bytes.Buffer
	if err := Write(&five, sample(6000, 0), Limits{Results: 5000}); err != nil {
		t.Fatal(err)
	}
	max := five.Len() * 2 / 3
	var buf bytes.Buffer
	if err := Write(&buf, sample(6000, 0), Limits{Results: 5000, Bytes: max}); err != nil {
		t.Fatal(err)
	}
	var got Log
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if n := len(got.Runs[0].Results); n != 2500 {
		t.Errorf("%d results kept, want 2500", n)
	}
	var notes []string
	for _, n := range got.Runs[0].Invocations[0].ToolExecutionNotifications {
		notes = append(notes, n.Message.Text)
	}
	want := fmt.Sprintf("3500 of 6000 results were left out (only the first 2500: the log would be larger than %d bytes with more); tenet's text or JSON output lists them all", max)
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want [%q]", notes, want)
	}
}
