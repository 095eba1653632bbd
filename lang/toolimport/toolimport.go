// Package toolimport turns the tool definitions other systems publish into
// tenet `tool` blocks: an MCP `tools/list` result, an OpenAI tool list
// (Chat Completions or Responses API shape) or an Anthropic tool list.
//
// Its contract: Import takes the bytes of one JSON file and the source's
// name, and gives the text of a contract file of `tool` blocks in canonical
// layout (lang/format) that `tenet check` accepts, and a Warning for each
// thing of the input that tenet cannot express (a JSON Schema keyword, a
// name that is not an identifier, a tool that is not a function). A warning
// is also written as a comment above its tool, so that nothing is dropped
// silently. Output is deterministic: tools in input order, one warning per
// JSON pointer in schema order. It imports lang (names) and lang/format;
// it reads no files (ReadFile does, bounded).
package toolimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/format"
)

// Sources are the shapes Import reads, in the order help lists them.
var Sources = []string{"mcp", "openai", "anthropic"}

// MaxFileSize bounds the input file: a tool list is kilobytes; 64 MiB is a
// contract file's limit too.
const MaxFileSize = 64 << 20

// Limits of one tool's schema. Deeper types or more of them become `any`
// with a warning: the output must stay within the contract language's
// nesting limit (128 brackets; a level costs up to three: optional(object({)
// and a `$ref` graph must not expand exponentially.
const (
	MaxDepth = 24
	MaxNodes = 2000
)

// Warning is one thing of the input that the output does not express.
type Warning struct {
	Tool    string // the tool's name as given
	Pointer string // JSON pointer (RFC 6901) into the input file
	Message string
}

func (w Warning) String() string {
	if w.Tool == "" {
		return fmt.Sprintf("%s: %s", clip(oneLine(ptrOrRoot(w.Pointer)), 200), oneLine(w.Message))
	}
	return fmt.Sprintf("tool %s: %s: %s", clip(strconv.Quote(w.Tool), 80), clip(oneLine(ptrOrRoot(w.Pointer)), 200), oneLine(w.Message))
}

// Result is what Import gives.
type Result struct {
	Text     []byte    // the contract file
	Tools    int       // tool blocks written
	Warnings []Warning // in output order
}

// WriteWarnings writes the warnings to w, one a line.
func (r Result) WriteWarnings(w io.Writer) {
	for _, x := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
}

// ImportFile is Import of the file at path, read with MaxFileSize as its
// limit; errors name the file.
func ImportFile(source, path string) (Result, error) {
	if !slices.Contains(Sources, source) {
		return Result{}, fmt.Errorf("unknown source %q: one of %s", source, strings.Join(Sources, ", "))
	}
	data, err := readlimit.ReadFile(path, MaxFileSize)
	if err != nil {
		return Result{}, err
	}
	res, err := Import(source, data)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", path, err)
	}
	return res, nil
}

// Import converts data, the JSON of source (one of Sources), to tool
// blocks. An error means nothing usable was found (not JSON, not the
// source's shape, no tools); warnings do not make an error.
func Import(source string, data []byte) (Result, error) {
	if !slices.Contains(Sources, source) {
		return Result{}, fmt.Errorf("unknown source %q: one of %s", source, strings.Join(Sources, ", "))
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return Result{}, fmt.Errorf("not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return Result{}, errors.New("not one JSON value: text follows the first value")
	}
	list, base, err := toolList(source, doc)
	if err != nil {
		return Result{}, err
	}
	im := &importer{used: map[string]bool{}}
	var body bytes.Buffer
	if cur := nextCursor(doc); cur != "" {
		// tools/list is paginated: the file holds one page.
		body.WriteString(im.comment([]Warning{{Pointer: cur, Message: "more tools on further pages of tools/list (nextCursor): not in this file"}}))
	}
	for i, raw := range list {
		ptr := base + "/" + strconv.Itoa(i)
		block := im.tool(source, raw, ptr)
		body.WriteString("\n")
		body.WriteString(block)
	}
	// The header counts what was imported, known only now: a definition
	// passed over (a built-in tool, no name) is a warning below, and a
	// count of the file's entries would claim it as a block.
	var out bytes.Buffer
	if im.tools == len(list) {
		fmt.Fprintf(&out, "# Imported by tenet import %s: %d tool definitions.\n", source, len(list))
	} else {
		fmt.Fprintf(&out, "# Imported by tenet import %s: %d of %d tool definitions (%d not imported: see the warnings).\n", source, im.tools, len(list), len(list)-im.tools)
	}
	out.Write(body.Bytes())
	if im.tools == 0 {
		why := "the list is empty"
		if len(im.warnings) > 0 {
			why = im.warnings[0].String()
		}
		return Result{}, fmt.Errorf("no %s tool definitions in the file (%d entries): %s", source, len(list), why)
	}
	text, diags := format.Format(out.Bytes(), "import.tenet.hcl")
	if diags.HasErrors() {
		// A bug of this package, never of the input: every name and string
		// written is checked or quoted.
		return Result{}, fmt.Errorf("internal error: the generated contract does not parse: %s", diags.Error())
	}
	return Result{Text: text, Tools: im.tools, Warnings: im.warnings}, nil
}

// toolList finds the list of tool definitions: the source's documented
// wrappers, or a bare array. base is the list's JSON pointer.
func toolList(source string, doc any) ([]any, string, error) {
	switch d := doc.(type) {
	case []any:
		return d, "", nil
	case map[string]any:
		if source == "mcp" {
			// A whole JSON-RPC response to tools/list.
			if r, ok := d["result"].(map[string]any); ok {
				if l, ok := r["tools"].([]any); ok {
					return l, "/result/tools", nil
				}
			}
		}
		if l, ok := d["tools"].([]any); ok {
			return l, "/tools", nil
		}
	}
	want := map[string]string{
		"mcp":       `a tools/list result {"tools": [...]}, its JSON-RPC response, or an array of tools`,
		"openai":    `an array of tools, or a request body {"tools": [...]}`,
		"anthropic": `an array of tools, or a request body {"tools": [...]}`,
	}[source]
	if want == "" {
		return nil, "", fmt.Errorf("unknown source %q: one of %s", source, strings.Join(Sources, ", "))
	}
	return nil, "", fmt.Errorf("not %s tool definitions: want %s", source, want)
}

type importer struct {
	used     map[string]bool // tenet names already written
	tools    int
	warnings []Warning
}

// def is one tool definition, whatever the source.
type def struct {
	name, title, description string
	schema                   any
	schemaPtr                string
	readOnly, destructive    *bool
	notes                    []string // comments that are not warnings
}

// tool renders one entry of the list: a tool block, or (for an entry that
// is no function tool) a comment, with its warnings.
func (im *importer) tool(source string, raw any, ptr string) string {
	obj, _ := raw.(map[string]any)
	var warns []Warning
	warn := func(name, p, format string, args ...any) {
		warns = append(warns, Warning{Tool: name, Pointer: p, Message: fmt.Sprintf(format, args...)})
	}
	name, _ := obj["name"].(string)
	d := def{}
	switch source {
	case "mcp":
		if _, ok := obj["inputSchema"]; !ok && obj != nil {
			// inputSchema is required in MCP: without it this is another
			// source's tool (Anthropic's input_schema) or no tool at all.
			warn(name, ptr, "not an MCP tool (no inputSchema%s): nothing imported", hint(obj))
			return im.comment(warns)
		}
		d = def{name: name, schema: obj["inputSchema"], schemaPtr: ptr + "/inputSchema"}
		d.title, _ = obj["title"].(string)
		if ann, ok := obj["annotations"].(map[string]any); ok {
			d.readOnly = boolPtr(ann["readOnlyHint"])
			d.destructive = boolPtr(ann["destructiveHint"])
			if d.title == "" {
				d.title, _ = ann["title"].(string)
			}
		}
		if _, ok := obj["outputSchema"]; ok {
			warn(name, ptr+"/outputSchema", "outputSchema not imported: a tool block types arguments, not results")
		}
	case "openai":
		typ, _ := obj["type"].(string)
		fn := obj
		fptr := ptr
		if f, ok := obj["function"].(map[string]any); ok { // Chat Completions
			fn, fptr = f, ptr+"/function"
			name, _ = f["name"].(string)
		}
		if typ != "function" && !(typ == "" && obj["function"] != nil) {
			warn(name, ptr, "not a function tool (type %s): nothing imported", clip(jsonText(obj["type"]), 60))
			return im.comment(warns)
		}
		d = def{name: name, schema: fn["parameters"], schemaPtr: fptr + "/parameters"}
		if s, ok := fn["strict"].(bool); ok && s {
			d.notes = append(d.notes, "strict: true (the model was constrained to the schema)")
		}
		obj = fn
	case "anthropic":
		if typ, ok := obj["type"].(string); ok && typ != "custom" {
			// Server and client tools of Anthropic's (web_search_..., bash_...)
			// have a type and no input_schema: their arguments are Anthropic's.
			warn(name, ptr, "Anthropic-defined tool (type %s): no input_schema, nothing imported", clip(strconv.Quote(typ), 60))
			return im.comment(warns)
		}
		if _, ok := obj["input_schema"]; !ok && obj != nil {
			warn(name, ptr, "not an Anthropic tool (no input_schema%s): nothing imported", hint(obj))
			return im.comment(warns)
		}
		d = def{name: name, schema: obj["input_schema"], schemaPtr: ptr + "/input_schema"}
	}
	if obj == nil || name == "" {
		warn(name, ptr, "not a tool definition (no name): nothing imported")
		return im.comment(warns)
	}
	d.description, _ = obj["description"].(string)
	if d.description == "" {
		d.description = d.title
	}
	ident := im.ident(name)
	if ident != name {
		why := "not a tenet identifier"
		switch {
		case lang.IsReserved(name):
			why = "reserved by CEL"
		case isIdent(name):
			why = "a second tool of this name"
		}
		warn(name, ptr+"/name", "%s: written as %s; transcripts' calls of %s do not reach this tool until renamed", why, ident, clip(strconv.Quote(name), 80))
	}
	im.tools++

	var b strings.Builder
	op, opNote := operation(source, d)
	params, pwarns := "", []Warning(nil)
	if d.schema != nil {
		c := &converter{tool: name}
		params = c.params(d.schema, d.schemaPtr)
		pwarns = c.warnings
	} else {
		warn(name, d.schemaPtr, "no schema: arguments are untyped (no params)")
	}
	warns = append(warns, pwarns...)
	fmt.Fprintf(&b, "# %s %s (%s)\n", source, clip(strconv.Quote(name), 80), ptrOrRoot(ptr))
	for _, n := range append([]string{opNote}, d.notes...) {
		if n != "" {
			fmt.Fprintf(&b, "# %s\n", n)
		}
	}
	for _, w := range warns {
		fmt.Fprintf(&b, "# warning: %s: %s\n", clip(oneLine(ptrOrRoot(w.Pointer)), 200), oneLine(w.Message))
	}
	im.warnings = append(im.warnings, warns...)
	fmt.Fprintf(&b, "tool %q {\n", ident)
	if d.description != "" {
		fmt.Fprintf(&b, "description = %s\n", quote(d.description))
	}
	fmt.Fprintf(&b, "operation = %q\n", op)
	if params != "" {
		fmt.Fprintf(&b, "params = %s\n", params)
	}
	b.WriteString("}\n")
	return b.String()
}

// nextCursor is the pointer of a non-empty nextCursor of an MCP result.
func nextCursor(doc any) string {
	d, _ := doc.(map[string]any)
	if r, ok := d["result"].(map[string]any); ok {
		if c, _ := r["nextCursor"].(string); c != "" {
			return "/result/nextCursor"
		}
	}
	if c, _ := d["nextCursor"].(string); c != "" {
		return "/nextCursor"
	}
	return ""
}

// hint names the source an entry's keys suggest.
func hint(obj map[string]any) string {
	switch {
	case obj["inputSchema"] != nil:
		return "; inputSchema is MCP's"
	case obj["input_schema"] != nil:
		return "; input_schema is Anthropic's"
	case obj["function"] != nil || obj["parameters"] != nil:
		return "; function and parameters are OpenAI's"
	}
	return ""
}

// comment writes the warnings of an entry that is not imported.
func (im *importer) comment(warns []Warning) string {
	var b strings.Builder
	for _, w := range warns {
		fmt.Fprintf(&b, "# warning: %s\n", oneLine(w.String()))
	}
	im.warnings = append(im.warnings, warns...)
	return b.String()
}

// operation maps MCP's behaviour hints to the default registry vocabulary
// (read, update): readOnlyHint true is a read; anything else may change
// the world, so it is an update — hints are the server's claims, and an
// absent hint is not folded into "read". destructiveHint says how bad the
// change may be, which the default vocabulary does not distinguish; it is
// kept as a comment.
func operation(source string, d def) (string, string) {
	switch {
	case d.readOnly != nil && *d.readOnly:
		if d.destructive != nil && *d.destructive {
			return "read", "operation read: readOnlyHint true (destructiveHint true is ignored, as MCP says for read-only tools)"
		}
		return "read", "operation read: readOnlyHint true"
	case d.destructive != nil && *d.destructive:
		return "update", "operation update: destructiveHint true (the tool may delete or overwrite)"
	case d.readOnly != nil:
		return "update", "operation update: readOnlyHint false"
	case source == "mcp":
		return "update", "operation update: no readOnlyHint (MCP's default is not read-only)"
	}
	return "update", "operation update: " + source + " tool definitions say nothing of side effects; change to read where the tool only reads"
}

// ident is name if it is a tenet identifier not yet used, else a valid,
// unused spelling of it.
func (im *importer) ident(name string) string {
	id := name
	if !isIdent(id) || lang.IsReserved(id) {
		var b strings.Builder
		for i, r := range name {
			switch {
			case r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
				b.WriteRune(r)
			case '0' <= r && r <= '9':
				if i == 0 {
					b.WriteByte('_')
				}
				b.WriteRune(r)
			default:
				b.WriteByte('_')
			}
			if b.Len() >= 64 {
				break
			}
		}
		id = b.String()
		if id == "" {
			id = "tool"
		}
		if lang.IsReserved(id) {
			id += "_"
		}
	}
	if im.used[id] {
		base := id
		for n := 2; im.used[id]; n++ {
			id = base + "_" + strconv.Itoa(n)
		}
	}
	im.used[id] = true
	return id
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func boolPtr(v any) *bool {
	if b, ok := v.(bool); ok {
		return &b
	}
	return nil
}

// quote writes s as an HCL string literal: quotes, backslashes and
// control characters escaped (HCL knows \n \r \t and \uNNNN, not Go's \x),
// invalid UTF-8 replaced, and template sequences doubled so that they stay
// literal text.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	q := b.String()
	q = strings.ReplaceAll(q, "${", "$${")
	return strings.ReplaceAll(q, "%{", "%%{")
}

// oneLine makes an untrusted text safe inside a # comment.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func ptrOrRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// sortedKeys gives a JSON object's keys in byte order: Go maps have none,
// and the output must not vary.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
