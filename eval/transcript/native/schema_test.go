package native

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schema compiles docs/tenet-run.schema.json.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile("../../../docs/tenet-run.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validates(t *testing.T, sch *jsonschema.Schema, rec string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("%s: %v", rec, err)
	}
	return sch.Validate(v)
}

// The samples and the canonical conversation are valid under the schema
// and read by the reader.
func TestSchemaAcceptsSamples(t *testing.T) {
	sch := schema(t)
	n := 0
	for _, file := range []string{"testdata/samples.jsonl", "../../../examples/formats/tenet/transcript.jsonl"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			n++
			if err := validates(t, sch, sc.Text()); err != nil {
				t.Errorf("%s: schema refuses a sample: %v", file, err)
			}
			decode(t, sc.Text())
		}
	}
	if n != 4 {
		t.Errorf("%d samples, want 4", n)
	}
}

// The schema refuses what the reader refuses, except what a schema cannot
// say (listed by the reader's message): the reader and the schema never
// disagree silently.
func TestSchemaRefusesWhatTheReaderRefuses(t *testing.T) {
	sch := schema(t)
	beyond := []string{
		"call ids are unique in a run",          // uniqueness across the run
		"is not the id of a call requested",     // references
		"already has its result",                // one result per call
		"tool_use object without a string name", // a call nested in args
		`key "functionCall" names a call`,       // call shapes inside blocks
		"duplicate object member name",          // JSON text, not a value
	}
	for _, tc := range refusedCases {
		if anyOf(beyond, func(s string) bool { return strings.Contains(tc.want, s) }) {
			continue
		}
		if strings.HasPrefix(tc.rec, "[") {
			continue
		}
		if err := validates(t, sch, tc.rec); err == nil {
			t.Errorf("the schema accepts a record the reader refuses (%s): %s", tc.want, tc.rec)
		}
	}
}

func anyOf(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}
