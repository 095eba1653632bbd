package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The limit counts a line's bytes without its newline; a longer line is
// reported by its length and the next line is read whole, at any size
// around the read buffer.
func TestLineReaderLimit(t *testing.T) {
	for _, max := range []int{4, readBuffer - 1, readBuffer, readBuffer + 1, 3 * readBuffer} {
		ok, long := strings.Repeat("a", max), strings.Repeat("b", max+1)
		lr := newLineReader(strings.NewReader(ok+"\n"+long+"\n"+"c\n"+long), max)
		var got []string
		for {
			line, over, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if over > 0 {
				got = append(got, fmt.Sprintf("over %d", over))
				continue
			}
			got = append(got, fmt.Sprintf("%d %q", len(line), line[len(line)-1]))
		}
		want := []string{fmt.Sprintf("%d '\\n'", max+1), fmt.Sprintf("over %d", max+2), "2 '\\n'", fmt.Sprintf("over %d", max+1)}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("max %d: got %v, want %v", max, got, want)
		}
	}
}

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
