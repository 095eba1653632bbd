package eval

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// workContract is a one-task contract whose utility is expr, with the
// given run cost limit (and a cost budget that lets any expression in).
func workContract(expr string, limit int) string {
	return fmt.Sprintf(`contract "c" {
  cost_budget    = 1000000000000000
  run_cost_limit = %d
}
threat_model {}
task "t" { utility = %q }
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
`, limit, expr)
}

// textRun is a run whose user message and final answer are the given texts.
func textRun(user, output string) *run.Run {
	return &run.Run{
		Meta:   map[string]any{},
		Events: []*run.Event{{Index: 0, Role: "user", Content: user}, {Index: 1, Role: "assistant", Content: output}},
		Output: output,
	}
}

func judgeUtility(t *testing.T, p *Program, r *run.Run) runs.Label {
	t.Helper()
	j, err := p.JudgeAs(&p.Bundle.Plan.Sources[0], r, &Override{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return j.Record.Utility
}

// The run cost limit bounds what a criterion reads, byte for byte: each
// utility below costs exactly its fixed part plus a tenth of the bytes of
// output it reads (rounded up), so at a limit of fixed + 100 an output of
// 1,000 bytes is judged and one of 1,001 bytes is not. Under cel-go's own
// charges (size and == charged by element count) both are judged at any
// size.
func TestRunCostLimitChargesWhatIsRead(t *testing.T) {
	for _, c := range []struct {
		expr  string
		fixed int // the cost with an empty output
	}{
		// output (1), size (1 + n/10), 0 < (1)
		{"size(output) > 0", 3},
		// output and events (1 each), [1] and .content (1 each), two list
		// literals (10 each), == (n/10: the two strings are n bytes long)
		{"[output] == [events[1].content]", 24},
		// output (1), int (1 + n/10); the conversion fails: unknown either way,
		// so the test below reads the reason
		{"int(output) > 0", 2},
	} {
		p := compileProgram(t, workContract(c.expr, c.fixed+100))
		for _, n := range []int{1000, 1001} {
			out := strings.Repeat("7", n)
			l := judgeUtility(t, p, textRun("q", out))
			over := strings.Contains(l.Reason, "cost limit")
			if over != (n > 1000) {
				t.Errorf("%s, output of %d bytes, limit %d: %+v, want over the limit: %v", c.expr, n, c.fixed+100, l, n > 1000)
			}
		}
	}
}

// A criterion the cost model under-charges (m[k] hashes its key k, 4 MB
// here, and cel-go charges the lookup 1) would run for many minutes; the
// run time limit stops it, and every label not computed by then is unknown
// with the reason: the utility while it runs, the invariant after it.
func TestRunTimeoutStopsUnchargedWork(t *testing.T) {
	src := `contract "c" {
  cost_budget = 1000000000000000
}
threat_model {}
task "t" {
  utility = "cel.bind(m, {events[0].content: 1}, lists.range(1000000).all(i, m[events[1].content] == 1))"
}
invariant "i" {
  severity = "low"
  assert   = "size(output) >= 0"
}
source "s" {
  format    = "openai-messages"
  task      = "meta.task"
  condition = "meta.agent"
}
`
	p := compileProgram(t, src)
	p.RunTimeout = 300 * time.Millisecond
	big := strings.Repeat("k", 4<<20)
	r := textRun(big, strings.Clone(big)) // two strings: the lookup compares them byte by byte
	start := time.Now()
	j, err := p.JudgeAs(&p.Bundle.Plan.Sources[0], r, &Override{Task: "t"})
	if err != nil {
		t.Fatal(err)
	}
	// The reasons below prove the deadline stopped it; how long that took
	// is logged, never asserted (a loaded machine is slower).
	t.Logf("judged in %s with a run time limit of 300ms", time.Since(start))
	u, inv := j.Record.Utility, j.Record.Invariants["i"]
	if u.Known || !strings.HasSuffix(u.Reason, "judging this run took longer than the run time limit of 300ms (--run-timeout): stopped while evaluating this expression") {
		t.Errorf("utility = %+v, want unknown past the run time limit", u)
	}
	if inv.Known || !strings.HasSuffix(inv.Reason, "judging this run took longer than the run time limit of 300ms (--run-timeout): stopped before this expression") {
		t.Errorf("invariant = %+v, want unknown past the run time limit", inv)
	}
}
