package tenet_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/transcript"
)

// indistinct are the pairs (reader, sample's format) whose refusal cannot
// name the sample's format, with why. None today: every sample is claimed
// by its own format's sniffer alone (TestSniffSamples in eval/transcript).
var indistinct = map[[2]string]string{}

// TestForeignFormatsNamed: every reader given another format's sample
// refuses it with an error that names that format (issue 15, "no silent
// misreads"), both where the registry reads a file (transcript.Open, as
// tenet test does) and where every record is framed and decoded apart
// (Evaluate, the pipeline of tenet eval and report; tenet explain frames
// and decodes as it does). The name must stand as a word: "tenet_run" in a
// message does not name the format "tenet".
func TestForeignFormatsNamed(t *testing.T) {
	b, err := tenet.Build(filepath.Join(formatsDir, "contract"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, g := range transcript.Formats() {
		for _, f := range transcript.Formats() {
			if f == g {
				continue
			}
			if why, ok := indistinct[[2]string{g, f}]; ok {
				t.Logf("%s <- %s: not checked: %s", g, f, why)
				continue
			}
			matches, err := filepath.Glob(filepath.Join(formatsDir, f, "transcript.*"))
			if err != nil || len(matches) != 1 {
				t.Fatalf("%s: want one sample, found %v", f, matches)
			}
			// A copy, so that the path in the error names no format.
			data, err := os.ReadFile(matches[0])
			if err != nil {
				t.Fatal(err)
			}
			sample := filepath.Join(dir, "sample"+filepath.Ext(matches[0]))
			if err := os.WriteFile(sample, data, 0o644); err != nil {
				t.Fatal(err)
			}
			names := regexp.MustCompile(`(^|[^a-zA-Z0-9_-])` + regexp.QuoteMeta(f) + `($|[^a-zA-Z0-9_-])`)

			if msg := firstOpenError(t, g, sample); msg == "" {
				t.Errorf("%s <- %s: transcript.Open read the sample without an error", g, f)
			} else if !names.MatchString(msg) {
				t.Errorf("%s <- %s: transcript.Open's error does not name %s:\n%s", g, f, f, msg)
			}

			_, err = b.Evaluate([]string{sample}, tenet.EvalOptions{Source: g, Format: g, Workers: 1})
			var bad *assemble.BadRecordsError
			if !errors.As(err, &bad) || len(bad.Lines) == 0 {
				t.Errorf("%s <- %s: Evaluate: %v, want bad records", g, f, err)
			} else if !names.MatchString(bad.Lines[0]) {
				t.Errorf("%s <- %s: Evaluate's first bad record does not name %s:\n%s", g, f, f, bad.Lines[0])
			}
		}
	}
}

// firstOpenError reads file with format to the end and returns its first
// error, "" if none.
func firstOpenError(t *testing.T, format, file string) string {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rd, err := transcript.Open(format, file, fh, transcript.Options{})
	if err != nil {
		return err.Error()
	}
	for {
		_, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			return err.Error()
		}
	}
}
