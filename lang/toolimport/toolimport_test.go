package toolimport

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/lang"
)

func TestMCPExact(t *testing.T) {
	in := `{"tools":[{"name":"read_file","description":"Read a file","inputSchema":{"type":"object",
		"properties":{"path":{"type":"string"},"opts":{"type":"object","properties":{"lines":{"type":"array","items":{"type":"integer"}}},"required":["lines"]},
		"tags":{"type":"object","additionalProperties":{"type":"boolean"}},"n":{"type":["number","null"]}},"required":["path","n"]},
		"annotations":{"readOnlyHint":true}}]}`
	res, err := Import("mcp", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `# Imported by tenet import mcp: 1 tool definitions.

# mcp "read_file" (/tools/0)
# operation read: readOnlyHint true
# warning: /tools/0/inputSchema/properties/n: required but may be null: optional (null counts as absent)
tool "read_file" {
  description = "Read a file"
  operation   = "read"
  params = {
    n = optional(double)
    opts = optional(object({
      lines = list(int)
    }))
    path = string
    tags = optional(map(bool))
  }
}
`
	if got := string(res.Text); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Pointer != "/tools/0/inputSchema/properties/n" {
		t.Errorf("warnings %v", res.Warnings)
	}
	if _, diags := lang.ParseFiles(".", map[string][]byte{"x.tenet.hcl": res.Text, "c.tenet.hcl": []byte("contract \"c\" {\n  version = \"1\"\n}\n")}); diags.HasErrors() {
		t.Errorf("output does not parse: %s", diags.Error())
	}
}

// One case per mapping rule: the params line (or tool header) expected and
// the warnings' pointers and a part of their message.
func TestSchemaMapping(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
		warn               []string // "pointer|part of message"
	}{
		{"enum", `{"type":"string","enum":["a","b"]}`, "x = string", []string{`/p/properties/x/enum|enum ["a","b"]`}},
		{"format", `{"type":"string","format":"email"}`, "x = string", []string{`/p/properties/x/format|format "email" not expressed`}},
		{"number", `{"type":"number","description":"d","title":"t","default":1}`, "x = double", nil},
		{"untyped", `{}`, "x = any", nil},
		{"list any", `{"type":"array"}`, "x = list(any)", nil},
		{"tuple", `{"type":"array","items":[{"type":"string"}]}`, "x = list(any)", []string{"/p/properties/x/items|tuple"}},
		{"nullable anyOf", `{"anyOf":[{"type":"integer"},{"type":"null"}]}`, "x = optional(int)", []string{"/p/properties/x|required but may be null"}},
		{"anyOf mixed", `{"anyOf":[{"type":"integer"},{"type":"string","format":"uuid"}]}`, "x = any", []string{"/p/properties/x/anyOf|2 alternatives of different types"}},
		{"two types", `{"type":["integer","string"]}`, "x = any", []string{"/p/properties/x/type|one of the types"}},
		{"ref", `{"$ref":"#/$defs/id"}`, "x = int", nil},
		{"ref remote", `{"$ref":"https://example.com/s.json"}`, "x = any", []string{"/p/properties/x/$ref|outside this schema"}},
		{"ref missing", `{"$ref":"#/$defs/nope"}`, "x = any", []string{"/p/properties/x/$ref|does not resolve"}},
		{"ref loop", `{"$ref":"#/$defs/loop"}`, "x = any", []string{"/p/$defs/loop/$ref|refers to itself"}},
		{"patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string"}}}`, "x = map(any)", []string{"/p/properties/x/patternProperties|not expressed"}},
		{"empty object", `{"type":"object","properties":{}}`, "x = object({})", nil},
		{"nested bad name", `{"type":"object","properties":{"a-b":{"type":"string"},"ok":{"type":"string"}},"required":["ok"]}`, "ok = string", []string{`/p/properties/x/properties/a-b|"a-b" is not a tenet identifier`}},
		{"pointer escape", `{"type":"object","properties":{"a/b~":{"type":"string"}}}`, "x = object({})", []string{`/p/properties/x/properties/a~1b~0|not a tenet identifier`}},
		{"false", `false`, "x = any", []string{"/p/properties/x|schema false"}},
		{"enum untyped", `{"enum":["a","b"]}`, "x = string", []string{`/p/properties/x/enum|enum ["a","b"]`}},
		{"const int", `{"const":3}`, "x = int", []string{`/p/properties/x/const|const 3`}},
		{"enum numbers", `{"enum":[1,2.5]}`, "x = double", []string{`/p/properties/x/enum|enum [1,2.5]`}},
		{"enum mixed", `{"enum":["a",1]}`, "x = any", []string{`/p/properties/x/enum|enum ["a",1]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &converter{tool: "t"}
			schema := decode(t, `{"type":"object","$defs":{"id":{"type":"integer"},"loop":{"$ref":"#/$defs/loop"}},"properties":{"x":`+tc.schema+`},"required":["x"]}`)
			got := c.params(schema, "/p")
			if !strings.Contains(got, "\n"+tc.want+"\n") {
				t.Errorf("params\n%s\nwant a line %q", got, tc.want)
			}
			if len(c.warnings) != len(tc.warn) {
				t.Fatalf("warnings %v, want %v", c.warnings, tc.warn)
			}
			for i, w := range tc.warn {
				ptr, msg, _ := strings.Cut(w, "|")
				if c.warnings[i].Pointer != ptr || !strings.Contains(c.warnings[i].Message, msg) {
					t.Errorf("warning %d = %s %q, want %s %q", i, c.warnings[i].Pointer, c.warnings[i].Message, ptr, msg)
				}
			}
		})
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := jsonUnmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOperations(t *testing.T) {
	for _, tc := range []struct{ ann, op, note string }{
		{`{"readOnlyHint":true}`, "read", "readOnlyHint true"},
		{`{"readOnlyHint":true,"destructiveHint":true}`, "read", "is ignored"},
		{`{"destructiveHint":true}`, "update", "destructiveHint true"},
		{`{"readOnlyHint":false}`, "update", "readOnlyHint false"},
		{`{}`, "update", "no readOnlyHint"},
	} {
		res, err := Import("mcp", []byte(`[{"name":"t","inputSchema":{"type":"object"},"annotations":`+tc.ann+`}]`))
		if err != nil {
			t.Fatal(err)
		}
		s := string(res.Text)
		if !strings.Contains(s, `operation = "`+tc.op+`"`) || !strings.Contains(s, tc.note) {
			t.Errorf("annotations %s:\n%s", tc.ann, s)
		}
	}
}

func TestShapes(t *testing.T) {
	for _, tc := range []struct{ source, in, want string }{
		{"openai", `[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}]`, "a = string"},
		{"openai", `{"tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}`, "a = string"},
		{"anthropic", `{"tools":[{"name":"f","input_schema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}`, "a = string"},
		{"mcp", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"f","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}]}}`, "a = string"},
	} {
		res, err := Import(tc.source, []byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.source, err)
		}
		if !strings.Contains(string(res.Text), "tool \"f\" {") || !strings.Contains(string(res.Text), tc.want) || len(res.Warnings) != 0 {
			t.Errorf("%s %s:\n%s%v", tc.source, tc.in, res.Text, res.Warnings)
		}
	}
}

func TestNames(t *testing.T) {
	res, err := Import("anthropic", []byte(`[{"name":"get-x","input_schema":{"type":"object"}},{"name":"get_x","input_schema":{"type":"object"}},{"name":"if","input_schema":{"type":"object"}},{"name":"9lives\u0007","input_schema":{"type":"object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`tool "get_x" {`, `tool "get_x_2" {`, `tool "if_" {`, `tool "_9lives_" {`, "a second tool of this name: written as get_x_2", "reserved by CEL: written as if_"} {
		if !strings.Contains(string(res.Text), want) {
			t.Errorf("no %q in\n%s", want, res.Text)
		}
	}
	if strings.ContainsRune(string(res.Text), '\a') {
		t.Errorf("a control character reached the output")
	}
	if len(res.Warnings) != 4 {
		t.Errorf("warnings %v", res.Warnings)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ source, in, want string }{
		{"mcp", `{"tools":`, "not JSON"},
		{"mcp", `{"tools":[]} {}`, "not one JSON value"},
		{"mcp", `{"resources":[]}`, "not mcp tool definitions"},
		{"openai", `[{"type":"web_search"}]`, "no openai tool definitions"},
		{"gemini", `[]`, `unknown source "gemini"`},
	} {
		_, err := Import(tc.source, []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: error %v, want %q", tc.source, tc.in, err, tc.want)
		}
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat(`{"type":"array","items":`, MaxDepth+5) + `{"type":"string"}` + strings.Repeat(`}`, MaxDepth+5)
	res, err := Import("anthropic", []byte(`[{"name":"d","input_schema":{"type":"object","properties":{"x":`+deep+`}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "nested more than 24 levels") {
		t.Errorf("warnings %v", res.Warnings)
	}
	// A $ref graph that doubles at each level: 2^30 schemas if expanded.
	defs := `"d0":{"type":"string"}`
	for i := 1; i <= 30; i++ {
		defs += `,"d` + itoa(i) + `":{"type":"object","properties":{"a":{"$ref":"#/$defs/d` + itoa(i-1) + `"},"b":{"$ref":"#/$defs/d` + itoa(i-1) + `"}}}`
	}
	res, err = Import("anthropic", []byte(`[{"name":"w","input_schema":{"type":"object","$defs":{`+defs+`},"properties":{"x":{"$ref":"#/$defs/d30"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "more than 2000 schemas") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one node-limit warning, got %d of %d", n, len(res.Warnings))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func jsonUnmarshal(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func TestNextCursor(t *testing.T) {
	res, err := Import("mcp", []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Imported by tenet import mcp: 1 tool definitions.\n# warning: /result/nextCursor: more tools on further pages of tools/list (nextCursor): not in this file\n"
	if !strings.HasPrefix(string(res.Text), want) || len(res.Warnings) != 1 {
		t.Errorf("got\n%s%v", res.Text, res.Warnings)
	}
}

// TestHeaderCountsImported: the file's header counts the blocks written,
// not the entries read (review 15: "2 tool definitions" over one tool and
// one built-in tool passed over).
func TestHeaderCountsImported(t *testing.T) {
	in := `{"model":"gpt-4o","tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},{"type":"web_search_preview"}]}`
	res, err := Import("openai", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(res.Text), "\n")
	if want := "# Imported by tenet import openai: 1 of 2 tool definitions (1 not imported: see the warnings)."; head != want || res.Tools != 1 {
		t.Errorf("header %q, %d tools; want %q, 1", head, res.Tools, want)
	}
}
