package gateway

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// listCheck is what the check of one tools/list result found.
type listCheck struct {
	// Undeclared are the tools the server offers that the contract does
	// not declare, in the server's order ("" for an entry without a
	// string name, which no contract can declare).
	Undeclared []string
	// Drift are declared tools whose inputSchema disagrees with the
	// contract's params, one sentence each.
	Drift []string
	// Result is the result with the undeclared tools removed (nil when
	// nothing was removed or hiding is off).
	Result jsontext.Value
}

// checkToolsList checks a tools/list result against the contract's tools;
// with hide, the result the client gets lists only declared tools. An
// error means the result is not {tools: [...]}: nothing was checked.
func checkToolsList(result jsontext.Value, tool func(string) (*bundle.Tool, bool), hide bool) (listCheck, error) {
	var members map[string]jsontext.Value
	if err := jsonv2.Unmarshal(result, &members); err != nil || members == nil {
		return listCheck{}, fmt.Errorf("the result is not an object {tools: [...]}")
	}
	var tools []jsontext.Value
	if err := jsonv2.Unmarshal(members["tools"], &tools); err != nil || tools == nil {
		return listCheck{}, fmt.Errorf("the result has no tools array")
	}
	var lc listCheck
	kept := tools[:0:0]
	for _, raw := range tools {
		var t struct {
			Name        *string        `json:"name"`
			InputSchema jsontext.Value `json:"inputSchema"`
		}
		if err := jsonv2.Unmarshal(raw, &t); err != nil || t.Name == nil {
			lc.Undeclared = append(lc.Undeclared, "")
			continue
		}
		decl, ok := tool(*t.Name)
		if !ok {
			lc.Undeclared = append(lc.Undeclared, *t.Name)
			continue
		}
		kept = append(kept, raw)
		if decl.HasSchema {
			lc.Drift = append(lc.Drift, schemaDrift(decl, t.InputSchema)...)
		}
	}
	if hide && len(lc.Undeclared) > 0 {
		members["tools"], _ = jsonv2.Marshal(kept)
		out, err := jsonv2.Marshal(members, jsonv2.Deterministic(true))
		if err != nil {
			return listCheck{}, fmt.Errorf("the result could not be rewritten: %v", err)
		}
		lc.Result = out
	}
	return lc, nil
}

// schemaDrift compares a tool's inputSchema with its declared params at
// the top level: the property names, which are required, and each
// property's JSON type against the param's kind. (A deeper comparison is
// the offline job of tenet import; this one is cheap enough to make on
// every tools/list.)
func schemaDrift(t *bundle.Tool, schema jsontext.Value) []string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := jsonv2.Unmarshal(schema, &s); err != nil {
		return []string{fmt.Sprintf("tool %q: inputSchema is not a JSON Schema object the gateway can read: %s", t.Name, clip(err.Error(), 120))}
	}
	var out []string
	declared := map[string]bool{}
	for _, p := range t.Params {
		declared[p.Name] = true
		prop, offered := s.Properties[p.Name]
		switch {
		case !offered:
			out = append(out, fmt.Sprintf("tool %q: param %q is declared by the contract, not in the server's inputSchema", t.Name, p.Name))
			continue
		case !p.Optional && !slices.Contains(s.Required, p.Name):
			out = append(out, fmt.Sprintf("tool %q: param %q is required by the contract, optional in the server's inputSchema", t.Name, p.Name))
		case p.Optional && slices.Contains(s.Required, p.Name):
			out = append(out, fmt.Sprintf("tool %q: param %q is optional in the contract, required by the server's inputSchema", t.Name, p.Name))
		}
		if typ, ok := prop.Type.(string); ok && !kindMatches(p.Type.Kind, typ) {
			out = append(out, fmt.Sprintf("tool %q: param %q is %s in the contract, %q in the server's inputSchema", t.Name, p.Name, p.Type.Kind, typ))
		}
	}
	var extra []string
	for name := range s.Properties {
		if !declared[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		out = append(out, fmt.Sprintf("tool %q: property %q of the server's inputSchema is not a param of the contract (a call using it is refused)", t.Name, name))
	}
	return out
}

// kindMatches reports whether JSON Schema type typ describes the values of
// kind k (as tenet import maps them).
func kindMatches(k bundle.Kind, typ string) bool {
	switch k {
	case bundle.KindAny:
		return true
	case bundle.KindString:
		return typ == "string"
	case bundle.KindInt:
		return typ == "integer"
	case bundle.KindDouble:
		return typ == "number" || typ == "integer"
	case bundle.KindBool:
		return typ == "boolean"
	case bundle.KindList:
		return typ == "array"
	case bundle.KindMap, bundle.KindObject:
		return typ == "object"
	}
	return false
}

// quoteNames renders tool names for a message.
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		if n == "" {
			q[i] = "(an entry without a name)"
		} else {
			q[i] = fmt.Sprintf("%q", clip(n, 80))
		}
	}
	return strings.Join(q, ", ")
}
