package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tasks is a FileReader of a file of task names, one a line, after a
// first line "#tasks": each a benign run of condition "x" with utility
// true; "!" is a bad line, "?" makes Runs fail at its line, "=" gives a
// run that fails validation (attempt 0).
type tasks struct {
	names []string
	lines []int
}

func (f *tasks) Line(line []byte, n int) error {
	switch s := string(line); s {
	case "#tasks":
	case "!":
		return errors.New("bang")
	default:
		f.names, f.lines = append(f.names, s), append(f.lines, n)
	}
	return nil
}

func (f *tasks) Runs() ([]Record, []int, error) {
	var recs []Record
	for i, n := range f.names {
		switch n {
		case "?":
			return nil, nil, errors.Join(&LineError{Line: f.lines[i], Err: errors.New("no run")}, errors.New("whole file"))
		case "=":
			recs = append(recs, Record{Key: Key{Condition: "x", Task: n}, Utility: True()})
		default:
			recs = append(recs, Record{Key: Key{Condition: "x", Task: n, Attempt: 1, Repetition: 1}, Utility: True()})
		}
	}
	return recs, f.lines, nil
}

func TestReadForeign(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	opt := ReadOptions{Foreign: func(first []byte) FileReader {
		if string(first) == "#tasks" {
			return &tasks{}
		}
		return nil
	}}
	runsFile := write("runs.jsonl", `{"condition":"x","task":"a","labels":{"utility":false}}`+"\n")
	good := write("good.tasks", "#tasks\nb\n\nc\n")
	recs, at, err := ReadFilesAt(opt, runsFile, good)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, r := range recs {
		got = append(got, fmt.Sprintf("%s %v %s", r.Key, r.Utility, at[i]))
	}
	want := "x/a false " + runsFile + ":1|x/b true " + good + ":2|x/c true " + good + ":4"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
	// Without Foreign the file is a runs file: its first line is an error.
	if _, err := ReadFilesWith(ReadOptions{}, good); err == nil || !strings.HasPrefix(err.Error(), good+":1: ") {
		t.Errorf("no Foreign: %v", err)
	}
	for _, tc := range []struct{ text, want string }{
		{"#tasks\nb\n!\n!\n", "{F}:3: bang\n{F}:4: bang"},
		{"#tasks\nb\n?\n", "{F}:3: no run\n{F}: whole file"},
		{"#tasks\n=\n", "{F}:2: run x/= (attempt 0, repetition 0): attempt is 0, want an integer ≥ 1"},
		{"#tasks\na\n", "{F}:2: duplicate run x/a (first at {R}:1)"},
	} {
		f := write("bad.tasks", tc.text)
		_, err := ReadFilesWith(opt, runsFile, f)
		want := strings.ReplaceAll(strings.ReplaceAll(tc.want, "{F}", f), "{R}", runsFile)
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", tc.text, err, want)
		}
	}
}
