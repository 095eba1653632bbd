package view

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	structpb "google.golang.org/protobuf/types/known/structpb"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/eval/run"
)

// testDecls are the declarations of a contract with two tools that have
// schemas, read and send.
func testDecls(t *testing.T) *Decls {
	t.Helper()
	src := `contract "c" {}
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
`
	// compiler.BuildFiles directly: internal/evaltest imports eval, which
	// imports this package.
	b, diags := compiler.BuildFiles(".", map[string][]byte{"c.tenet.hcl": []byte(src)}, compiler.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// The default adapter converts Go maps, lists and scalars as the
	// criterion environments' does.
	return NewDecls(types.DefaultTypeAdapter, b.Bundle.Decls.Tools)
}

// testRun is a user message, then an assistant message requesting a read
// and one requesting a send, each with its result, then a final answer.
func testRun() *run.Run {
	r := &run.Run{Meta: map[string]any{}}
	addEvent := func(role, content string) *run.Event {
		e := &run.Event{Index: len(r.Events), Role: role, Content: content}
		r.Events = append(r.Events, e)
		return e
	}
	addEvent("user", "send the notes to bob")
	for _, tool := range []string{"read", "send"} {
		a := addEvent("assistant", "")
		c := &run.Call{Index: len(r.Calls), Event: a.Index, Tool: tool, Ok: true, Parent: -1,
			Args: map[string]any{"path": "f.txt", "to": "bob@corp.example", "body": "notes"}}
		a.Calls = []int{c.Index}
		r.Calls = append(r.Calls, c)
		res := addEvent("tool", "the notes")
		res.Tool, c.Result, c.ResultEvent = tool, "the notes", res.Index
	}
	addEvent("assistant", "done")
	return r
}

// TestValuesBehaveAsMaps: the run's CEL values (eventVal, callVal, typed
// callVal, toolsVal) behave as the Go maps they stand for, converted by
// cel-go: same keys, size, field values, equality both ways, presence and
// conversion to JSON.
func TestValuesBehaveAsMaps(t *testing.T) {
	d := testDecls(t)
	r := testRun()
	r.Calls[0].Args = nil                                   // absent arguments read as {}
	r.Calls[1].Args = map[string]any{"to": 7.0}             // a typed call whose args do not conform
	r.Events[1].Blocks = []any{map[string]any{"text": "x"}} // raw content blocks
	r.Calls = append(r.Calls, &run.Call{Index: len(r.Calls), Event: 2, Tool: "other", Parent: -1, ResultEvent: -1})
	v := d.Of(r)

	var vals []ref.Val
	for _, e := range v.eventVals {
		vals = append(vals, e)
	}
	for i := range v.callVals {
		vals = append(vals, v.callVals[i], v.typedVals[i])
	}
	vals = append(vals, v.tools)
	for i, val := range vals {
		m := val.Value().(map[string]any)
		want := d.adapter.NativeToValue(m).(traits.Mapper)
		got := val.(traits.Mapper)
		if got.Size() != want.Size() {
			t.Errorf("%d: size %v, want %v", i, got.Size(), want.Size())
		}
		var keys []string
		for it := got.Iterator(); it.HasNext() == types.True; {
			keys = append(keys, string(it.Next().(types.String)))
		}
		wantKeys := make([]string, 0, len(m))
		for k := range m {
			wantKeys = append(wantKeys, k)
		}
		sort.Strings(wantKeys)
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("%d: keys %v, want %v", i, keys, wantKeys)
		}
		for _, k := range wantKeys {
			g, w := got.Get(types.String(k)), want.Get(types.String(k))
			if g.Equal(w) != types.True {
				t.Errorf("%d: %s = %v, want %v", i, k, g, w)
			}
			if got.Contains(types.String(k)) != types.True {
				t.Errorf("%d: does not contain %s", i, k)
			}
		}
		if got.Contains(types.String("nope")) != types.False {
			t.Errorf("%d: contains a key it does not have", i)
		}
		if _, found := got.Find(types.Int(0)); found {
			t.Errorf("%d: found an int key", i)
		}
		if g := got.Get(types.String("nope")); !types.IsError(g) {
			t.Errorf("%d: missing key gave %v, want an error", i, g)
		}
		if got.Equal(want) != types.True || want.Equal(got) != types.True || got.Equal(got) != types.True {
			t.Errorf("%d: not equal to its map", i)
		}
		if got.Type() != types.MapType {
			t.Errorf("%d: type %v", i, got.Type())
		}
		gj, err1 := got.ConvertToNative(reflect.TypeOf(&structpb.Value{}))
		wj, err2 := want.ConvertToNative(reflect.TypeOf(&structpb.Value{}))
		if err1 != nil || err2 != nil {
			// A typed call whose args hold errors does not convert either
			// way (which error comes first follows map order).
			if err1 == nil || err2 == nil {
				t.Errorf("%d: converting: %v, want %v", i, err1, err2)
			}
			continue
		}
		if !reflect.DeepEqual(gj.(*structpb.Value).AsInterface(), wj.(*structpb.Value).AsInterface()) {
			t.Errorf("%d: JSON %v, want %v", i, gj, wj)
		}
	}
	// Different calls are not equal; a typed call has raw_args, a generic one not.
	if v.callVals[0].Equal(v.callVals[1]) != types.False {
		t.Error("two different calls are equal")
	}
	if _, ok := v.typedVals[0].FindStringKey("raw_args"); !ok {
		t.Error("typed call without raw_args")
	}
	if _, ok := v.callVals[0].FindStringKey("raw_args"); ok {
		t.Error("generic call with raw_args")
	}
}

// TestValuesPrintAsMaps: Value and String give what the replaced Go maps
// gave (explain prints a value through them when it cannot convert it to
// JSON): Go maps and cel-go's map format, never pointers.
func TestValuesPrintAsMaps(t *testing.T) {
	v := testDecls(t).Of(testRun())
	for i, val := range []ref.Val{v.eventVals[1], v.callVals[0], v.typedVals[1], v.tools} {
		if s := fmt.Sprint(val.Value()); strings.Contains(s, "0x") || strings.Contains(s, "&{") {
			t.Errorf("%d: Value prints %s", i, s)
		}
		if s := fmt.Sprint(val); strings.Contains(s, "0x") || strings.Contains(s, "&{") || !strings.HasPrefix(s, "{") {
			t.Errorf("%d: String is %s", i, s)
		}
	}
	if s := fmt.Sprint(v.calls.Value()); strings.Contains(s, "0x") {
		t.Errorf("list of calls prints %s", s)
	}
}
