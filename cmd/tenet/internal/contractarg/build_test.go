package contractarg

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func contract(name string) string {
	return "contract \"" + name + "\" {}\n\nthreat_model {}\n\ntask \"t\" {\n  utility = \"true\"\n}\n"
}

// A failure writing one bundle of a directory leaves none: the bundles are
// one set.
func TestBuildAllOrNone(t *testing.T) {
	root := tree(t, map[string]string{
		"suites/a/main.tenet.hcl": contract("mail"),
		"suites/b/main.tenet.hcl": contract("math"),
	})
	out := filepath.Join(root, "out")
	// math.tnb cannot be replaced: it is a non-empty directory.
	if err := os.MkdirAll(filepath.Join(out, "math.tnb", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := Build(filepath.Join(root, "suites"), out, nil, &stdout, &stderr)
	if err == nil {
		t.Fatal("Build into a directory whose math.tnb is a directory succeeded")
	}
	if _, err := os.Stat(filepath.Join(out, "mail.tnb")); !os.IsNotExist(err) {
		t.Errorf("mail.tnb after the failed build: %v, want none", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout after the failed build: %q", stdout.String())
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}

	// Into a new directory, made (with its parents) when missing.
	stdout.Reset()
	out = filepath.Join(root, "new", "bundles")
	if err := Build(filepath.Join(root, "suites"), out, nil, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	a, err := Resolve(out)
	if err != nil || a.Kind != Bundles || len(a.Paths) != 2 || filepath.Base(a.Paths[0]) != "mail.tnb" || filepath.Base(a.Paths[1]) != "math.tnb" {
		t.Errorf("built %v %v, %v", a.Kind, a.Paths, err)
	}
}

func TestBuildRefusals(t *testing.T) {
	root := tree(t, map[string]string{
		"suites/a/main.tenet.hcl": contract("mail"),
		"suites/b/main.tenet.hcl": contract("../up"),
		"dup/a/main.tenet.hcl":    contract("mail"),
		"dup/b/main.tenet.hcl":    contract("mail"),
		"file":                    "",
	})
	at := func(p string) string { return filepath.Join(root, p) }
	var stdout, stderr bytes.Buffer
	for _, c := range []struct{ path, out, want string }{
		{"suites", "", at("suites") + " is a directory of contract directories holding 2 contracts (a, b): name the directory to write their bundles to with -o DIR"},
		{"suites", at("file"), "-o " + at("file") + ": not a directory: the bundles of a directory of contract directories are written to a directory, one per contract"},
		{"suites", at("o1"), at("suites/b") + `: contract "../up" holds a path separator, and its bundle is named after it`},
		{"dup", at("o2"), at("dup/a") + " and " + at("dup/b") + ` are both contract "mail": the contracts of one directory need distinct names, as their runs, reports and bundles are named after them`},
		{"file", "", at("file") + " is a bundle file, compiled already: tenet build compiles contract directories"},
	} {
		err := Build(at(c.path), c.out, nil, &stdout, &stderr)
		if err == nil || err.Error() != c.want {
			t.Errorf("Build(%s, -o %q) = %v, want %s", c.path, c.out, err, c.want)
		}
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout after refusals: %q", stdout.String())
	}
}
