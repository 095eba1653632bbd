package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
)

// TestAuditSeedFixtures checks every audit outcome on examples/seed-fixtures
// and that no decision changes the grant.
func TestAuditSeedFixtures(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "seed-fixtures")
	// compiler.BuildDir directly: internal/evaltest imports eval, which
	// imports this package.
	built, diags := compiler.BuildDir(dir, compiler.Options{Formats: transcript.Formats()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Through the bundle's bytes, as eval reads it.
	b, _, err := bundle.Decode(built.Data)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*bundle.Tool{}
	for i := range b.Decls.Tools {
		tools[b.Decls.Tools[i].Name] = &b.Decls.Tools[i]
	}
	var g *bundle.Grant
	for i := range b.Decls.Grants {
		if b.Decls.Grants[i].Name == "host" {
			g = &b.Decls.Grants[i]
		}
	}
	if g == nil {
		t.Fatal("no grant host")
	}
	f, err := os.Open(filepath.Join(dir, "transcripts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, _ := transcript.Open("openai-messages", "transcripts.jsonl", f, transcript.Options{})
	r, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	before := *g
	before.Allows = append([]bundle.Allow(nil), g.Allows...)
	for i := range before.Allows {
		before.Allows[i].Resources = append([]string(nil), g.Allows[i].Resources...)
	}
	var got []string
	for _, e := range Calls(r, g, tools) {
		got = append(got, fmt.Sprintf("call:%d %s %s: %s (parent %d, hazard %t)", e.Call, e.Tool, e.Decision, e.Detail, e.Parent, e.Hazard))
		if !reflect.DeepEqual(*g, before) {
			t.Fatalf("the grant changed after deciding call %d: %+v", e.Call, *g)
		}
	}
	want := []string{
		"call:0 read_fixture authorized:  (parent -1, hazard false)",
		`call:1 update_fixture missing_resource_capability: grant "host" does not allow (update, F1) (parent -1, hazard false)`,
		`call:2 read_fixture missing_resource_capability: grant "host" does not allow (read, F2) (parent -1, hazard false)`,
		`call:3 delete_fixture unregistered_tool: tool "delete_fixture" is not declared (parent -1, hazard false)`,
		"call:4 update_fixture schema_fields: missing value (parent -1, hazard false)",
		`call:5 update_fixture schema_types: argument value is the string "43", declared int (parent -1, hazard false)`,
		`call:7 read_fixture missing_resource_capability: grant "host" does not allow (read, F2) (parent 6, hazard true)`,
		"call:6 update_fixture schema_types: argument note is a nested call object, declared string (parent -1, hazard false)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("audit:\n%s\nwant:\n%s", join(got), join(want))
	}
	for _, d := range runs.Decisions {
		found := false
		for _, s := range got {
			found = found || strings.Contains(s, " "+d+":")
		}
		if !found {
			t.Errorf("no call ends %s", d)
		}
	}
}

func join(ss []string) string { return "  " + strings.Join(ss, "\n  ") + "\n" }
