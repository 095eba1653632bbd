package runs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/lang"
)

// maxLabelSpellers is how many non-test Go files may spell a label name:
// this file's table (labels.go), the language's attribute names
// (lang/labels.go), the bundle's cbor tags (compiler/bundle/bundle.go),
// whose text is part of the bundle's bytes, and the Parquet export's
// column names (eval/runs/parquet/row.go), part of its schema
// tenet-runs-parquet/1 (its TestLabelColumns fails when a label has no
// column there).
const maxLabelSpellers = 4

// foreignFields are files that spell a label name as another system's field,
// not as tenet's label: AgentDojo's run files have a "utility" member, which
// the agentdojo-run reader checks and keeps in meta (a source maps it to a
// given label, as for any format).
var foreignFields = map[string]bool{
	filepath.Join("eval", "transcript", "agentdojo", "decode.go"): true,
}

// tagKey matches one key:"value" pair of a struct tag.
var tagKey = regexp.MustCompile(`([A-Za-z0-9_]+):"((?:[^"\\]|\\.)*)"`)

// labelSpellers returns, for each non-test .go file under root (testdata
// and hidden directories left out), the label names it spells as a string
// literal or as the name in a struct tag ("json:\"utility,omitempty\""),
// sorted by file.
func labelSpellers(t *testing.T, root string) map[string][]string {
	t.Helper()
	want := map[string]bool{}
	for _, n := range LabelNames() {
		want[string(n)] = true
	}
	found := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			var lits []string
			switch n := n.(type) {
			case *ast.Field:
				if n.Tag != nil {
					tag, err := strconv.Unquote(n.Tag.Value)
					if err == nil {
						for _, m := range tagKey.FindAllStringSubmatch(tag, -1) {
							lits = append(lits, strings.Split(m[2], ",")[0])
						}
					}
					// The tag is a BasicLit too; its text is no label name.
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						lits = append(lits, s)
					}
				}
			}
			for _, s := range lits {
				if want[s] && !slices.Contains(found[rel], s) {
					found[rel] = append(found[rel], s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestLabelNamesHaveOneOwner: the label names are spelled in at most
// maxLabelSpellers non-test files of the repository; everything else uses
// this table's constants (or lang's, below eval), so that renaming or
// adding a label is a change of the table, not a hunt through the tree.
func TestLabelNamesHaveOneOwner(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	found := labelSpellers(t, root)
	for f := range foreignFields {
		if _, ok := found[f]; !ok {
			t.Errorf("%s is listed in foreignFields but spells no label name: remove it", f)
		}
		delete(found, f)
	}
	files := slices.Sorted(func(yield func(string) bool) {
		for f := range found {
			if !yield(f) {
				return
			}
		}
	})
	if len(files) > maxLabelSpellers {
		var b strings.Builder
		for _, f := range files {
			b.WriteString("\n\t" + f + ": " + strings.Join(found[f], ", "))
		}
		t.Errorf("label names are spelled in %d non-test files, want at most %d:%s", len(files), maxLabelSpellers, b.String())
	}
}

// TestLabelSpellersFindsTagsAndLiterals: the scan sees a literal and the
// name of a struct tag, and not a comment, a longer string or a tag's
// option.
func TestLabelSpellersFindsTagsAndLiterals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package p\n// \"utility\"\nvar x = \"utility\"\n")
	write("b.go", "package p\ntype T struct{ A int `json:\"attack_success,omitempty\" cbor:\"exposed\"` }\n")
	write("c.go", "package p\nvar y = \"side_effect \" + \"benign_utility\"\ntype U struct{ B int `json:\"b,utility\"` }\n")
	write("d_test.go", "package p\nvar z = \"utility\"\n")
	got := labelSpellers(t, dir)
	want := map[string][]string{"a.go": {"utility"}, "b.go": {"attack_success", "exposed"}}
	if len(got) != len(want) || !slices.Equal(got["a.go"], want["a.go"]) || !slices.Equal(got["b.go"], want["b.go"]) {
		t.Errorf("labelSpellers = %v, want %v", got, want)
	}
}

// TestLangLabelNames: the language's label names (lang sits below eval and
// keeps its own copy) are this table's, in the same order, and a test's
// expect keys begin with them.
func TestLangLabelNames(t *testing.T) {
	var ours []string
	for _, n := range LabelNames() {
		ours = append(ours, n.String())
	}
	if got := lang.LabelNames(); !slices.Equal(got, ours) {
		t.Errorf("lang.LabelNames() = %q, runs.LabelNames() = %q", got, ours)
	}
	if got := lang.ExpectLabels[:len(ours)]; !slices.Equal(got, ours) {
		t.Errorf("lang.ExpectLabels begins %q, want %q", got, ours)
	}
}
