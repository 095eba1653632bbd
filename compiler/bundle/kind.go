package bundle

import (
	"fmt"
	"strings"

	"github.com/fxamacker/cbor/v2"
)

// Kind is the kind of a tool parameter's type (Type.Kind): what the
// compiler emits from a contract's type expression, celenv turns into a
// CEL type, and the audit and conformance check arguments against
// (CheckValue). In memory a small integer; in the bundle its name, so
// bundle bytes and ids do not depend on the numbering. The zero Kind is no
// kind: a bundle holding one is refused.
type Kind uint8

// The kinds. Adding one means a name in kindNames, a case in CheckValue
// and in celenv's celType; TestEveryKind fails until the first two are
// there.
const (
	_          Kind = iota // not a kind
	KindAny                // any: every value, null included
	KindString             // string
	KindInt                // int: a JSON number with no fractional part, within int64
	KindDouble             // double: any JSON number
	KindBool               // bool
	KindList               // list(Elem)
	KindMap                // map(Elem): an object with string keys, every value an Elem
	KindObject             // object({Fields}): an object with exactly the declared members
	kindEnd                // one past the last kind
)

// kindNames is each kind's text form: what the bundle stores and messages
// print, the keyword a contract writes.
var kindNames = [kindEnd]string{
	KindAny:    "any",
	KindString: "string",
	KindInt:    "int",
	KindDouble: "double",
	KindBool:   "bool",
	KindList:   "list",
	KindMap:    "map",
	KindObject: "object",
}

// Kinds returns every kind, in numbering order.
func Kinds() []Kind {
	out := make([]Kind, 0, kindEnd-1)
	for k := KindAny; k < kindEnd; k++ {
		out = append(out, k)
	}
	return out
}

// Valid reports whether k is a kind.
func (k Kind) Valid() bool { return k > 0 && k < kindEnd }

// String is the kind's text form, e.g. "list"; an invalid Kind renders as
// "kind(N)".
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// ParseKind returns the kind whose text form is s.
func ParseKind(s string) (Kind, bool) {
	for k := KindAny; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, true
		}
	}
	return 0, false
}

// MarshalCBOR writes the text form, as the string-typed Kind of earlier
// tenets did, byte for byte.
func (k Kind) MarshalCBOR() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("parameter type %s is not a kind", k)
	}
	return cbor.Marshal(kindNames[k])
}

// UnmarshalCBOR reads the text form; a name this tenet does not know is
// refused when the bundle is decoded.
func (k *Kind) UnmarshalCBOR(data []byte) error {
	var s string
	if err := cbor.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("parameter type kind: %w", err)
	}
	kind, ok := ParseKind(s)
	if !ok {
		return fmt.Errorf("parameter type kind %q is not one this tenet knows (%s)", clipName(s), strings.Join(kindNames[1:], ", "))
	}
	*k = kind
	return nil
}
