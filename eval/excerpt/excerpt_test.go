package excerpt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

func testRun() *run.Run {
	return &run.Run{
		Events: []*run.Event{
			{Index: 0, Role: "user", Content: "Pay the\n\nbill  in  full."},
			{Index: 1, Role: "assistant", Calls: []int{0}},
			{Index: 2, Role: "tool", Tool: "send_money", Content: "sent"},
			{Index: 3, Role: "assistant", Content: "Done <b>now</b>."},
		},
		Calls: []*run.Call{
			{Index: 0, Event: 1, Tool: "send_money", Args: map[string]any{"recipient": "US133<x>", "amount": 100.0, "tags": []any{"a"}},
				Ok: true, Result: "sent", ResultEvent: 2, Parent: -1},
			{Index: 1, Event: 1, Tool: "get_balance", ResultEvent: -1, Parent: -1},
			{Index: 2, Event: 1, Tool: "read_file", Error: "no such file", ResultEvent: 2, Parent: -1},
		},
	}
}

func TestOfWitnesses(t *testing.T) {
	rec := &runs.Record{Invariants: map[string]runs.Label{"no_send": runs.False()},
		Witnesses: map[string]map[string]string{"invariants.no_send": {"read": "event:0", "send": "call:0", "gone": "call:9"}}}
	got := Of(testRun(), rec)
	want := map[string]string{
		"event:0": "user: Pay the bill in full.",
		"call:0":  `send_money(amount=100, recipient="US133<x>", tags=["a"]) → sent`,
	}
	if len(got) != len(want) {
		t.Fatalf("excerpt %q, want %q (call:9 is not in the run)", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

func TestOfDisagreement(t *testing.T) {
	yes := true
	rec := &runs.Record{Key: runs.Key{Goal: "g"}, Utility: runs.True(), AttackSuccess: runs.False(), SideEffect: runs.False(),
		Given: runs.Given{AttackSuccess: &yes}}
	got := Of(testRun(), rec)
	for k, v := range map[string]string{
		"call:1":  "get_balance() → no result",
		"call:2":  "read_file() → error: no such file",
		"event:3": "assistant: Done <b>now</b>.",
	} {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d items, want the 3 calls and the last event: %q", len(got), got)
	}
	// Agreement, or an unknown label of ours, gives no excerpt.
	rec.AttackSuccess = runs.True()
	rec.SideEffect = runs.True()
	if got := Of(testRun(), rec); got != nil {
		t.Errorf("agreeing run: excerpt %q, want none", got)
	}
	rec.AttackSuccess = runs.Unknown("no key")
	if got := Of(testRun(), rec); got != nil {
		t.Errorf("unknown label: excerpt %q, want none", got)
	}
}

func TestOfBounded(t *testing.T) {
	r := &run.Run{}
	for i := range 40 {
		r.Calls = append(r.Calls, &run.Call{Index: i, Tool: "t", Args: map[string]any{"x": strings.Repeat("é", 400)}, ResultEvent: -1})
	}
	no := false
	rec := &runs.Record{Utility: runs.True(), Given: runs.Given{Utility: &no}}
	got := Of(r, rec)
	if len(got) != runs.MaxExcerptItems {
		t.Errorf("%d items, want runs.MaxExcerptItems = %d", len(got), runs.MaxExcerptItems)
	}
	for k, v := range got {
		if len(v) > runs.MaxExcerptText || !utf8.ValidString(v) || !strings.HasSuffix(v, "…") {
			t.Errorf("%s: %d bytes, valid UTF-8 %v, ends %q", k, len(v), utf8.ValidString(v), v[max(0, len(v)-6):])
		}
	}
	if err := (runs.Record{Key: runs.Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: runs.True(), Excerpt: got}).Validate(); err != nil {
		t.Errorf("the excerpt does not validate: %v", err)
	}
}

// TestItemHuge: a call with a 10 MB argument nested 1,000 deep renders as
// one clipped line.
func TestItemHuge(t *testing.T) {
	var deep any = strings.Repeat("x", 10<<20)
	for range 1000 {
		deep = map[string]any{"a": []any{deep, 1.5, true, nil}}
	}
	r := &run.Run{Calls: []*run.Call{{Tool: "t", Args: map[string]any{"big": deep, "s": strings.Repeat("y", 10<<20)}, Result: strings.Repeat("z ", 5<<20), ResultEvent: 0}}}
	got, ok := Item(r, "call:0")
	want := `t(big={"a":[{"a":[{"a":[{"a":[{"a":…},1.5,true,null]},1.5,true,null]}`
	if !ok || len(got) > runs.MaxExcerptText || !strings.HasPrefix(got, want) {
		t.Errorf("%d bytes: %q", len(got), got)
	}
}

func TestClip(t *testing.T) {
	if got := Clip("a\x00b\xffc\x1b[31m \n\t d"); got != "a\uFFFDb\uFFFDc\uFFFD[31m d" {
		t.Errorf("Clip kept a control character or invalid UTF-8: %q", got)
	}
	long := strings.Repeat("x", runs.MaxExcerptText+10)
	if got := Clip(long); len(got) != runs.MaxExcerptText || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip of %d bytes: %d bytes %q…", len(long), len(got), got[:10])
	}
}
