package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/tenetlang/tenet/internal/names"
)

// The JSON-RPC error codes the gateway answers with. -32700 and -32600 and
// -32602 are JSON-RPC 2.0's own; the others are in the range JSON-RPC
// leaves to implementations (-32000 to -32099), chosen so as not to clash
// with the codes MCP servers commonly use (-32000, -32002 "resource not
// found" in MCP's examples are the server's, never the gateway's: the
// gateway's codes start at -32040).
const (
	CodeParseError     = -32700 // not JSON, invalid UTF-8, a duplicate member name
	CodeInvalidRequest = -32600 // JSON but not a JSON-RPC 2.0 message the gateway accepts; a batch; a line over the size limit; a method that folds to tools/call
	CodeInvalidParams  = -32602 // a tools/call whose params are not {name, arguments} (and _meta, if any)
	// CodeRefused: the contract refuses the call (data: the decision).
	CodeRefused = -32040
	// CodeUndecided: the call could not be decided (a nested call shape
	// that cannot be read); it is refused, never forwarded. With
	// HideUndeclared, also a tools/list result that could not be checked
	// (not {tools: [...]}), replaced by this error.
	CodeUndecided = -32041
	// CodeLogFailed: the decision log could not be written; the call is
	// refused, since an enforcement point that cannot record must not act.
	CodeLogFailed = -32042
	// CodeServerGone: the MCP server exited (or its output could not be
	// read) before answering the request.
	CodeServerGone = -32043
)

// kind is what a JSON-RPC message is.
type kind int

const (
	kindRequest      kind = iota + 1 // method and id
	kindNotification                 // method, no id
	kindResponse                     // id and result or error
)

// message is a JSON-RPC 2.0 message read from one line: the members the
// gateway looks at, each as its raw JSON text (a slice of the line).
type message struct {
	kind   kind
	id     jsontext.Value // nil when absent
	method string
	params jsontext.Value
	result jsontext.Value
}

// rpcError is why a line is not relayed: a JSON-RPC error object, and
// the id to answer with (nil: null).
type rpcError struct {
	id      jsontext.Value
	code    int
	message string
	data    any
}

// idKey is a request id as a map key: strings and numbers never collide
// ("1" and 1 are different ids), and numbers written differently but
// equal (1, 1.0, 1e0) are one id, as a peer that decodes them reads them.
func idKey(id jsontext.Value) string {
	switch id.Kind() {
	case '"':
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	case '0':
		if n, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			return "n" + strconv.FormatInt(n, 10)
		}
		if f, err := strconv.ParseFloat(string(id), 64); err == nil {
			return "n" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return "?" + string(id)
}

// parseMessage reads one line as a JSON-RPC 2.0 message. The line is read
// strictly (jsontext's defaults): a duplicate member name at any depth and
// invalid UTF-8 are refused, so that the gateway and the server can never
// take one line to say two things (a second "method" member, say). A
// batch (a JSON array) is refused: MCP's stdio transport carries one
// message per line, and the 2025-06-18 revision removed JSON-RPC batching.
func parseMessage(line []byte) (message, *rpcError) {
	dec := jsontext.NewDecoder(bytes.NewReader(line))
	tok, err := dec.ReadToken()
	if err != nil {
		return message{}, parseError(err)
	}
	switch k := tok.Kind(); k {
	case '{':
	case '[':
		if err := skipRest(dec); err != nil {
			return message{}, parseError(err)
		}
		return message{}, &rpcError{code: CodeInvalidRequest, message: "batch refused: MCP's stdio transport carries one JSON-RPC message per line (the 2025-06-18 revision removed batching); send each message on its own line"}
	default:
		if err := skipRest(dec); err != nil {
			return message{}, parseError(err)
		}
		return message{}, &rpcError{code: CodeInvalidRequest, message: "not a JSON-RPC message: want a JSON object, got " + kindName(k)}
	}
	var m message
	var version, method jsontext.Value
	var hasError bool
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return message{}, parseError(err)
		}
		if tok.Kind() == '}' {
			break
		}
		name := tok.String()
		v, err := dec.ReadValue()
		if err != nil {
			return message{}, parseError(err)
		}
		// The decoder's value is valid until its next read: keep the
		// line's own bytes instead (valid as long as the line).
		end := int(dec.InputOffset())
		v = jsontext.Value(line[end-len(v) : end])
		switch name {
		case "jsonrpc":
			version = v
		case "id":
			m.id = v
		case "method":
			method = v
		case "params":
			m.params = v
		case "result":
			m.result = v
		case "error":
			hasError = true
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = fmt.Errorf("text after the JSON object")
		}
		return message{}, parseError(err)
	}
	// The id is echoed in an error only when it is a valid one. A null id
	// is JSON-RPC's for an error answering a message whose id could not be
	// read, and valid there only.
	errorForUnknown := m.id.Kind() == 'n' && method == nil && hasError && m.result == nil
	if m.id != nil && m.id.Kind() != '"' && m.id.Kind() != '0' && !errorForUnknown {
		return message{}, &rpcError{code: CodeInvalidRequest, message: "id: want a string or a number, got " + kindName(m.id.Kind())}
	}
	invalid := func(format string, args ...any) (message, *rpcError) {
		return message{}, &rpcError{id: m.id, code: CodeInvalidRequest, message: fmt.Sprintf(format, args...)}
	}
	if string(version) != `"2.0"` {
		if version == nil {
			return invalid(`jsonrpc: missing; want "2.0" (only JSON-RPC 2.0 is relayed)`)
		}
		return invalid(`jsonrpc: want "2.0", got %s`, clipRaw(version))
	}
	switch {
	case method != nil:
		if method.Kind() != '"' {
			return invalid("method: want a string, got %s", kindName(method.Kind()))
		}
		_ = json.Unmarshal(method, &m.method)
		if m.result != nil || hasError {
			return invalid("a request or notification (with a method) carries no result or error")
		}
		m.kind = kindNotification
		if m.id != nil {
			m.kind = kindRequest
		}
	case m.result != nil || hasError:
		if m.result != nil && hasError {
			return invalid("a response carries a result or an error, not both")
		}
		if m.id == nil {
			return invalid("a response needs the id of the request it answers")
		}
		m.kind = kindResponse
	default:
		return invalid("neither a request (method) nor a response (result or error)")
	}
	return m, nil
}

// skipRest reads the rest of a value whose first token was read and
// checks that nothing follows it.
func skipRest(dec *jsontext.Decoder) error {
	for dec.StackDepth() > 0 {
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return fmt.Errorf("text after the JSON value")
		}
		return err
	}
	return nil
}

func parseError(err error) *rpcError {
	return &rpcError{code: CodeParseError, message: "parse error: " + clip(err.Error(), 300) + " (the line was not relayed)"}
}

// kindName names a JSON value's kind for a message.
func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

// clipRaw renders raw JSON text (an id, a value) for a message: as it is
// when it reads unambiguously, else quoted with escapes (names.Printable:
// a JSON string may hold U+2028, bidirectional overrides, zero-width
// characters), and at most names.MaxNameWidth characters either way.
func clipRaw(v jsontext.Value) string { return names.Printable(string(v)) }

// toolsCall is the one method the gateway decides.
const toolsCall = "tools/call"

// foldsToToolsCall reports whether method, not tools/call itself, reads as
// tools/call once folded as a lenient server might fold it: compatibility
// forms (fullwidth letters, ligatures) to their plain ones (NFKC), case
// folded, invisible format characters (zero-width spaces and joiners, soft
// hyphens, byte-order marks) dropped, and white space and control
// characters trimmed at both ends. Such a method would otherwise pass as
// "another request" and skip the check.
func foldsToToolsCall(method string) bool {
	if method == toolsCall {
		return false
	}
	f := norm.NFKC.String(cases.Fold().String(norm.NFKC.String(method)))
	f = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, f)
	f = strings.TrimFunc(f, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
	return f == toolsCall
}

// maxShown bounds an untrusted sentence on standard error, in characters.
const maxShown = 600

// shown renders text that holds untrusted parts (an argument's value in a
// refusal's detail, a tool's name, a parser's complaint) for one line of
// standard error: as it is, cut in the middle to maxShown characters
// (names.Cut), when it reads unambiguously; else quoted with escapes as
// names.Printable quotes a name (a newline, a control or format character,
// a look-alike, invalid UTF-8 cannot be printed raw: "F2)\ntenet gateway:
// …" would forge a line of the gateway's own), cut to names.MaxNameWidth.
func shown(s string) string {
	if p := names.Printable(s); p != names.Cut(s, names.MaxNameWidth) {
		return p // quoted: s printed as it is could be misread
	}
	return names.Cut(s, maxShown)
}

// maxReport bounds one line of the gateway's on standard error, in
// characters.
const maxReport = 4000

// reportLine makes a formatted report one bounded line: every part that
// is not the gateway's own went through shown or clipRaw already; this
// escapes whatever control, format or line-separating character is left
// (Go syntax, as strconv quotes a rune) so that a report is never two
// lines, and cuts the middle of an overlong one.
func reportLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
		var b strings.Builder
		for _, r := range s {
			if !unicode.IsPrint(r) && r != ' ' {
				q := strconv.QuoteRuneToASCII(r)
				b.WriteString(q[1 : len(q)-1])
				continue
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	return names.Cut(s, maxReport)
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// errorLine is the JSON-RPC error response for e, a whole line.
func errorLine(e *rpcError) []byte {
	id := e.id
	if id == nil {
		id = jsontext.Value("null")
	}
	obj := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    any    `json:"data,omitempty"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: json.RawMessage(id)}
	obj.Error.Code, obj.Error.Message, obj.Error.Data = e.code, e.message, e.data
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		// Only data can fail to encode (it is the gateway's own values):
		// answer without it rather than not at all.
		obj.Error.Data = nil
		buf.Reset()
		_ = enc.Encode(obj)
	}
	return buf.Bytes()
}
