package gateway

import (
	"encoding/json"
	"testing"
)

// FuzzParseMessage: no line panics the reader, and a line it accepts is
// one JSON object whose id, when present, is a string or a number.
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`, `[{"jsonrpc":"2.0"}]`, `{"jsonrpc":"2.0","method":"m"}`,
		"{\"a\":\"\xff\"}", `{"id":1,"id":2}`, `{"jsonrpc":"2.0","id":1e400,"method":"x"}`, ``, ` `, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, e := parseMessage(line)
		if e != nil {
			if e.id != nil && !json.Valid(e.id) {
				t.Fatalf("error id %q is not JSON", e.id)
			}
			_ = errorLine(e)
			return
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil {
			t.Fatalf("accepted %q, which encoding/json does not read as an object: %v", line, err)
		}
		if m.id != nil && m.id.Kind() != '"' && m.id.Kind() != '0' {
			t.Fatalf("accepted id %s", m.id)
		}
		_ = idKey(m.id)
	})
}
