package stdlib

import (
	"maps"
	"slices"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/ext"
)

func TestPinnedVersionConstants(t *testing.T) {
	got := map[string]uint32{}
	for _, e := range Extensions() {
		got[e.Name] = e.Version
	}
	want := map[string]uint32{
		"cel.lib.optional":         4,
		"cel.lib.ext.strings":      5,
		"cel.lib.ext.lists":        5,
		"cel.lib.ext.sets":         0,
		"cel.lib.ext.math":         3,
		"cel.lib.ext.encoders":     2,
		"cel.lib.ext.cel.bindings": 1,
		"cel.lib.ext.comprev2":     0,
	}
	if !maps.Equal(got, want) {
		t.Errorf("Extensions() versions = %v, want %v", got, want)
	}
	if CostModelVersion != 1 {
		t.Errorf("CostModelVersion = %d, want 1", CostModelVersion)
	}
}

// Library registers itself and every pinned extension; applying it twice is
// harmless.
func TestLibrariesEnabled(t *testing.T) {
	env := newEnv(t, Library())
	for _, name := range append([]string{LibraryName, "cel.lib.std"}, extensionNames()...) {
		if !env.HasLibrary(name) {
			t.Errorf("library %s is not enabled", name)
		}
	}
	if got, want := len(env.Libraries()), len(Extensions())+2; got != want {
		t.Errorf("env has %d libraries %v, want %d", got, env.Libraries(), want)
	}
}

func extensionNames() []string {
	var names []string
	for _, e := range Extensions() {
		names = append(names, e.Name)
	}
	return names
}

// Features introduced at each pinned version are available.
func TestPinnedVersionFeatures(t *testing.T) {
	checkAll(t, []expect{
		// optional types: v2 first/last, v3 hasValue(v), v4 single-evaluation optMap
		{expr: `[1, 2].first().value()`, result: `1`},
		{expr: `optional.of(1).hasValue(1)`, result: `true`},
		{expr: `optional.of(2).optMap(x, x * 2).value()`, result: `4`},
		{expr: `{"a": 1}.?b.orValue(0)`, result: `0`},
		// strings: v1 format and quote, v2 join, v3 reverse, v5 precision limit of 100
		{expr: `"%d-%s".format([1, "a"])`, result: `"1-a"`},
		{expr: `strings.quote("a\"b")`, result: `"\"a\\\"b\""`},
		{expr: `["a", "b"].join("/")`, result: `"a/b"`},
		{expr: `"abc".reverse()`, result: `"cba"`},
		{expr: `"%.100f".format([1.0]).size()`, result: `102`},
		{expr: `"%.101f".format([1.0])`, err: `could not parse formatting clause: error while parsing precision: precision 101 exceeds maximum allowed precision 100`},
		{expr: `" x ".trim().upperAscii()`, result: `"X"`},
		// lists: v1 flatten, v2 sort/distinct/range, v5 hasAll/hasAny/hasOnly/hasExactly
		{expr: `[[1], [2]].flatten()`, result: `[1, 2]`},
		{expr: `[3, 1, 3].distinct().sort()`, result: `[1, 3]`},
		{expr: `lists.range(3)`, result: `[0, 1, 2]`},
		{expr: `[1, 2, 3].hasAll([2, 3])`, result: `true`},
		{expr: `[1, 2].hasAny([3])`, result: `false`},
		{expr: `[1, 1].hasOnly([1, 2])`, result: `true`},
		{expr: `[1, 2].hasExactly([2, 1, 1])`, result: `true`},
		// sets
		{expr: `sets.contains([1, 2, 3], [2])`, result: `true`},
		{expr: `sets.intersects([1], [2])`, result: `false`},
		// math: v1 rounding and classification, v2 sqrt
		{expr: `math.greatest([1, 5, 3])`, result: `5`},
		{expr: `math.round(2.5)`, result: `3.0`},
		{expr: `math.isNaN(0.0 / 0.0)`, result: `true`},
		{expr: `math.sqrt(16)`, result: `4.0`},
		// encoders: v1 json.encode, v2 URL base64 and json/yaml parsing
		{expr: `base64.encode(b"hi")`, result: `"aGk="`},
		{expr: `json.encode({"a": 1})`, result: `'{"a":1}'`},
		{expr: `base64.encodeUrl(b"\xff\xfe")`, result: `"__4="`},
		// bindings
		{expr: `cel.bind(x, 2, x * x)`, result: `4`},
		// two-variable comprehensions
		{expr: `[10, 20].all(i, v, v > i)`, result: `true`},
		{expr: `{"a": 1}.transformMap(k, v, v + 1)`, result: `{"a": 2}`},
		// functions of extensions that are not enabled are absent
		{expr: `regex.extract("abc", "b")`, err: `undeclared reference to 'regex'`},
		{expr: `ip("127.0.0.1")`, err: `undeclared reference to 'ip'`},
	})
	env := newEnv(t)
	if !env.HasFunction("cel.@block") {
		t.Error("bindings v1 (cel.@block) is not enabled")
	}
	for _, fn := range []string{"regex.replace", "regex.extract", "ip", "cidr", "isIP", "strings.format"} {
		if env.HasFunction(fn) {
			t.Errorf("%s is declared, but its library is not part of the stdlib", fn)
		}
	}
}

// The pinned versions are the newest cel-go offers: an environment with every
// library at its latest version declares exactly the same functions, overloads
// and macros. When a cel-go upgrade adds a library version this test fails, so
// that adopting it is a deliberate change (raise the pin, update docs/stdlib.md).
func TestPinnedVersionsAreLatest(t *testing.T) {
	pinned := newEnv(t)
	latest, err := cel.NewEnv(
		cel.OptionalTypes(), ext.Strings(), ext.Lists(), ext.Sets(), ext.Math(),
		ext.Encoders(), ext.Bindings(), ext.TwoVarComprehensions())
	if err != nil {
		t.Fatal(err)
	}
	latest, err = latest.Extend(cel.Lib(&library{}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := declared(pinned), declared(latest); !slices.Equal(got, want) {
		t.Errorf("pinned environment declares\n%v\nlatest declares\n%v", got, want)
	}
}

// declared lists an environment's overload ids and macro keys.
func declared(env *cel.Env) []string {
	var out []string
	for name, fn := range env.Functions() {
		for _, o := range fn.OverloadDecls() {
			out = append(out, name+"/"+o.ID())
		}
	}
	for _, m := range env.Macros() {
		out = append(out, "macro/"+m.MacroKey())
	}
	slices.Sort(out)
	return out
}

// A lower pin would change the language: checks that the pins are effective,
// by comparing with one version below where that removes functions.
func TestPinsAreEffective(t *testing.T) {
	lib := declared(newEnv(t))
	for _, c := range []struct {
		name string
		opt  cel.EnvOption
		gone string
	}{
		{"lists", ext.Lists(ext.ListsVersion(ListsVersion - 1)), "hasAll/list_hasAll_list"},
		{"encoders", ext.Encoders(ext.EncodersVersion(EncodersVersion - 1)), "base64.encodeUrl/base64_encode_url_bytes"},
		{"optional", cel.OptionalTypes(cel.OptionalTypesVersion(OptionalTypesVersion - 2)), "hasValue/optional_hasValue_value"},
		{"bindings", ext.Bindings(ext.BindingsVersion(BindingsVersion - 1)), "cel.@block/cel_block_list"},
	} {
		// the older library is applied first, so Library's pinned copy of the
		// (singleton) library is skipped
		env, err := cel.NewEnv(c.opt, Library())
		if err != nil {
			t.Fatal(err)
		}
		older := declared(env)
		if !slices.Contains(lib, c.gone) || slices.Contains(older, c.gone) {
			t.Errorf("%s: %s should be declared at the pinned version only", c.name, c.gone)
		}
	}
}
