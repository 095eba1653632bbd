package transcript

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestErrorPositions: a record that spans lines is refused at the line of
// the failing message inside it, not at its first line with the inner
// line in the message (mcp read "s.jsonl:1: line 3: ...") nor at its
// element number (tau-bench read "t.json:2: ..." for the second element).
func TestErrorPositions(t *testing.T) {
	for _, tc := range []struct{ format, file, data, want string }{
		{"mcp", "s.jsonl", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n\n" + `{"jsonrpc":"1.0","id":2,"method":"ping"}`,
			`s.jsonl:3: jsonrpc: want "2.0", got "1.0"`},
		{"tau-bench", "t.json", "[\n  {\"traj\": []},\n  {\n    \"traj\": [\n      {\"role\": \"user\"},\n      {\"role\": 7}\n    ]\n  }\n]",
			"t.json:6: traj message 1: role: want a string, got a number"},
	} {
		r, err := Open(tc.format, tc.file, strings.NewReader(tc.data), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			_, err := r.Next()
			if err == nil {
				continue
			}
			if !errors.Is(err, io.EOF) {
				got = append(got, err.Error())
			}
			break
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: errors %q, want [%q]", tc.format, got, tc.want)
		}
	}
}
