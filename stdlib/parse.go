package stdlib

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"github.com/goccy/go-yaml"
)

// Overload ids of parseJSON and parseYAML.
const (
	overloadParseJSON = "tenet_parsejson_string"
	overloadParseYAML = "tenet_parseyaml_string"
)

// parseJSON decodes JSON text into a CEL value.
//
//	parseJSON(string) -> dyn
//
// Objects become map(string, dyn), arrays list(dyn), numbers double, and
// strings, booleans and null the CEL values of the same name. The text must
// hold exactly one JSON value (white space around it is allowed); for a
// repeated object key the last value wins.
//
// Errors: invalid JSON fails with "parseJSON: " and the decoder's message, e.g.
// "parseJSON: unexpected end of JSON input" or
// "parseJSON: invalid character 'x' looking for beginning of value"; a string
// holding invalid UTF-8 (which a host may pass although CEL strings are
// Unicode) with "parseJSON: text is not valid UTF-8".
//
// Example:
//
//	parseJSON('{"amount": 98.7, "to": ["bob"]}').amount == 98.7 // true
//
// Cost: 1 plus 1 per character of the text; the result's size is at most the
// text's size.
func parseJSON(text ref.Val) ref.Val {
	s := string(text.(types.String))
	if !utf8.ValidString(s) {
		return types.NewErrFromString("parseJSON: text is not valid UTF-8")
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return types.NewErrFromString("parseJSON: " + err.Error())
	}
	out, err := (&converter{}).value(v)
	if err != nil {
		return types.NewErrFromString("parseJSON: " + err.Error())
	}
	return out
}

// parseYAML decodes a YAML document into a CEL value with the same shapes as
// parseJSON.
//
//	parseYAML(string) -> dyn
//
// Mappings become map(string, dyn): keys are converted to strings as
// goccy/go-yaml writes them (1 → "1", 0x10 → "16", true → "true", ~ → "null");
// of two keys written differently that convert to the same string, the later
// one's value is kept. Every number, integer or float, becomes a double, so
// values compare as parseJSON's do. Sequences become list(dyn); strings,
// booleans and null stay themselves; !!binary values become bytes and
// !!timestamp values RFC 3339 strings. Scalars are resolved by goccy/go-yaml
// (v1.19.2): 0x10 is 16.0, yes is the string "yes". An empty document is
// null. Anchors, aliases and merge keys are expanded.
//
// Errors, each message starting with "parseYAML: ":
//   - "text of <n> bytes is longer than the limit of 262144" (256 KiB);
//   - "text is not valid UTF-8";
//   - "brackets nested deeper than 256 levels", counting [ and { anywhere in
//     the text;
//   - the parser's one-line message for invalid YAML, e.g.
//     "[1:4] mapping value is not allowed in this context", which includes a
//     key written twice and a key that is a mapping or a sequence;
//   - "more than one document" for a stream of several documents;
//   - "aliases expand the document beyond twice its size" when anchors and
//     aliases expand the document to more than twice the text's size plus 2
//     (in CEL aggregate-size units).
//
// Example:
//
//	parseYAML("amount: 98\nto: [bob]").amount == 98.0 // true
//
// Cost: 1 plus 10 per character of the text (goccy/go-yaml decodes about ten
// times slower than encoding/json); the result's size is at most twice the
// text's size plus 2. Adversarial documents within the limits (deep brackets,
// many distinct anchors) take up to about ten times longer than charged,
// about a second at most.
func parseYAML(text ref.Val) (out ref.Val) {
	// goccy/go-yaml reads untrusted text: should it panic, the call fails
	// with an error value instead of aborting the whole evaluation.
	defer func() {
		if r := recover(); r != nil {
			out = types.NewErrFromString(fmt.Sprintf("parseYAML: parser failure: %v", r))
		}
	}()
	s := string(text.(types.String))
	if len(s) > maxYAMLText {
		return types.NewErrFromString(fmt.Sprintf("parseYAML: text of %d bytes is longer than the limit of %d", len(s), maxYAMLText))
	}
	if !utf8.ValidString(s) {
		return types.NewErrFromString("parseYAML: text is not valid UTF-8")
	}
	if flowDepth(s) > maxYAMLFlowDepth {
		return types.NewErrFromString(fmt.Sprintf("parseYAML: brackets nested deeper than %d levels", maxYAMLFlowDepth))
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(s)))
	var v any
	if err := dec.Decode(&v); err != nil && !errors.Is(err, io.EOF) {
		return types.NewErrFromString("parseYAML: " + yaml.FormatError(err, false, false))
	}
	var extra any
	switch err := dec.Decode(&extra); {
	case err == nil:
		return types.NewErrFromString("parseYAML: more than one document")
	case !errors.Is(err, io.EOF):
		return types.NewErrFromString("parseYAML: " + yaml.FormatError(err, false, false))
	}
	c := &converter{limit: 2*uint64(len(s)) + 2, limitMessage: "aliases expand the document beyond twice its size"}
	out, err := c.value(v)
	if err != nil {
		return types.NewErrFromString("parseYAML: " + err.Error())
	}
	return out
}

// Limits on parseYAML's input. goccy/go-yaml parses ordinary documents in
// time linear in their size (about 0.5 to 1 µs per byte), but deeply nested
// flow collections ([[[...]]]) take time that grows with the nesting depth
// (a 100 KB document nested 50,000 deep takes seconds), and many distinct
// anchors somewhat more than linear time. The limits keep one call within
// about a second on adversarial input.
const (
	// maxYAMLText is the longest text parseYAML reads, in bytes.
	maxYAMLText = 256 << 10
	// maxYAMLFlowDepth bounds the nesting of brackets ([ and {).
	maxYAMLFlowDepth = 256
)

// flowDepth returns the deepest nesting of the brackets [ and { in s,
// counting every bracket (even inside quoted scalars, which only makes the
// count larger) and never going below zero.
func flowDepth(s string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// converter turns decoded JSON or YAML values into CEL values, counting the
// result's aggregate size (1 per scalar and container, the byte length of a
// string or bytes value, at least 1) and failing once it exceeds limit (when
// limit is not zero). YAML aliases share decoded values, so without the limit
// a small document could expand into an exponentially large result.
type converter struct {
	limit        uint64
	limitMessage string
	size         uint64
}

func (c *converter) count(n int) error {
	c.size += uint64(max(n, 1))
	if c.limit != 0 && c.size > c.limit {
		return errors.New(c.limitMessage)
	}
	return nil
}

func (c *converter) value(v any) (ref.Val, error) {
	switch v := v.(type) {
	case nil:
		return types.NullValue, c.count(1)
	case bool:
		return types.Bool(v), c.count(1)
	case string:
		return types.String(v), c.count(len(v))
	case []byte:
		return types.Bytes(v), c.count(len(v))
	case float64:
		return types.Double(v), c.count(1)
	case float32:
		return types.Double(v), c.count(1)
	case int:
		return types.Double(float64(v)), c.count(1)
	case int64:
		return types.Double(float64(v)), c.count(1)
	case uint64:
		return types.Double(float64(v)), c.count(1)
	case time.Time:
		s := v.Format(time.RFC3339Nano)
		return types.String(s), c.count(len(s))
	case []any:
		if err := c.count(1); err != nil {
			return nil, err
		}
		elems := make([]ref.Val, len(v))
		for i, e := range v {
			ev, err := c.value(e)
			if err != nil {
				return nil, err
			}
			elems[i] = ev
		}
		return types.NewRefValList(types.DefaultTypeAdapter, elems), nil
	case map[string]any:
		if err := c.count(1); err != nil {
			return nil, err
		}
		m := make(map[ref.Val]ref.Val, len(v))
		for k, e := range v {
			if err := c.count(len(k)); err != nil {
				return nil, err
			}
			ev, err := c.value(e)
			if err != nil {
				return nil, err
			}
			m[types.String(k)] = ev
		}
		return types.NewRefValMap(types.DefaultTypeAdapter, m), nil
	case map[any]any:
		if err := c.count(1); err != nil {
			return nil, err
		}
		m := make(map[ref.Val]ref.Val, len(v))
		for k, e := range v {
			ks, err := keyString(k)
			if err != nil {
				return nil, err
			}
			if _, dup := m[types.String(ks)]; dup {
				return nil, fmt.Errorf("duplicate key %s", quoteShort(ks))
			}
			if err := c.count(len(ks)); err != nil {
				return nil, err
			}
			ev, err := c.value(e)
			if err != nil {
				return nil, err
			}
			m[types.String(ks)] = ev
		}
		return types.NewRefValMap(types.DefaultTypeAdapter, m), nil
	}
	return nil, fmt.Errorf("unsupported value of Go type %T", v)
}

// keyString converts a scalar mapping key to a string the way YAML decoders
// into string-keyed maps do (and as Python's json.dumps writes keys). goccy/go-yaml
// already decodes mappings into map[string]any; converter handles
// map[any]any too so that it accepts any decoded JSON or YAML value.
func keyString(k any) (string, error) {
	switch k := k.(type) {
	case string:
		return k, nil
	case nil:
		return "null", nil
	case bool:
		return strconv.FormatBool(k), nil
	case int:
		return strconv.Itoa(k), nil
	case int64:
		return strconv.FormatInt(k, 10), nil
	case uint64:
		return strconv.FormatUint(k, 10), nil
	case float64:
		if math.IsInf(k, 0) || math.IsNaN(k) {
			return fmt.Sprint(k), nil
		}
		return formatDouble(k), nil
	}
	return "", fmt.Errorf("mapping key of Go type %T is not supported", k)
}

func parseJSONSpec() spec {
	d := FunctionDoc{
		Name:       "parseJSON",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadParseJSON, Text: "parseJSON(string) -> dyn"}},
		Summary:    "Decodes JSON text (e.g. a tool result) into a CEL value.",
		Semantics: []string{
			"Objects become map(string, dyn), arrays list(dyn), every number a double, and strings, booleans and null the CEL values of the same name.",
			"The text must hold exactly one JSON value; white space around it is allowed. For a repeated object key the last value wins.",
			"The result is dyn, so comparisons with int literals work at run time (`parseJSON('{\"n\": 3}').n == 3` is true: CEL compares numbers across types), but arithmetic needs doubles (`.n + 1.0`).",
			"Cost estimation bounds the value and its entries two levels deep by the text's size when accessed by index (`parseJSON(s)['items']`); cel-go does not carry sizes through field selection (`parseJSON(s).items`), so a comprehension over a selected field is estimated as unbounded.",
			"Prefer parseJSON to the encoders extension's json.parse in criteria: parseJSON has a bounded cost model, json.parse is estimated as unbounded.",
		},
		Errors: []string{
			"`parseJSON: <decoder message>` for invalid JSON, with the message of Go's encoding/json, e.g. `parseJSON: unexpected end of JSON input`.",
			"`parseJSON: text is not valid UTF-8` for a string holding invalid UTF-8 (which a host may pass although CEL strings are Unicode).",
		},
		Examples: []Example{
			{Expr: `parseJSON('{"amount": 98.7, "to": ["bob"]}').amount == 98.7`, Result: "true"},
			{Expr: `parseJSON('{"n": 3}')`, Result: `{"n": 3.0}`},
			{Expr: `parseJSON('[1, "a", true, null]')`, Result: `[1.0, "a", true, null]`},
			{Expr: `parseJSON(' "text" ')`, Result: `"text"`},
			{Expr: `parseJSON('{"amount": 1')`, Error: "parseJSON: unexpected end of JSON input"},
			{Expr: `parseJSON('{"a": 1} x')`, Error: "parseJSON: invalid character 'x' after top-level value"},
			{Expr: `parseJSON("")`, Error: "parseJSON: unexpected end of JSON input"},
		},
		Cost: "1 plus 1 per character of the text. The result's size is estimated as at most the text's size, with its entries bounded the same way two levels deep.",
	}
	return spec{
		doc: d,
		decl: cel.Function("parseJSON", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadParseJSON, []*cel.Type{cel.StringType}, cel.DynType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(parseJSON))),
		models: []cost.OverloadModel{
			cost.Overload(overloadParseJSON,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), cost.Length(cost.Arg(0)))),
				cost.ResultSize(nestedAtMost(cost.Arg(0), resultSizeDepth))),
		},
	}
}

func parseYAMLSpec() spec {
	d := FunctionDoc{
		Name:       "parseYAML",
		Kind:       "function",
		Signatures: []Signature{{Overload: overloadParseYAML, Text: "parseYAML(string) -> dyn"}},
		Summary:    "Decodes a YAML document (e.g. a tool result) into a CEL value shaped like parseJSON's.",
		Semantics: []string{
			"Mappings become map(string, dyn) with keys converted to strings as goccy/go-yaml writes them (1 → \"1\", 0x10 → \"16\", true → \"true\", ~ → \"null\"); of two keys written differently that convert to the same string (~ and null), the later one's value is kept. Every number, integer or float, becomes a double, so values compare as parseJSON's do. Sequences become list(dyn); strings, booleans and null stay themselves; !!binary values become bytes and !!timestamp values RFC 3339 strings.",
			"Scalars are resolved by goccy/go-yaml v1.19.2: 0x10 is 16.0, 1e3 and yes are strings, .inf is an infinite double. An empty document is null. Anchors, aliases and merge keys (<<) are expanded.",
			"The text must hold one document.",
		},
		Errors: []string{
			"`parseYAML: <parser message>` for invalid YAML, with goccy/go-yaml's one-line message, e.g. `parseYAML: [1:4] mapping value is not allowed in this context`; this includes a key defined twice and a mapping key that is a mapping or a sequence.",
			"`parseYAML: more than one document` for a stream of several documents.",
			"`parseYAML: text is not valid UTF-8` for a string holding invalid UTF-8.",
			"`parseYAML: text of <n> bytes is longer than the limit of 262144` for a text over 256 KiB, and `parseYAML: brackets nested deeper than 256 levels` when brackets ([ and {, counted anywhere in the text, even in quoted strings) nest deeper than 256. goccy/go-yaml takes time that grows with the nesting depth of flow collections; these limits keep one call within about a second on adversarial input.",
			"`parseYAML: aliases expand the document beyond twice its size` when anchors and aliases expand the document to a value larger than twice the text plus 2 (in aggregate-size units: 1 per scalar and container, the byte length of a string); this bounds the result and the work to convert it.",
		},
		Examples: []Example{
			{Expr: `parseYAML("amount: 98\nto: [bob]").amount == 98.0`, Result: "true"},
			{Expr: `parseYAML("1: one\ntrue: yes")`, Result: `{"1": "one", "true": "yes"}`},
			{Expr: `parseYAML("- a\n- 2.5\n- null")`, Result: `["a", 2.5, null]`},
			{Expr: `parseYAML("")`, Result: "null"},
			{Expr: `parseYAML("a: b: c")`, Error: "parseYAML: [1:4] mapping value is not allowed in this context"},
			{Expr: `parseYAML("a: 1\n---\nb: 2")`, Error: "parseYAML: more than one document"},
			{Expr: `parseYAML("a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]")`, Error: "parseYAML: aliases expand the document beyond twice its size"},
		},
		Cost: "1 plus 10 per character of the text (YAML decoding is about ten times slower than JSON decoding). Adversarial documents within the limits (deep brackets, many distinct anchors) take up to about ten times longer than charged, about a second at most. The result's size is estimated as at most twice the text's size plus 2, with its entries bounded the same way two levels deep.",
	}
	return spec{
		doc: d,
		decl: cel.Function("parseYAML", cel.FunctionDocs(d.Summary),
			cel.Overload(overloadParseYAML, []*cel.Type{cel.StringType}, cel.DynType,
				cel.OverloadExamples(examplesOf(d)...),
				cel.UnaryBinding(parseYAML))),
		models: []cost.OverloadModel{
			cost.Overload(overloadParseYAML,
				cost.EvalCost(cost.Sum(cost.Const(cost.CallCost), cost.Scale(cost.Length(cost.Arg(0)), yamlCostPerCharacter))),
				cost.ResultSize(nestedAtMost(cost.Sum(cost.Scale(cost.Arg(0), 2), cost.Const(2)), resultSizeDepth))),
		},
	}
}

// yamlCostPerCharacter is parseYAML's cost per character of text. Decoding
// and converting YAML with goccy/go-yaml measures about ten times slower per
// byte than JSON with encoding/json, which is priced at 1 per character.
const yamlCostPerCharacter = 10

// resultSizeDepth is how many levels of nesting the result size estimates of
// parseJSON and parseYAML describe.
const resultSizeDepth = 2

// nestedAtMost describes a value of size at most n under any sizing strategy
// whose entries (elements of a list, keys and values of a map) are also of
// size at most n, down to depth levels of nesting. Describing the entries
// lets cost estimation bound comprehensions over a parsed document and over
// its fields, e.g. parseJSON(s).items.exists(i, ...).
//
// The bound holds because a document's entry count and each part's size are
// at most its own size: the Map shape states the entries, and the Min with
// AtMost(n) keeps the total at n under the aggregate strategy, where Map alone
// would multiply entry count and entry size.
func nestedAtMost(n cost.QuantityExpr, depth int) cost.QuantityExpr {
	if depth == 0 {
		return cost.AtMost(n)
	}
	return cost.Min(cost.AtMost(n), cost.Map(cost.AtMost(n), cost.AtMost(n), nestedAtMost(n, depth-1)))
}
