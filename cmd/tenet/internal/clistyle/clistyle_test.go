package clistyle

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/tenetlang/tenet/internal/termstyle"
)

const table = "ok    answers\nFAIL  wrong (c/t.jsonl:3)\n      utility: want true, got false\n2 tests: 1 passed, 1 failed\n"

func TestTestsColoursTheWords(t *testing.T) {
	want := "\x1b[32mok\x1b[0m    answers\n\x1b[1;31mFAIL\x1b[0m  wrong (c/t.jsonl:3)\n      utility: want true, got false\n2 tests: 1 passed, 1 failed\n"
	if got := string(Tests([]byte(table), termstyle.On())); got != want {
		t.Errorf("coloured:\n%q\nwant\n%q", got, want)
	}
	if got := string(Tests([]byte(table), termstyle.Style{})); got != table {
		t.Errorf("colour off changed the table: %q", got)
	}
}

func TestStyleCarried(t *testing.T) {
	if Stdout(context.Background()).Enabled() {
		t.Error("no style in the context, but colour on")
	}
	if !Stdout(WithStdout(context.Background(), termstyle.On())).Enabled() {
		t.Error("the context's style is lost")
	}
	env := func(string) string { return "" }
	if !Of(Writer{&bytes.Buffer{}, termstyle.On()}, env).Enabled() {
		t.Error("a Writer's style is lost")
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if Of(devnull, env).Enabled() || Of(&bytes.Buffer{}, env).Enabled() {
		t.Error("colour on for a file that is not a terminal")
	}
}
