package frame

import (
	"fmt"
	"strings"
	"testing"
)

// TestSkimObject: every member but the skipped one decoded, the skipped
// one's bytes found whatever its strings hold, and ok false for what is
// not an object of plain member names, each given once, nested within
// skimMaxDepth.
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
		{`{"messages":[],"messages":[1]}`, ``, ``, false}, // a name twice
		{`{"a":1,"messages":[],"a":2}`, ``, ``, false},
		{"{\"a\x1f\":1}", ``, ``, false},              // a control character in a name
		{"{\"a\xc3\":1}", ``, ``, false},              // a name not UTF-8
		{"{\"\u00e9\":1}", "map[\u00e9:1]", ``, true}, // UTF-8 in a name
		{`{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, `map[a:` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `]`, ``, true},
		{`{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, ``, ``, false},        // deeper than skimMaxDepth
		{`{"messages":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, ``, ``, false}, // skipped, too
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
