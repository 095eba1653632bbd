package livestate

import (
	"reflect"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestSameItemsCompareEveryField: sameCall and sameEvent must compare
// every field of run.Call and run.Event, or an edit of a committed item
// would go unnoticed. Each field, changed alone, must make them differ.
func TestSameItemsCompareEveryField(t *testing.T) {
	c := run.Call{Args: map[string]any{"a": "b"}, RequestedArgs: map[string]any{"c": "d"}}
	for i := 0; i < reflect.TypeOf(c).NumField(); i++ {
		d := c
		f := reflect.ValueOf(&d).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]any{"a": "other"}))
		default:
			t.Fatalf("call field %s of kind %s: teach this test", reflect.TypeOf(c).Field(i).Name, f.Kind())
		}
		if sameCall(&c, &d) {
			t.Errorf("call field %s changed, sameCall still true", reflect.TypeOf(c).Field(i).Name)
		}
	}
	e := run.Event{Calls: []int{1}, Blocks: []any{"b"}}
	for i := 0; i < reflect.TypeOf(e).NumField(); i++ {
		d := e
		f := reflect.ValueOf(&d).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.Int {
				f.Set(reflect.ValueOf([]int{2}))
			} else {
				f.Set(reflect.ValueOf([]any{"c"}))
			}
		default:
			t.Fatalf("event field %s of kind %s: teach this test", reflect.TypeOf(e).Field(i).Name, f.Kind())
		}
		if sameEvent(&e, &d) {
			t.Errorf("event field %s changed, sameEvent still true", reflect.TypeOf(e).Field(i).Name)
		}
	}
	if !sameCall(&c, &run.Call{Args: map[string]any{"a": "b"}, RequestedArgs: map[string]any{"c": "d"}}) || !sameEvent(&e, &run.Event{Calls: []int{1}, Blocks: []any{"b"}}) {
		t.Error("equal items compare different")
	}
}
