package frame

import (
	"fmt"
	"testing"
)

// TestSkimObject: every member but the skipped one decoded, the skipped
// one's bytes found whatever its strings hold, and ok false for what is
// not an object of plain member names.
func TestSkimObject(t *testing.T) {
	for _, tc := range []struct {
		data, obj, skipped string
		ok                 bool
	}{
		{`{"messages":[{"c":"]}\"["}],"metadata":{"s":"x"}}`, `map[metadata:map[s:x]]`, `[{"c":"]}\"["}]`, true},
		{` { "metadata" : {"s":[1,2]} , "messages" : [ ] , "n":1.5 } `, `map[metadata:map[s:[1 2]] n:1.5]`, `[ ]`, true},
		{`{"a":"x\\","messages":"y"}`, `map[a:x\]`, `"y"`, true},
		{`{"a":null,"b":true}`, `map[a:<nil> b:true]`, ``, true},
		{`{}`, `map[]`, ``, true},
		{`{"messages":[],"messages":[1]}`, `map[messages:[1]]`, `[]`, true}, // invalid JSON: the caller checks
		{`{"m\u0065ssages":[]}`, ``, ``, false},
		{`[{"messages":[]}]`, ``, ``, false},
		{`{"a":1} x`, ``, ``, false},
		{`{"a":1`, ``, ``, false},
		{`{"a":[1,2}`, ``, ``, false},
		{`{"a":1e400}`, ``, ``, false},
		{`{"a" 1}`, ``, ``, false},
		{``, ``, ``, false},
	} {
		obj, skipped, ok := SkimObject([]byte(tc.data), "messages")
		got := fmt.Sprint(obj)
		if !ok {
			got = ""
		}
		if ok != tc.ok || got != tc.obj || string(skipped) != tc.skipped {
			t.Errorf("SkimObject(%q) = %s, %q, %v; want %s, %q, %v", tc.data, got, skipped, ok, tc.obj, tc.skipped, tc.ok)
		}
	}
}
