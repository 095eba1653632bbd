package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChecks: each refusal names the files, and what is safe passes.
func TestChecks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"output is an input", CheckOutput(link, []string{b, a}), "output " + link + " is also an input (" + a + "); choose another file"},
		{"output is a directory", CheckOutput(dir, nil), "output " + dir + " is a directory; name a file"},
		{"new output", CheckOutput(filepath.Join(dir, "new"), []string{a}), ""},
		{"other output", CheckOutput(b, []string{a}), ""},
		{"output in a missing directory", CheckOutput(filepath.Join(dir, "missing", "r.jsonl"), nil),
			"output " + filepath.Join(dir, "missing", "r.jsonl") + ": directory " + filepath.Join(dir, "missing") + " does not exist; create it first"},
		{"output under a file", CheckOutput(filepath.Join(a, "r.jsonl"), nil), "output " + filepath.Join(a, "r.jsonl") + ": " + a + " is not a directory"},
		{"device output", CheckOutput(os.DevNull, nil), ""},
		{"new output in the working directory", CheckOutput("no-such-file-here.jsonl", nil), ""},
		{"input twice", CheckInputs([]string{a, b, link}), link + " is given twice (also as " + a + ")"},
		{"input directory", CheckInputs([]string{a, dir}), dir + " is a directory; give the files in it"},
		{"distinct inputs", CheckInputs([]string{a, b}), ""},
		{"standard input", CheckInputs([]string{a, "-"}), "- (standard input) is not read here: give the file by name, or /dev/stdin to read standard input"},
	} {
		got := ""
		if c.err != nil {
			got = c.err.Error()
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if !SameFile(a, link) || !SameFile(filepath.Join(dir, "x"), filepath.Join(dir, ".", "x")) || SameFile(a, b) {
		t.Error("SameFile: a and its link are one file, two spellings of a new path one, a and b two")
	}
}
