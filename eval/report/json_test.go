package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tenetlang/tenet/eval/metrics"
)

// reportSchema compiles docs/report-schema.json.
func reportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile("../../docs/report-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// writeJSON renders d through the "json" row of eval/report/formats
// (jsonreport.Write), which formats_test.go adds to TestFormats: this
// package's internal tests cannot import the renderer, which imports it.
func writeJSON(t *testing.T, d *Document) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := testWrite(&b, d, "json"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// decodeJSON parses JSON into the generic form the validator and the value
// checks read (numbers as json.Number).
func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestJSONMatchesSchema validates every fixture against the schema, and
// checks the output is deterministic, indented and ends with a newline.
func TestJSONMatchesSchema(t *testing.T) {
	sch := reportSchema(t)
	for _, f := range testDocuments(t) {
		t.Run(f.name, func(t *testing.T) {
			out := writeJSON(t, f.doc)
			if err := sch.Validate(decodeJSON(t, out)); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if again := writeJSON(t, f.doc); !bytes.Equal(out, again) {
				t.Error("two renderings of the same Document differ")
			}
			if !bytes.HasPrefix(out, []byte("{\n  \"schema\": \"https://tenetlang.dev/schemas/report/v4.json\",\n  \"schema_version\": 4,\n")) || !bytes.HasSuffix(out, []byte("}\n")) {
				t.Errorf("unexpected framing:\n%s", out)
			}
		})
	}
}

// TestJSONShardMatchesSchema validates a shard's report (tenet eval --shard
// 2/3): the "shard" member and a shard's observed cases.
func TestJSONShardMatchesSchema(t *testing.T) {
	d := evalDocument(t)
	d.Shard = &Shard{Index: 2, Count: 3}
	out := writeJSON(t, d)
	if !bytes.Contains(out, []byte("\"shard\": {")) {
		t.Fatalf("no shard member:\n%s", out)
	}
	if err := reportSchema(t).Validate(decodeJSON(t, out)); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestJSONAgentDojoGoldenMatchesSchema validates the JSON report of the
// AgentDojo banking evaluation that cmd/tenet's TestAgentDojoBankingReports
// proves is tenet eval's output. The check lives here, not there, so that
// the validator's start-up work is not paid by every tenet process
// cmd/tenet's script tests start.
func TestJSONAgentDojoGoldenMatchesSchema(t *testing.T) {
	golden := filepath.Join("..", "..", "cmd", "tenet", "testdata", "agentdojo-banking.json")
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if err := reportSchema(t).Validate(decodeJSON(t, data)); err != nil {
		t.Errorf("%s does not follow docs/report-schema.json: %v", golden, err)
	}
}

// TestJSONSchemaCatchesDrift checks the schema refuses a member it does not
// describe and a missing one, at the top and deep inside.
func TestJSONSchemaCatchesDrift(t *testing.T) {
	sch := reportSchema(t)
	out := writeJSON(t, evalDocument(t))
	for name, edit := range map[string]func(m map[string]any){
		"extra top-level member": func(m map[string]any) { m["extra"] = 1 },
		"missing member":         func(m map[string]any) { delete(m, "gates") },
		"null list":              func(m map[string]any) { m["violations"] = nil },
		"extra rate member": func(m map[string]any) {
			m["conditions"].([]any)[0].(map[string]any)["benign_utility"].(map[string]any)["ratio"] = 1
		},
		"metrics beside errors": func(m map[string]any) {
			m["conditions"].([]any)[0].(map[string]any)["errors"] = []any{"boom"}
		},
		"extra run key member": func(m map[string]any) {
			m["violations"].([]any)[0].(map[string]any)["run"].(map[string]any)["id"] = "x"
		},
	} {
		v := decodeJSON(t, out).(map[string]any)
		edit(v)
		if err := sch.Validate(v); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

// jsonAt walks a decoded document: a string is a member, an int an index.
func jsonAt(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, p)
			}
			if v, ok = m[p]; !ok {
				t.Fatalf("%v: no member %q", path, p)
			}
		case int:
			l, ok := v.([]any)
			if !ok || p >= len(l) {
				t.Fatalf("%v: no index %d", path, p)
			}
			v = l[p]
		}
	}
	return v
}

// compactJSON re-encodes a decoded value on one line.
func compactJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJSONValues(t *testing.T) {
	for _, c := range []struct {
		doc  string
		path []any
		want string
	}{
		{"eval", []any{"exit_code"}, `1`},
		{"eval", []any{"contracts", 0, "skipped", 0}, `{"count":3,"ids":[{"count":1,"id":"T8"},{"count":2,"id":"T9"}],"more_ids":0,"reason":"task not in contract"}`},
		{"eval", []any{"conditions", 1, "targeted_asr"}, `{"bootstrap":null,"bounds":null,"den":2,"num":1,"value":0.5,"wilson":{"high":0.9054687942657693,"low":0.09453120573423074}}`},
		{"eval", []any{"conditions", 1, "conditional_asr_exposed"}, `{"bootstrap":null,"bounds":null,"den":null,"num":null,"value":null,"wilson":null}`},
		{"eval", []any{"conditions", 1, "joint"}, `{"attack_only":1,"both":0,"neither":0,"utility_only":1}`},
		{"eval", []any{"conditions", 1, "exposed_cases"}, `null`},
		{"eval", []any{"conditions", 0, "attempt_budget"}, `null`},
		{"eval", []any{"agreement", 1, "benign_utility", "disagreements"}, `[{"given":false,"origin":{"file":"traces.jsonl","line":5},"ours":true,"run":{"attempt":1,"condition":"b","contract":"checks","goal":null,"repetition":1,"task":"T1"}}]`},
		{"eval", []any{"checks", 1, "invariants", 0, "unknown_runs", 0, "reason"}, `"criterion error: no output"`},
		{"eval", []any{"violations"}, `[{"invariant":"answered","origin":{"file":"traces.jsonl","line":7},"run":{"attempt":1,"condition":"b","contract":"checks","goal":"G1","repetition":1,"task":"T1"},"witness":[{"item":"call:0","step":"read","tool":"read_file"},{"item":"call:1","step":"send","tool":"send_email"}]}]`},
		{"eval", []any{"audit", 1, "decisions"}, `{"authorized":4,"missing_resource_capability":1,"schema_fields":0,"schema_types":0,"unregistered_tool":0}`},
		{"eval", []any{"gates", 3, "passed"}, `false`},
		{"eval", []any{"gates", 3, "range", "file"}, `"main.tenet.hcl"`},
		{"eval", []any{"comparison"}, `null`},
		{"eval", []any{"tests"}, `[]`},
		{"bounds", []any{"conditions", 0, "bounded"}, `true`},
		{"bounds", []any{"conditions", 0, "benign_utility", "num"}, `null`},
		{"bounds", []any{"conditions", 0, "benign_utility", "bounds"}, `{"high":{"den":4,"num":4,"value":1},"low":{"den":4,"num":3,"value":0.75},"maybe_null":false,"unknown":1}`},
		{"bounds", []any{"conditions", 0, "utility_under_attack", "bounds"}, `{"high":{"den":4,"num":2,"value":0.5},"low":{"den":4,"num":2,"value":0.5},"maybe_null":false,"unknown":0}`},
		{"bounds", []any{"conditions", 0, "utility_under_attack", "value"}, `0.5`},
		{"bounds", []any{"conditions", 0, "count_bounds", "benign_solved_cases"}, `{"high":4,"low":3,"unknown":1}`},
		{"bounds", []any{"conditions", 0, "benign_solved_cases"}, `null`},
		{"bounds", []any{"conditions", 1, "benign_utility", "num"}, `2.5`},
		{"bounds", []any{"conditions", 1, "bootstrap_resamples"}, `200`},
		{"bounds", []any{"conditions", 1, "bootstrap_seed"}, `7`},
		{"bounds", []any{"leaderboard", 0, "contracts"}, `["c1","c2"]`},
		{"bounds", []any{"leaderboard", 0, "benign_utility"}, `{"bounds":{"high":{"den":8,"num":6.5,"value":0.8125},"low":{"den":8,"num":5.5,"value":0.6875}},"den":null,"num":null,"value":null}`},
		{"compare", []any{"comparison", "transitions", 0}, `{"defended_rate":{"den":4,"num":4,"value":1},"gain_rate":{"den":4,"num":1,"value":0.25},"gained":1,"gained_ids":["T4"],"kept_failure":0,"kept_success":3,"loss_rate":{"den":4,"num":0,"value":0},"lost":0,"lost_ids":[],"more_gained_ids":0,"more_lost_ids":0,"n":4,"name":"benign_utility","net_effect":{"den":4,"num":1,"value":0.25},"over":"tasks","p_value":1,"reference_rate":{"den":4,"num":3,"value":0.75}}`},
		{"compare", []any{"comparison", "transitions", 2, "lost_ids"}, `["T2/G1"]`},
		{"compare", []any{"conditions"}, `[]`},
		{"test", []any{"tests", 1}, `{"contract":"checks","name":"wrong expectations fail","origin":{"file":"tests/runs.jsonl","line":3},"passed":false,"problems":["utility: want true, got false","violations: want [answered], got []"]}`},
		{"test", []any{"exit_code"}, `1`},
		{"errors", []any{"exit_code"}, `2`},
		{"errors", []any{"errors"}, `["metrics: 1 of 2 conditions have errors (1 with a rate over an unknown label: --unknown=bounds bounds it): a|b\u003cscript\u003e"]`},
		{"errors", []any{"conditions", 0, "benign_tasks"}, `null`},
		{"errors", []any{"conditions", 0, "errors"}, `["run a|b\u003cscript\u003e/T2: label utility is unknown: criterion error: \u001b[31mred� | ` + "`x`" + ` \u003cb\u003e"]`},
		{"empty", []any{"errors"}, `["metrics: no runs"]`},
		{"empty", []any{"conditions"}, `[]`},
	} {
		var d *Document
		for _, f := range testDocuments(t) {
			if f.name == c.doc {
				d = f.doc
			}
		}
		var v any
		if err := json.Unmarshal(writeJSON(t, d), &v); err != nil {
			t.Fatal(err)
		}
		if got := compactJSON(t, jsonAt(t, v, c.path...)); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.doc, c.path, got, c.want)
		}
	}
	// Failures and errors are the Document's, in order.
	for _, f := range testDocuments(t) {
		var v any
		if err := json.Unmarshal(writeJSON(t, f.doc), &v); err != nil {
			t.Fatal(err)
		}
		for _, l := range []struct {
			name string
			want []string
		}{{"failures", f.doc.Failures}, {"errors", f.doc.Errors}} {
			want := compactJSON(t, append([]string{}, l.want...)) // [] when none, as the JSON
			if got := compactJSON(t, jsonAt(t, v, l.name)); got != want {
				t.Errorf("%s %s: got %s, want %s", f.name, l.name, got, want)
			}
		}
	}
}

// TestJSONNonFinite checks a NaN or infinite number is written as null
// instead of failing.
func TestJSONNonFinite(t *testing.T) {
	d := BuildComparison("0.9.0", nil, 0, &metrics.Comparison{Transitions: []metrics.Transition{{
		Name: "benign_utility", Over: "tasks", PValue: math.NaN(), NetEffect: metrics.Rate{Num: math.Inf(1), Den: 1},
	}}}, 0)
	out := string(writeJSON(t, d))
	for _, want := range []string{`"p_value": null`, `"net_effect": {
          "num": null,
          "den": 1,
          "value": null
        }`, `"reference_rate": {
          "num": 0,
          "den": 0,
          "value": null
        }`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}

func TestJSONGolden(t *testing.T) {
	for _, f := range testDocuments(t) {
		if f.name == "compare" || f.name == "test" || f.name == "errors" {
			golden(t, f.name+".json.golden", string(writeJSON(t, f.doc)))
		}
	}
}
