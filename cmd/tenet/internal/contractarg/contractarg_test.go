package contractarg

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree makes the files (path → content) under a temporary directory and
// returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestResolveKinds(t *testing.T) {
	root := tree(t, map[string]string{
		"dir/main.tenet.hcl":        "",
		"dir/old.tnb":               "", // sources win: a contract directory
		"coll/b/main.tenet.hcl":     "",
		"coll/a/main.tenet.hcl":     "",
		"coll/notes/README":         "", // a subdirectory without sources is not a contract
		"coll/x.tnb.txt":            "",
		"tnbs/z.tnb":                "",
		"tnbs/a.tnb":                "",
		"tnbs/README.md":            "",
		"one.tnb":                   "",
		"mixed/c/main.tenet.hcl":    "",
		"mixed/c.tnb":               "",
		"empty/README.md":           "",
		"coll/b/sub/main.tenet.hcl": "", // only one level is read
	})
	at := func(p string) string { return filepath.Join(root, p) }
	for _, c := range []struct {
		path  string
		kind  Kind
		paths []string
	}{
		{"dir", Dir, []string{"dir"}},
		{"coll", Collection, []string{"coll/a", "coll/b"}},
		{"tnbs", Bundles, []string{"tnbs/a.tnb", "tnbs/z.tnb"}},
		{"one.tnb", BundleFile, []string{"one.tnb"}},
	} {
		a, err := Resolve(at(c.path))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		var want []string
		for _, p := range c.paths {
			want = append(want, at(p))
		}
		if a.Kind != c.kind || !reflect.DeepEqual(a.Paths, want) || a.Path != at(c.path) {
			t.Errorf("%s: %v %v, want %v %v", c.path, a.Kind, a.Paths, c.kind, want)
		}
		if a.Several() != (c.kind == Collection || c.kind == Bundles) || a.Compiled() != (c.kind == BundleFile || c.kind == Bundles) {
			t.Errorf("%s: Several %v, Compiled %v", c.path, a.Several(), a.Compiled())
		}
	}
	if _, err := Resolve(at("mixed")); err == nil || err.Error() != at("mixed")+" holds both contract directories (c) and bundles (c.tnb): a directory of contracts holds one kind; move the bundles to a directory of their own" {
		t.Errorf("mixed: %v", err)
	}
	if _, err := Resolve(at("empty")); err == nil || err.Error() != at("empty")+" holds no *.tenet.hcl files, no contract directories and no *.tnb bundles" {
		t.Errorf("empty: %v", err)
	}
	if _, err := Resolve(at("dir/main.tenet.hcl")); err == nil || err.Error() != at("dir/main.tenet.hcl")+" is a contract source file: name its directory, "+at("dir")+", which is the contract" {
		t.Errorf("source file: %v", err)
	}
	if _, err := Resolve(at("missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
}

func TestOne(t *testing.T) {
	root := tree(t, map[string]string{
		"coll/a/main.tenet.hcl": "",
		"coll/b/main.tenet.hcl": "",
		"solo/a/main.tenet.hcl": "",
	})
	coll := filepath.Join(root, "coll")
	_, err := One(coll, "a decision is made with one contract")
	want := coll + " is a directory of contract directories holding 2 contracts (a, b): a decision is made with one contract; name one of them, e.g. " + filepath.Join(coll, "a")
	if err == nil || err.Error() != want {
		t.Errorf("One(coll) = %v, want %s", err, want)
	}
	// A directory of one contract is that contract.
	if p, err := One(filepath.Join(root, "solo"), "why"); err != nil || p != filepath.Join(root, "solo", "a") {
		t.Errorf("One(solo) = %q, %v", p, err)
	}
}

func TestListNamesThreeThenEllipsis(t *testing.T) {
	if got := list([]string{"d/a", "d/b", "d/c", "d/d", "d/e"}); got != "a, b, c, …" {
		t.Errorf("list = %q", got)
	}
}

func TestFileName(t *testing.T) {
	for name, ok := range map[string]bool{"mail": true, "agentdojo-banking": true, "a b": true, "": false, ".": false, "..": false, "a/b": false, `a\b`: false, ".hidden": false, "a\x00": false} {
		if err := fileName(name); (err == nil) != ok {
			t.Errorf("fileName(%q) = %v, want ok %v", name, err, ok)
		}
	}
}

func TestTestSelection(t *testing.T) {
	sel, err := TestSelection("")
	if sel != nil || err != nil {
		t.Errorf(`TestSelection("") = %v, %v: want nil (every test)`, sel != nil, err)
	}
	sel, err = TestSelection("^a|c$")
	if err != nil || !sel("ab") || sel("ba") || !sel("bc") {
		t.Errorf("TestSelection(^a|c$): %v", err)
	}
	if _, err := TestSelection("("); err == nil || !strings.HasPrefix(err.Error(), `--run "(": not a regular expression`) {
		t.Errorf("TestSelection((): %v", err)
	}
}
