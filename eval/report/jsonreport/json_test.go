package jsonreport

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestSchemaIDMatchesSchema: SchemaID is the "$id" of
// docs/report-schema.json, and every document Write gives names it and
// SchemaVersion as its first two members. (The values of every member
// are checked against the schema by eval/report's json_test.go, which
// renders its fixtures through eval/report/formats.)
func TestSchemaIDMatchesSchema(t *testing.T) {
	data, err := os.ReadFile("../../../docs/report-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.ID != SchemaID {
		t.Errorf("docs/report-schema.json has $id %q, SchemaID is %q", schema.ID, SchemaID)
	}
	var b bytes.Buffer
	if err := Write(&b, &report.Document{Command: "eval"}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"schema\": \"https://tenetlang.dev/schemas/report/v4.json\",\n  \"schema_version\": 4,\n"
	if !strings.HasPrefix(b.String(), want) || SchemaVersion != 4 {
		t.Errorf("got %.120q…, SchemaVersion %d; want the prefix %q", b.String(), SchemaVersion, want)
	}
}

// TestAuditMismatchesMember: an audit's "mismatches" member is present
// only when some call's result disagrees with its request, so reports
// without any keep their bytes (eval/report tests the table's column).
func TestAuditMismatchesMember(t *testing.T) {
	for _, n := range []int{0, 1} {
		c := tally.AuditCounts{Condition: "m", Grants: []string{"g"}, Calls: 2,
			Decisions: map[string]int{runs.Authorized: 2}, Hazards: 0, Mismatches: n}
		js, err := json.Marshal(jsonAudit(c))
		if err != nil {
			t.Fatal(err)
		}
		want := n == 1
		if got := strings.Contains(string(js), `"mismatches":1`); got != want || strings.Contains(string(js), "mismatches") != want {
			t.Errorf("mismatches %d: json %s", n, js)
		}
	}
}
