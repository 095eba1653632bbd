package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript"
)

// TestSelectBeforeDecoding: with every select reading only meta, a record
// no target selects is not decoded — a record whose messages the reader
// would refuse, but that is valid JSON, is counted as not selected, not as
// a bad record (before, every record was decoded first) — while a record
// that is not JSON the reader's decoder accepts (a duplicate member name,
// a number out of float64's range, invalid UTF-8, all inside its
// messages) is the error it was, at its line, with Decode's message; so
// is any record a target selects, and any record when a select reads
// record.messages (it cannot be decided without them).
func TestSelectBeforeDecoding(t *testing.T) {
	math := compileSource(t, mathContract)
	readsMessages := compileSource(t, strings.Replace(mathContract,
		`select     = "meta.suite == 'math'"`, `select     = "meta.suite == 'math' && size(record.messages) > 0"`, 1))
	meta := func(suite string, rep int) string {
		return `"metadata":{"suite":"` + suite + `","task":"add","goal":null,"agent":"a","rep":` + string(rune('0'+rep)) + `}`
	}
	lines := []string{
		synthRecord("math", "add", nil, "a", 1, "4", ""),                                    // 1 judged
		synthRecord("chat", "add", nil, "a", 1, "4", ""),                                    // 2 not selected
		`{"messages":[{"content":"no role"}],` + meta("chat", 2) + `}`,                      // 3 not selected, a message Decode refuses
		`{"messages":[{"role":"user","role":"user"}],` + meta("chat", 3) + `}`,              // 4 duplicate name
		`{"messages":[{"role":"user","content":"x","n":1e400}],` + meta("chat", 4) + `}`,    // 5 out of range
		"{\"messages\":[{\"role\":\"user\",\"content\":\"\xff\"}]," + meta("chat", 5) + `}`, // 6 invalid UTF-8
		`{"messages":[{"content":"no role"}],` + meta("math", 6) + `}`,                      // 7 selected: decoded, refused
		`{"messages":"none",` + meta("chat", 7) + `}`,                                       // 8 not a list: not peeked
		`{` + meta("chat", 8) + `}`,                                                         // 9 a header line
		`{"metadata":{"suite":"chat"},"messages":[{"role":"user","content":"1e400 \"]}"}]}`, // 10 not selected: brackets and a number in a string
	}
	file := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	decodeError := func(line int) string {
		_, _, err := transcript.Decode("openai-messages", run.Origin{File: file, Line: line}, []byte(lines[line-1]))
		if err == nil {
			t.Fatalf("line %d: Decode accepts it", line)
		}
		return err.Error()
	}
	for _, tc := range []struct {
		name       string
		program    *eval.Program
		bad        []int // the lines that are bad records
		unselected []int
	}{
		{"select reads meta", math, []int{4, 5, 6, 7, 8}, []int{2, 3, 10}},
		{"select reads record.messages", readsMessages, []int{3, 4, 5, 6, 7, 8}, []int{2, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, err := EvalTargets([]Target{{Program: tc.program}}, []string{file}, Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			res := results[0]
			var got, want []string
			for _, e := range res.Errors {
				got = append(got, e.Error())
			}
			for _, l := range tc.bad {
				want = append(want, decodeError(l))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			var wantFirst []run.Origin
			for _, l := range tc.unselected {
				wantFirst = append(wantFirst, run.Origin{File: file, Line: l})
			}
			u := AllUnselected(results)
			if u.Records != len(tc.unselected) || !equalOrigins(u.First, wantFirst) {
				t.Errorf("unselected %d %v, want %d %v", u.Records, u.First, len(tc.unselected), wantFirst)
			}
			if n := res.Skipped[eval.NotSelected]; n != len(tc.unselected) {
				t.Errorf("not selected %d, want %d", n, len(tc.unselected))
			}
			if len(res.Records) != 1 || res.Headers != 1 {
				t.Errorf("%d judged, %d headers; want 1, 1", len(res.Records), res.Headers)
			}
		})
	}
}

func equalOrigins(a, b []run.Origin) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
