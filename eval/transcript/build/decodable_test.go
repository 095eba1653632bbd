package build

import (
	"strings"
	"testing"
)

// TestDecodable: Decodable accepts exactly what DecodeJSON accepts, on
// texts that are valid JSON and texts that fail each of its decoder's
// rules, inside strings and out.
func TestDecodable(t *testing.T) {
	for _, text := range []string{
		`{"a":[1,2,{"b":"c"}]}`,
		`{"a":1e400}`, `{"a":-1E+400}`, `{"a":1e-400}`, `{"a":1.5e308}`, `{"a":1.8e308}`,
		`{"a":"1e400"}`, `{"a":"x\"1e400"}`, `{"a":"x\\","b":1e400}`, `{"a":"x\\\"","b":1e400}`,
		`{"a":` + strings.Repeat("9", 309) + `}`, `{"a":` + strings.Repeat("9", 308) + `}`,
		`{"a":` + strings.Repeat("9", 400) + `.5}`, `{"a":0.` + strings.Repeat("9", 400) + `}`,
		`{"a":1,"a":2}`, `{"a":{"b":1,"b":1}}`, `[{"b":1},{"b":1}]`,
		"{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"a":"\ud83d\ude00"}`,
		`{"a":1} {"b":2}`, `{"a":1`, `{"a":01}`, `{"a":+1}`, `{"a":NaN}`, `{"a":tru}`, `{a:1}`, `{"a":1,}`,
		` {"a":1} `, ``, `   `, `"x"`, `null`,
		strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001),
		strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000),
	} {
		_, msg := DecodeJSON([]byte(text), true)
		if got, want := Decodable([]byte(text)), msg == ""; got != want {
			t.Errorf("Decodable(%.60q) = %v, DecodeJSON: %q", text, got, msg)
		}
	}
}
