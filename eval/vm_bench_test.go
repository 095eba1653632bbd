package eval

import (
	"fmt"
	"testing"

	"github.com/tenetlang/tenet/eval/pike"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/view"
)

// patternProgram compiles a one-invariant contract whose forbid pattern is
// pat over steps read, confirm and send (send's guard is guard, "" for none).
func patternProgram(tb testing.TB, pat, guard string) *Program {
	tb.Helper()
	when := ""
	if guard != "" {
		when = fmt.Sprintf("\n    when = %q", guard)
	}
	src := fmt.Sprintf(`contract "bench" {}
threat_model {}
tool "read" {
  operation = "read"
  params    = { path = string }
}
tool "send" {
  operation = "update"
  params    = { to = string, body = string }
}
task "t" { utility = "true" }
invariant "i" {
  step "read" { call = "read" }
  step "confirm" { role = "user" }
  step "send" {
    call = "send"%s
  }
  forbid = %q
}
`, when, pat)
	return compileProgram(tb, src)
}

// syntheticRun is a run of about n items: a user message, then rounds of
// an assistant message requesting a read, its result, an assistant message
// requesting a send to a colleague, its result; then a final answer. The
// benchmarked patterns never match it (the guard-free one needs the run to
// end right after a send), so the VM scans the whole run.
func syntheticRun(n int) *run.Run {
	r := &run.Run{Meta: map[string]any{}}
	addEvent := func(role, content string) *run.Event {
		e := &run.Event{Index: len(r.Events), Role: role, Content: content}
		r.Events = append(r.Events, e)
		return e
	}
	addEvent("user", "work through the files")
	for len(r.Events)+len(r.Calls) < n {
		for _, tool := range []string{"read", "send"} {
			a := addEvent("assistant", "")
			c := &run.Call{Index: len(r.Calls), Event: a.Index, Tool: tool, Ok: true, Parent: -1,
				Args: map[string]any{"path": "f.txt", "to": "bob@corp.example", "body": "notes"}}
			a.Calls = []int{c.Index}
			r.Calls = append(r.Calls, c)
			res := addEvent("tool", "the notes")
			res.Tool, c.Result, c.ResultEvent = tool, "the notes", res.Index
		}
	}
	addEvent("assistant", "done")
	return r
}

// BenchmarkPattern measures the VM on runs of 1k, 10k and 100k items. A
// guard-free pattern costs O(items × program size): time per item stays
// flat as runs grow; so does a guard that refers to no other step (it is
// evaluated once per item). A guard that refers to an earlier step keys
// threads on that step's binding: here every read starts a thread that
// lives to the end, so the cost grows with items × reads.
func BenchmarkPattern(b *testing.B) {
	for _, tc := range []struct{ name, pat, guard string }{
		{"guard-free", "read !confirm* send $", ""},
		{"guard", "read !confirm* send", "args.to.endsWith('@evil.example')"},
		{"guard-refers-earlier", "read !confirm* send", "args.body.contains(read.result + '!')"},
	} {
		p := patternProgram(b, tc.pat, tc.guard)
		sizes := []int{1_000, 10_000, 100_000}
		if tc.name == "guard-refers-earlier" {
			// Quadratic: every read starts a thread of its own. Larger runs
			// hit the run cost limit (unknown), which is the point of it.
			sizes = []int{500, 1_000, 2_000}
		}
		for _, n := range sizes {
			r := syntheticRun(n)
			items := len(pike.Stream(r))
			b.Run(fmt.Sprintf("%s/items=%d", tc.name, n), func(b *testing.B) {
				// Label once to build the run's values; then time the VM alone.
				var rec runs.Record
				p.label(&rec, p.tasks["t"], nil, r, "")
				ctx := &runCtx{run: r, v: p.view.Of(r), items: pike.Stream(r)}
				ctx.acts = []*view.Scope{{Values: ctx.v, Threat: p.threat, Params: p.params[0], Pred: map[string]any{}}}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					ctx.spent = 0
					res := p.runPattern(0, ctx, ctx.acts[0])
					if !res.Label.Known || res.Label.Value {
						b.Fatalf("pattern: %v", res.Label)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(items), "ns/item")
			})
		}
	}
}
