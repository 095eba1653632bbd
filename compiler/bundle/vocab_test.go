package bundle

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// TestOpTextForms pins the instruction names: they are the bundle's
// encoding, so renaming one changes every bundle id.
func TestOpTextForms(t *testing.T) {
	var got []string
	for _, o := range Ops() {
		got = append(got, o.String())
	}
	want := []string{"step", "not", "any", "split", "jmp", "bol", "eol", "match"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ops %v, want %v", got, want)
	}
	var kinds []string
	for _, k := range Kinds() {
		kinds = append(kinds, k.String())
	}
	wantKinds := []string{"any", "string", "int", "double", "bool", "list", "map", "object"}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Fatalf("kinds %v, want %v", kinds, wantKinds)
	}
}

// TestEveryOp fails when an instruction lacks a name, a validation rule or
// a disassembly: for each Op, the program "op; match" (operands 1, which
// name a step and a target alike) must validate and disassemble to a line
// starting with its name, and its CBOR form must be its name as a text
// string. (eval's TestVMRunsEveryOp checks the VM has a case for each.)
func TestEveryOp(t *testing.T) {
	steps := []StepPlan{{Name: "a", When: NoExpr}, {Name: "b", When: NoExpr}}
	for _, o := range Ops() {
		name := o.String()
		if back, ok := ParseOp(name); !ok || back != o || strings.HasPrefix(name, "op(") {
			t.Errorf("op %d: name %q parses back to %v, %v", o, name, back, ok)
		}
		pt := PatternPlan{Steps: steps, Program: []Inst{{Op: o, X: 1, Y: 1}, {Op: OpMatch}}}
		if errs := validProgram("p", pt); len(errs) > 0 {
			t.Errorf("%s: Validate has no rule for it: %v", name, errs)
		}
		if d := disasm(pt.Program[0], pt); !strings.HasPrefix(d, name) || strings.HasPrefix(d, "unknown") {
			t.Errorf("%s: disassembles as %q", name, d)
		}
		data, err := cbor.Marshal(Inst{Op: o})
		want, _ := cbor.Marshal(struct {
			Op string `cbor:"op"`
			X  int    `cbor:"x"`
			Y  int    `cbor:"y"`
		}{Op: name})
		if err != nil || !bytes.Equal(data, want) {
			t.Errorf("%s: encodes as %x (%v), want the text form %x", name, data, err, want)
		}
	}
	// Outside the set: refused by Validate, by the encoder, and visible in
	// the disassembly.
	for _, o := range []Op{0, opEnd, 255} {
		pt := PatternPlan{Steps: steps, Program: []Inst{{Op: o}, {Op: OpMatch}}}
		errs := validProgram("p", pt)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "instruction 0 has unknown op "+o.String()) {
			t.Errorf("op %d: Validate says %v", o, errs)
		}
		if _, err := cbor.Marshal(Inst{Op: o}); err == nil {
			t.Errorf("op %d encodes", o)
		}
		if d := disasm(pt.Program[0], pt); d != "unknown "+o.String()+" 0 0" {
			t.Errorf("op %d disassembles as %q", o, d)
		}
	}
}

// fits is, per kind, a value of that kind and one that is not.
var fits = map[Kind]struct{ good, bad any }{
	KindAny:    {nil, nil}, // nothing fails any
	KindString: {"x", 1.0},
	KindInt:    {-3.0, 2.5},
	KindDouble: {2.5, "2.5"},
	KindBool:   {true, "true"},
	KindList:   {[]any{1.0}, map[string]any{}},
	KindMap:    {map[string]any{"k": 1.0}, []any{}},
	KindObject: {map[string]any{}, []any{}},
}

// TestEveryKind fails when a kind lacks a name, a CBOR text form or a case
// in CheckValue (a kind without one fits nothing).
func TestEveryKind(t *testing.T) {
	for _, k := range Kinds() {
		name := k.String()
		if back, ok := ParseKind(name); !ok || back != k {
			t.Errorf("kind %d: name %q parses back to %v, %v", k, name, back, ok)
		}
		data, err := cbor.Marshal(Type{Kind: k})
		want, _ := cbor.Marshal(struct {
			Kind string `cbor:"kind"`
		}{Kind: name})
		if err != nil || !bytes.Equal(data, want) {
			t.Errorf("%s: encodes as %x (%v), want %x", name, data, err, want)
		}
		f, ok := fits[k]
		if !ok {
			t.Errorf("%s: no sample values in this test", name)
			continue
		}
		if p := CheckValue("v", f.good, Type{Kind: k}); p != nil {
			t.Errorf("%s: CheckValue refuses %#v: %+v", name, f.good, p)
		}
		if p := CheckValue("v", f.bad, Type{Kind: k}); (p == nil) != (k == KindAny) {
			t.Errorf("%s: CheckValue of %#v gives %+v", name, f.bad, p)
		}
	}
	if p := CheckValue("v", "x", Type{}); p == nil || p.Path != "v" {
		t.Errorf("a type with no kind accepts a value: %+v", p)
	}
	if _, err := cbor.Marshal(Type{}); err == nil {
		t.Error("a type with no kind encodes")
	}
}

// TestUnknownNamesAreRefused: a payload naming an instruction or a kind
// this tenet does not know (with its sha256 right: a bundle from another
// tool, or edited and re-hashed) is refused when decoded, naming it.
func TestUnknownNamesAreRefused(t *testing.T) {
	b := sample()
	b.Decls.Tools = []Tool{{Name: "send", Operation: "update", HasSchema: true, Params: []Field{{Name: "to", Type: Type{Kind: KindList, Elem: &Type{Kind: KindString}}}}}}
	data, _, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
	var env envelope
	if err := decMode().Unmarshal(data[len(Magic):], &env); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"\x65split", "\x65fork!", `bundle payload does not decode: pattern instruction "fork!" is not one this tenet knows (step, not, any, split, jmp, bol, eol, match)`},
		{"\x66string", "\x66strong", `bundle payload does not decode: parameter type kind "strong" is not one this tenet knows (any, string, int, double, bool, list, map, object)`},
	} {
		if bytes.Count(env.Payload, []byte(tc.from)) != 1 {
			t.Fatalf("%q occurs %d times in the payload", tc.from, bytes.Count(env.Payload, []byte(tc.from)))
		}
		payload := bytes.Replace(env.Payload, []byte(tc.from), []byte(tc.to), 1)
		sum := sha256.Sum256(payload)
		e, err := encMode().Marshal(envelope{Format: FormatVersion, SHA256: sum[:], Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Decode(append([]byte(Magic), e...))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s → %s: %v\nwant %s", tc.from, tc.to, err, tc.want)
		}
	}
}

// TestValidateRefusesKindless: a Bundle built in memory with a parameter
// type of no kind (at any depth) is inconsistent.
func TestValidateRefusesKindless(t *testing.T) {
	b := sample()
	b.Decls.Tools = []Tool{{Name: "send", Params: []Field{{Name: "to", Type: Type{Kind: KindObject, Fields: []Field{{Name: "a", Type: Type{Kind: KindList, Elem: &Type{}}}}}}}}}
	err := b.Validate()
	if err == nil || err.Error() != "tool send parameter to.a element has type kind kind(0)" {
		t.Fatalf("Validate: %v", err)
	}
}

func TestCheckValue(t *testing.T) {
	str, num := Type{Kind: KindString}, Type{Kind: KindInt}
	item := Type{Kind: KindObject, Fields: []Field{{Name: "id", Type: num}, {Name: "note", Type: str, Optional: true}}}
	args := Type{Kind: KindObject, Fields: []Field{
		{Name: "items", Type: Type{Kind: KindList, Elem: &item}},
		{Name: "tags", Type: Type{Kind: KindMap, Elem: &str}, Optional: true},
		{Name: "to", Type: str},
	}}
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name string
		v    any
		want string // path, then the problem
	}{
		{"fits", obj("to", "bob", "items", []any{obj("id", 1.0), obj("id", 2.0, "note", nil)}), ""},
		{"optional absent or null", obj("to", "bob", "items", []any{}, "tags", nil), ""},
		{"top members first", obj("to", 1.0, "x", 1.0, "y", 2.0), `"": missing items; unexpected x, y`},
		{"null required", obj("to", nil, "items", []any{}), `"to": <nil> is not string`},
		{"list element", obj("to", "b", "items", []any{obj("id", 1.0), obj("id", 1.5)}), `"items[1].id": 1.5 is not int`},
		{"nested members", obj("to", "b", "items", []any{obj("id", 1.0, "z", true)}), `"items[0]": unexpected z`},
		{"map keys sorted", obj("to", "b", "items", []any{}, "tags", obj("b", 1.0, "a", true)), `"tags.a": true is not string`},
		{"not an object", []any{}, `"": [] is not object({items = list(object({id = int, note = optional(string)})), tags = optional(map(string)), to = string})`},
	} {
		p := CheckValue("", tc.v, args)
		got := ""
		if p != nil {
			if p.Missing != nil || p.Unexpected != nil {
				got = strings.TrimSpace(strings.Join([]string{`"` + p.Path + `":`, p.Members()}, " "))
			} else {
				got = `"` + p.Path + `": ` + fmt.Sprint(p.Value) + " is not " + p.Type.String()
			}
		}
		if got != tc.want {
			t.Errorf("%s: %s\nwant  %s", tc.name, got, tc.want)
		}
	}
}

// TestInt: whole float64s within int64 only; 2^63 itself is out.
func TestInt(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int64
		ok   bool
	}{
		{3.0, 3, true}, {-0.0, 0, true}, {2.5, 0, false}, {"3", 0, false}, {true, 0, false}, {nil, 0, false},
		{-9223372036854775808.0, -1 << 63, true}, {9223372036854775808.0, 0, false}, {1e300, 0, false},
	} {
		got, ok := Int(tc.v)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Int(%v) = %d, %v; want %d, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

func TestTypeText(t *testing.T) {
	ty := Type{Kind: KindList, Elem: &Type{Kind: KindObject, Fields: []Field{
		{Name: "a", Type: Type{Kind: KindString}},
		{Name: "b", Type: Type{Kind: KindMap}, Optional: true},
	}}}
	if got, want := ty.Text(Contract), "list(object({a = string, b = optional(map(any))}))"; got != want || ty.String() != want {
		t.Errorf("contract style %q, want %q", got, want)
	}
	if got, want := ty.Text(Listing), "list(object({a: string, b: optional(map(any))}))"; got != want {
		t.Errorf("listing style %q, want %q", got, want)
	}
}
