package celenv

import (
	"cel.dev/cel-go/common/types"

	"github.com/tenetlang/tenet/compiler/bundle"
)

// ToolsType is the object type of the `tools` variable: one field per
// declared tool, holding the list of that tool's calls with typed args.
const ToolsType = "tenet.Tools"

// ToolCallType names the call type of a tool: tenet.tools.<tool>.Call, a
// tenet.Call whose args field has the type derived from the tool's schema.
func ToolCallType(tool string) string { return "tenet.tools." + tool + ".Call" }

// ToolArgsType names the args type of a tool: tenet.tools.<tool>.Args.
func ToolArgsType(tool string) string { return "tenet.tools." + tool + ".Args" }

// toolStructs declares, for each tool, its typed call and args types
// (nested objects get their own types, named after their path), and the
// tenet.Tools type. A tool without a schema keeps tenet.Call (args
// map(string, dyn)).
func toolStructs(tools []bundle.Tool) []*Struct {
	toolsStruct := &Struct{Name: ToolsType, Fields: map[string]*types.Type{}}
	out := []*Struct{toolsStruct}
	for _, t := range tools {
		if !t.HasSchema {
			toolsStruct.Fields[t.Name] = types.NewListType(types.NewObjectType(CallType))
			continue
		}
		args, nested := objectStruct(ToolArgsType(t.Name), t.Params)
		out = append(out, args)
		out = append(out, nested...)
		call := &Struct{Name: ToolCallType(t.Name), Fields: map[string]*types.Type{}}
		for name, ft := range callFields() {
			call.Fields[name] = ft
		}
		call.Fields["args"] = types.NewObjectType(args.Name)
		// The arguments as sent, for harness-specific coercion (num()).
		call.Fields["raw_args"] = types.NewMapType(types.StringType, types.DynType)
		out = append(out, call)
		toolsStruct.Fields[t.Name] = types.NewListType(types.NewObjectType(call.Name))
	}
	return out
}

// objectStruct declares an object type named name with the given fields,
// and the types of its nested objects (name + "." + field).
func objectStruct(name string, fields []bundle.Field) (*Struct, []*Struct) {
	s := &Struct{Name: name, Fields: map[string]*types.Type{}}
	var nested []*Struct
	for _, f := range fields {
		t, more := celType(name+"."+f.Name, f.Type)
		s.Fields[f.Name] = t
		nested = append(nested, more...)
	}
	return s, nested
}

// celType maps a parameter type to its CEL type; objects become declared
// object types named path.
func celType(path string, t bundle.Type) (*types.Type, []*Struct) {
	switch t.Kind {
	case bundle.KindString:
		return types.StringType, nil
	case bundle.KindInt:
		return types.IntType, nil
	case bundle.KindDouble:
		return types.DoubleType, nil
	case bundle.KindBool:
		return types.BoolType, nil
	case bundle.KindList:
		if t.Elem == nil {
			return types.NewListType(types.DynType), nil
		}
		e, more := celType(path+".elem", *t.Elem)
		return types.NewListType(e), more
	case bundle.KindMap:
		if t.Elem == nil {
			return types.NewMapType(types.StringType, types.DynType), nil
		}
		e, more := celType(path+".value", *t.Elem)
		return types.NewMapType(types.StringType, e), more
	case bundle.KindObject:
		s, more := objectStruct(path, t.Fields)
		return types.NewObjectType(s.Name), append([]*Struct{s}, more...)
	}
	return types.DynType, nil // KindAny (Validate refuses a bundle with any other kind)
}
