package metrics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
)

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		in         []int
		have, gaps string
	}{
		{nil, "", ""},
		{[]int{1}, "1", ""},
		{[]int{1, 2, 3}, "1–3", ""},
		{[]int{2}, "2", "1"},
		{[]int{3, 4, 9}, "3–4, 9", "1–2, 5–8"},
		{[]int{1, 1 << 62}, "1, 4611686018427387904", "2–4611686018427387903"},
	} {
		if got := intRanges(c.in); got != c.have {
			t.Errorf("intRanges(%v) = %q, want %q", c.in, got, c.have)
		}
		if got := gapRanges(c.in); got != c.gaps {
			t.Errorf("gapRanges(%v) = %q, want %q", c.in, got, c.gaps)
		}
	}
}

// TestErrorTextCut: one error of a condition naming 2,000 declared tasks
// is cut to 1 KiB, with how much was left out.
func TestErrorTextCut(t *testing.T) {
	var tasks []string
	for i := range 2000 {
		tasks = append(tasks, fmt.Sprintf("task_%04d", i))
	}
	cs, _ := Compute([]runs.Record{ben("c", "task_0000", true)}, map[string]Declared{"": {Tasks: tasks}}, Options{})
	if len(cs) != 1 || len(cs[0].Errors) != 1 {
		t.Fatalf("conditions %+v", cs)
	}
	msg := cs[0].Errors[0].Error()
	want := "declared tasks with no benign run: task_0001, task_0002, "
	if !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "… (20998 more bytes)") || len(msg) != maxErrorText+len("… (20998 more bytes)") {
		t.Errorf("error of %d bytes: %.80s … %s", len(msg), msg, msg[max(0, len(msg)-40):])
	}
}
