package runs

import (
	"bytes"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/fuzzseed"
)

// errLine is how every line of a Read error starts: the file and line, a
// cross-file check (exposure consistency per condition) or the note that
// reading stopped.
var errLine = regexp.MustCompile(`^(f\.jsonl:[1-9][0-9]*: |condition |too many errors)`)

// FuzzRead checks that Read never panics on any bytes, that its errors
// are "file:line: reason" (plus the checks between records and the
// too-many-errors note), and that what it accepts survives Write and Read
// unchanged: the same records, and the same bytes when written again.
// Seeds: every .jsonl file of eval/runs/testdata, testdata/*.txtar and
// testdata/hostile (runs files and transcripts alike).
func FuzzRead(f *testing.F) {
	for _, b := range fuzzseed.Files(".jsonl", "eval/runs/testdata", "testdata/hostile") {
		f.Add(b)
	}
	f.Add([]byte("\ufeff{\"condition\":\"c\",\"task\":\"t\",\"labels\":{\"utility\":null},\"unknown\":{\"utility\":\"x\"}}\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := Read("f.jsonl", bytes.NewReader(data))
		if err != nil {
			if recs != nil {
				t.Fatal("records with an error")
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !errLine.MatchString(line) {
					t.Fatalf("error line %q does not say where", line)
				}
			}
			return
		}
		var out bytes.Buffer
		if err := Write(&out, recs); err != nil {
			t.Fatalf("Read accepts what Write refuses: %v", err)
		}
		again, err := Read("f.jsonl", bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("Read refuses what Write wrote: %v\n%s", err, out.Bytes())
		}
		if len(again) != len(recs) || len(recs) > 0 && !reflect.DeepEqual(again, recs) {
			t.Fatalf("round trip changed the records:\n%+v\n%+v", recs, again)
		}
		var out2 bytes.Buffer
		if err := Write(&out2, again); err != nil || !bytes.Equal(out2.Bytes(), out.Bytes()) {
			t.Fatalf("writing again gives other bytes (err %v)", err)
		}
	})
}
