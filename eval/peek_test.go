package eval

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestPeekSelect: a select is decided on a peek when it reads meta and
// record members the peek has; not when the source has none, when it
// reads an unread member (also through has()) or the record as a whole,
// or when it fails or gives no bool on the peek (Judge then reports it).
func TestPeekSelect(t *testing.T) {
	meta := map[string]any{"suite": "a", "n": 1.0}
	record := map[string]any{"metadata": meta, "model": "m"}
	unread := []string{"messages"}
	for _, tc := range []struct {
		sel  string // "" for no select
		want string // selected, ok
	}{
		{`meta.suite == 'a'`, "true true"},
		{`meta.suite == 'b'`, "false true"},
		{`record.model == 'm' && meta.n == 1.0`, "true true"},
		{`has(record.other)`, "false true"},
		{`meta.suite == 'b' && size(record.messages) > 0`, "false false"},
		{`has(record.messages)`, "false false"},
		{`size(record) > 0`, "false false"},
		{`record.exists(k, k == 'model')`, "false false"},
		{`meta.missing == 'a'`, "false false"}, // no such key: an error
		{`meta.suite`, "false false"},          // not a bool
		{``, "false false"},
	} {
		sel := ""
		if tc.sel != "" {
			sel = fmt.Sprintf("select = %q", tc.sel)
		}
		p := compileProgram(t, `
contract "c" {}
threat_model {}
task "t" { utility = "true" }
cases {
  tasks = ["*"]
  goals = []
}
source "s" {
  format = "openai-messages"
  `+sel+`
  task      = "'t'"
  goal      = "null"
  condition = "'c'"
}
`)
		src, err := p.Source("")
		if err != nil {
			t.Fatal(err)
		}
		selected, ok := p.PeekSelect(src, meta, record, unread)
		if got := fmt.Sprint(selected, ok); got != tc.want {
			t.Errorf("select %q: %s, want %s", tc.sel, got, tc.want)
		}
	}
}

// TestJudgeSelected: JudgeSelected does not evaluate the select (a run
// its select leaves out is judged all the same), and judges as Judge does
// a run the select takes.
func TestJudgeSelected(t *testing.T) {
	p := compileProgram(t, `
contract "c" {}
threat_model {}
task "t" { utility = "true" }
cases {
  tasks = ["*"]
  goals = []
}
source "s" {
  format = "openai-messages"
  select = "meta.suite == 'a'"
  task      = "'t'"
  goal      = "null"
  condition = "'c'"
}
`)
	src, err := p.Source("")
	if err != nil {
		t.Fatal(err)
	}
	for _, suite := range []string{"a", "b"} {
		rn := &run.Run{Meta: map[string]any{"suite": suite}, Record: map[string]any{}}
		j, err := p.Judge(src, rn)
		if err != nil {
			t.Fatal(err)
		}
		js, err := p.JudgeSelected(src, rn)
		if err != nil {
			t.Fatal(err)
		}
		if suite == "b" {
			if j.Skip != NotSelected || js.Skip != Judged {
				t.Errorf("suite b: Judge %v, JudgeSelected %v; want %v, %v", j.Skip, js.Skip, NotSelected, Judged)
			}
			continue
		}
		if !reflect.DeepEqual(j, js) {
			t.Errorf("suite a: Judge %+v, JudgeSelected %+v", j, js)
		}
	}
}
