// Package stdlib is tenet's CEL function library: the one environment option
// that the compiler uses to declare and type-check criteria and that eval uses
// to run them (docs/language.md).
//
// Library enables a fixed set of cel-go extensions at pinned versions and adds
// tenet's own functions and the fold macro:
//
//	num(dyn) -> double                              numeric coercion (Python/pydantic style)
//	truthy(dyn) -> bool                             Python truthiness
//	LIST.fold(acc, INIT, x, STEP)                   left fold (macro)
//	approx(dyn, dyn, dyn) -> bool                   |a - b| <= tol, numbers coerced with num
//	eqFold(string, string) -> bool                  Unicode case-insensitive equality
//	containsFold(string, string) -> bool            Unicode case-insensitive substring test
//	parseJSON(string) -> dyn                        JSON text to a CEL value
//	parseYAML(string) -> dyn                        YAML text to a CEL value
//	parseTime(string) -> google.protobuf.Timestamp  RFC 3339 and common date layouts
//	arg(map(string, dyn), string, dyn) -> dyn       map value, or a default when absent or null
//	unknown(string) -> dyn                          the label is unknown, with this reason
//
// and, from package stdlib/bulk, functions that do a comprehension's job in
// Go with the comprehension's exact results and errors:
//
//	copiedFrom(map, string, string, int) -> bool    some string value of the map, n code points or more, in one text and not the other
//	map.with(map) -> map                            entries replaced or added
//	list.without(list) -> list                      a.filter(x, !(x in b))
//
// Each function is declared with its implementation (cel.Function with overload
// bindings) so that the same option serves type-checking and evaluation, and
// each overload carries a cost model (cel.CostModel) so that static cost
// estimation and runtime cost tracking price it. Functions returns
// machine-readable documentation of every tenet function, from which
// docs/stdlib.md is generated.
//
// The package holds no mutable state: Library and Functions build fresh values
// on every call.
package stdlib

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/ext"
)

// Pinned versions of the cel-go libraries that Library enables: the newest
// each library offers in cel.dev/cel-go v0.33.2. They are pinned so that a
// bundle checked today means the same tomorrow: upgrading cel-go does not
// silently add functions, change macro expansions or change cost estimates.
// Raising one is a deliberate change to the language (and to TestPinnedVersionsAreLatest).
const (
	// StringsVersion pins ext.Strings: charAt, indexOf, lastIndexOf,
	// lowerAscii, upperAscii, replace, split, substring, trim (v0), format and
	// strings.quote (v1), join (v2), reverse (v3), format per the cel-spec (v4),
	// cost models and a default format precision limit of 100 (v5).
	StringsVersion uint32 = 5
	// ListsVersion pins ext.Lists: slice (v0), flatten (v1), distinct, range,
	// reverse, sort, sortBy (v2), cost models (v3, v4), hasOnly, hasAny,
	// hasAll, hasExactly (v5).
	ListsVersion uint32 = 5
	// SetsVersion pins ext.Sets: sets.contains, sets.equivalent,
	// sets.intersects. The library has a single version, 0.
	SetsVersion uint32 = 0
	// MathVersion pins ext.Math: math.greatest and math.least (v0), the
	// rounding, sign, bitwise and classification functions (v1), math.sqrt
	// (v2), cost models for greatest/least over lists (v3).
	MathVersion uint32 = 3
	// EncodersVersion pins ext.Encoders: base64.decode/encode (v0),
	// json.encode (v1), base64 URL encodings, json.parse, yaml.encode and
	// yaml.parse (v2; requires OptionalTypes).
	EncodersVersion uint32 = 2
	// BindingsVersion pins ext.Bindings: the cel.bind macro (v0) and
	// cel.@block (v1).
	BindingsVersion uint32 = 1
	// TwoVarComprehensionsVersion pins ext.TwoVarComprehensions: two-variable
	// all, exists, existsOne, transformList, transformMap, transformMapEntry.
	// The library has a single version, 0.
	TwoVarComprehensionsVersion uint32 = 0
	// OptionalTypesVersion pins cel.OptionalTypes: optional values and the
	// `?.`/`[?]` syntax (v0), optFlatMap (v1), first, last, optional.unwrap,
	// unwrapOpt (v2), hasValue(v) (v3), single-evaluation optMap/optFlatMap (v4).
	OptionalTypesVersion uint32 = 4
	// CostModelVersion pins the revision of cel-go's cost model
	// (cel.CostModelVersion) used for static estimates and runtime tracking,
	// so that a bundle's recorded costs stay comparable across cel-go upgrades.
	CostModelVersion uint32 = 1
)

// LibraryName is the name under which Library registers itself in a cel.Env
// (see cel.Env.HasLibrary). Applying Library twice configures it once.
const LibraryName = "tenet.lib.stdlib"

// Extension describes one cel-go library that Library enables.
type Extension struct {
	// Name is the library's name in a cel.Env, e.g. "cel.lib.ext.strings".
	Name string `json:"name"`
	// Option is the Go expression Library uses to enable it.
	Option string `json:"option"`
	// Version is the pinned library version.
	Version uint32 `json:"version"`
	// Doc links to the library's documentation.
	Doc string `json:"doc"`
}

// Extensions lists the cel-go libraries that Library enables, with their
// pinned versions, in the order Library applies them.
func Extensions() []Extension {
	const pkg = "https://pkg.go.dev/cel.dev/cel-go@v0.33.2/"
	extension := func(name, option, versionOption string, version uint32, doc string) Extension {
		return Extension{
			Name:    name,
			Option:  fmt.Sprintf("%s(%s(%d))", option, versionOption, version),
			Version: version,
			Doc:     pkg + doc,
		}
	}
	return []Extension{
		extension("cel.lib.optional", "cel.OptionalTypes", "cel.OptionalTypesVersion", OptionalTypesVersion, "cel#OptionalTypes"),
		extension("cel.lib.ext.strings", "ext.Strings", "ext.StringsVersion", StringsVersion, "ext#Strings"),
		extension("cel.lib.ext.lists", "ext.Lists", "ext.ListsVersion", ListsVersion, "ext#Lists"),
		extension("cel.lib.ext.sets", "ext.Sets", "ext.SetsVersion", SetsVersion, "ext#Sets"),
		extension("cel.lib.ext.math", "ext.Math", "ext.MathVersion", MathVersion, "ext#Math"),
		extension("cel.lib.ext.encoders", "ext.Encoders", "ext.EncodersVersion", EncodersVersion, "ext#Encoders"),
		extension("cel.lib.ext.cel.bindings", "ext.Bindings", "ext.BindingsVersion", BindingsVersion, "ext#Bindings"),
		extension("cel.lib.ext.comprev2", "ext.TwoVarComprehensions", "ext.TwoVarComprehensionsVersion", TwoVarComprehensionsVersion, "ext#TwoVarComprehensions"),
	}
}

// Library returns the cel.EnvOption that configures a CEL environment with
// tenet's function library. It enables, at pinned versions (see the *Version
// constants):
//
//	cel.OptionalTypes(cel.OptionalTypesVersion(4))
//	ext.Strings(ext.StringsVersion(5))
//	ext.Lists(ext.ListsVersion(5))
//	ext.Sets(ext.SetsVersion(0))
//	ext.Math(ext.MathVersion(3))
//	ext.Encoders(ext.EncodersVersion(2))
//	ext.Bindings(ext.BindingsVersion(1))
//	ext.TwoVarComprehensions(ext.TwoVarComprehensionsVersion(0))
//	cel.CostModelVersion(1)
//
// and declares tenet's functions (num, truthy, approx, eqFold, containsFold,
// parseJSON, parseYAML, parseTime, arg, unknown, and stdlib/bulk's copiedFrom,
// with, without) with their implementations and cost
// models, and the fold macro. Use it with cel.NewEnv (which includes the CEL
// standard library); the same option serves the compiler (declarations,
// type-checking, cost estimation) and eval (bindings, cost tracking).
func Library() cel.EnvOption {
	return cel.Lib(&library{})
}

type library struct{}

// LibraryName implements cel.SingletonLibrary.
func (*library) LibraryName() string { return LibraryName }

// CompileOptions implements cel.Library.
func (*library) CompileOptions() []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.OptionalTypes(cel.OptionalTypesVersion(OptionalTypesVersion)),
		ext.Strings(ext.StringsVersion(StringsVersion)),
		ext.Lists(ext.ListsVersion(ListsVersion)),
		ext.Sets(ext.SetsVersion(SetsVersion)),
		ext.Math(ext.MathVersion(MathVersion)),
		ext.Encoders(ext.EncodersVersion(EncodersVersion)),
		ext.Bindings(ext.BindingsVersion(BindingsVersion)),
		ext.TwoVarComprehensions(ext.TwoVarComprehensionsVersion(TwoVarComprehensionsVersion)),
		cel.CostModelVersion(CostModelVersion),
	}
	var models []cost.OverloadModel
	for _, s := range specs() {
		opts = append(opts, s.decl)
		models = append(models, s.models...)
	}
	// guardBuilds comes last: it wraps the bindings declared above.
	return append(opts, cel.CostModel(models...), guardBuilds())
}

// ProgramOptions implements cel.Library: the runtime charges (track.go),
// in effect whenever a program tracks its cost.
func (*library) ProgramOptions() []cel.ProgramOption { return programOptions() }
