package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestUnselected: the line every text format prints for a collection's
// records no contract selected (with the count of those not named), none
// for one contract or none unselected, and the JSON member, valid against
// docs/report-schema.json, absent when the Document has none (report,
// compare, test).
func TestUnselected(t *testing.T) {
	two := []Contract{{Name: "bank"}, {Name: "mail"}}
	u := &Unselected{Records: 12, First: []UnselectedAt{{"t.jsonl", 3}, {"t\n.jsonl", 4}}}
	d := &Document{Command: CommandEval, Contracts: two, Unselected: u}
	want := `12 records selected by no contract (each counts them as not selected by the source): t.jsonl:3, "t\n.jsonl:4", … and 10 more`
	if got := UnselectedLine(d); got != want {
		t.Errorf("UnselectedLine =\n%s\nwant\n%s", got, want)
	}
	for _, d := range []*Document{
		{Command: CommandEval, Contracts: two[:1], Unselected: u},
		{Command: CommandEval, Contracts: two, Unselected: &Unselected{}},
		{Command: CommandEval, Contracts: two},
	} {
		if got := UnselectedLine(d); got != "" {
			t.Errorf("UnselectedLine = %q, want none", got)
		}
	}

	out := writeJSON(t, d)
	if err := reportSchema(t).Validate(decodeJSON(t, out)); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got struct {
		Unselected json.RawMessage `json:"unselected"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"records":12,"first":[{"file":"t.jsonl","line":3},{"file":"t\n.jsonl","line":4}]}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, got.Unselected); err != nil || compact.String() != wantJSON {
		t.Errorf("unselected = %s (%v), want %s", compact.String(), err, wantJSON)
	}
	if out := writeJSON(t, &Document{Command: CommandReport}); bytes.Contains(out, []byte(`"unselected"`)) {
		t.Errorf("a report without Unselected has the member:\n%s", out)
	}
}
