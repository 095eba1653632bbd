package toolimport

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/lang"
)

// FuzzImport: any input gives an error or a contract file that parses
// (with a contract block beside it), warnings whose pointers start with
// "/", and the same bytes when imported twice.
func FuzzImport(f *testing.F) {
	f.Add("mcp", `{"tools":[{"name":"a-b","inputSchema":{"type":"object","properties":{"x":{"$ref":"#"},"y":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["x"]},"annotations":{"readOnlyHint":true}}]}`)
	f.Add("openai", `[{"type":"function","function":{"name":"f","description":"${x}\u0000","parameters":{"type":"object","properties":{"l":{"type":"array","items":{"enum":[1,2]}}}}}}]`)
	f.Add("anthropic", `{"tools":[{"name":"if","input_schema":{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}}}}}]}`)
	f.Fuzz(func(t *testing.T, source, in string) {
		res, err := Import(source, []byte(in))
		if err != nil {
			return
		}
		files := map[string][]byte{"t.tenet.hcl": res.Text, "c.tenet.hcl": []byte("contract \"c\" {\n  version = \"1\"\n}\n")}
		if _, diags := lang.ParseFiles(".", files); diags.HasErrors() {
			t.Fatalf("output does not parse: %s\n%s", diags.Error(), res.Text)
		}
		for _, w := range res.Warnings {
			if w.Pointer != "" && !strings.HasPrefix(w.Pointer, "/") {
				t.Fatalf("pointer %q", w.Pointer)
			}
		}
		again, _ := Import(source, []byte(in))
		if string(again.Text) != string(res.Text) {
			t.Fatalf("not deterministic")
		}
	})
}
