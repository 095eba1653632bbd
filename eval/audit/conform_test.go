package audit

import (
	"fmt"
	"reflect"
	"testing"

	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// TestConformArgs: the typed view of a call's arguments, decided by
// bundle.CheckValue. Ints become int64; undeclared members and absent or
// null optional ones are left out; a value that does not fit becomes an
// error value where it is, so its siblings keep theirs (a criterion that
// reads a good element of a list with a bad one still sees it).
func TestConformArgs(t *testing.T) {
	str, num := bundle.Type{Kind: bundle.KindString}, bundle.Type{Kind: bundle.KindInt}
	item := bundle.Type{Kind: bundle.KindObject, Fields: []bundle.Field{{Name: "id", Type: num}, {Name: "note", Type: str, Optional: true}}}
	schema := []bundle.Field{
		{Name: "amount", Type: bundle.Type{Kind: bundle.KindDouble}},
		{Name: "items", Type: bundle.Type{Kind: bundle.KindList, Elem: &item}},
		{Name: "tags", Type: bundle.Type{Kind: bundle.KindMap, Elem: &num}, Optional: true},
		{Name: "to", Type: str},
	}
	args := map[string]any{
		"amount": 3.0,
		"items":  []any{map[string]any{"id": 1.0, "note": nil, "x": true}, map[string]any{"id": 1.5}, map[string]any{}},
		"tags":   map[string]any{"a": 2.0, "b": "two"},
		"extra":  "left out",
	}
	got := fmt.Sprint(render(ConformArgs("send", args, schema)))
	want := "map[amount:3 items:[map[id:1] map[id:error(argument items[1].id of send is the number 1.5, declared int)] map[id:error(argument items[2].id of send is missing (declared int))]] " +
		"tags:map[a:2 b:error(argument tags.b of send is the string \"two\", declared int)] to:error(argument to of send is missing (declared string))]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	out := ConformArgs("send", args, schema)
	if id := out["items"].([]any)[0].(map[string]any)["id"]; reflect.TypeOf(id) != reflect.TypeOf(int64(0)) {
		t.Errorf("an int argument is a %T", id)
	}
	if amount := out["amount"]; reflect.TypeOf(amount) != reflect.TypeOf(0.0) {
		t.Errorf("a double argument is a %T", amount)
	}
}

// render replaces error values by error(message) for comparison.
func render(v any) any {
	switch v := v.(type) {
	case *types.Err:
		return "error(" + v.Error() + ")"
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = render(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = render(e)
		}
		return out
	}
	return v
}
