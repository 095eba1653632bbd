package frame

import (
	"bytes"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/tenetlang/tenet/eval/run"
)

// Peek is what a reader can say of a record without reading its
// transcript: the run's meta and record as its Decoder would give them,
// but for the members named in Unread, which the peek did not decode
// (a source expression that reads record.<one of them> needs the record
// decoded). The pipeline peeks so that a record no contract selects is
// never fully decoded (docs/performance.md, "Select before decoding").
type Peek struct {
	Meta, Record map[string]any
	// Unread are the members of Record left undecoded (the transcript).
	Unread []string
	// Check reports whether the whole record is JSON the Decoder's
	// decoding accepts; the peek itself does not check the members it
	// skips, so that a record some contract selects is not checked twice.
	Check func() bool
	// Raw is the Unread member's bytes as SkimObject found them, for
	// PeekDecoder: the record's full decode decodes only them.
	Raw []byte
}

// Messages decodes a peeked record's unread member (p.Raw), which must
// be a list, and puts it in p.Record: the part every PeekDecoder shares
// before building the run. ok false means the Decoder must decide.
func (p Peek) Messages() (msgs []any, ok bool) {
	var v any
	if jsonv2.Unmarshal(p.Raw, &v) != nil {
		return nil, false
	}
	if msgs, ok = v.([]any); !ok {
		return nil, false
	}
	p.Record[p.Unread[0]] = v
	return msgs, true
}

// PeekDecoder is a reader's Decoder of a record it has peeked at (p, ok
// from its Peeker), reusing the peek: only p.Raw is decoded, the run's
// meta and other members are p's (the run holds p.Record, which it
// completes). ok false means the record is not one it passes — its
// unread member is not JSON the decoder accepts, or the Decoder refuses
// it — and the Decoder, given the record's bytes, then says why. When ok,
// rn is what the Decoder gives on those bytes; Origin is left to set.
// Select before decoding uses it so that a record a contract selects is
// not read twice (docs/performance.md).
type PeekDecoder func(p Peek) (rn *run.Run, ok bool)

// Peeker is a reader's peek at one record's bytes, as its framer gives
// them. ok false means it cannot tell cheaply (not the shape the reader's
// records have, or a record its Decoder skips or refuses before reading
// the transcript): the record is then decoded. When ok, the Decoder,
// given the same bytes, returns a run whose Meta is p.Meta and whose
// Record is p.Record with the Unread members decoded, or refuses the
// record for its Unread members — only when p.Check() holds; a record
// failing Check is refused by the Decoder as invalid JSON.
type Peeker func(data []byte) (p Peek, ok bool)

// SkimObject reads data, which must be a JSON object, member by member:
// each member but the one named skip decoded as a decoder of the whole
// record would (go-json-experiment/json into any), the member skip (the
// first one of that name) only found, its raw bytes returned. ok is false
// when data is not an object, or a member name holds an escape (compared
// as written, it could hide skip), or a member cannot be decoded.
//
// ok is also false, so that ok promises what follows, for a member name
// that is not valid UTF-8 or holds a control character, a name given
// twice, and a member nested deeper than skimMaxDepth.
//
// SkimObject does not check the bytes it skips: on bytes that are not
// valid JSON it may return anything, and a caller that relies on them
// checks the whole record (build.Decodable) before it does — or decodes
// them (jsonv2.Unmarshal into any): when ok and they decode, data is JSON
// a decoder of the whole record accepts, giving obj with skip's decoded
// value added (every member was decoded, the object's own syntax is
// checked here, no name repeats, and the nesting stays far within the
// decoder's limit of frame.DefaultMaxDepth, which therefore a decoder of
// a member alone meets exactly when a decoder of the whole does: never).
func SkimObject(data []byte, skip string) (obj map[string]any, skipped []byte, ok bool) {
	i := space(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, nil, false
	}
	obj = map[string]any{}
	i = space(data, i+1)
	if i < len(data) && data[i] == '}' {
		return obj, nil, space(data, i+1) == len(data)
	}
	for i < len(data) {
		if data[i] != '"' {
			return nil, nil, false
		}
		end := stringEnd(data, i)
		if end < 0 {
			return nil, nil, false
		}
		name := data[i+1 : end-1]
		if !plainName(name) {
			return nil, nil, false
		}
		if _, dup := obj[string(name)]; dup || (skipped != nil && string(name) == skip) {
			return nil, nil, false
		}
		i = space(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, nil, false
		}
		start := space(data, i+1)
		vend, depth := valueEnd(data, start)
		if vend < 0 || depth > skimMaxDepth {
			return nil, nil, false
		}
		if string(name) == skip {
			skipped = data[start:vend]
		} else {
			var v any
			if err := jsonv2.Unmarshal(data[start:vend], &v); err != nil {
				return nil, nil, false
			}
			obj[string(name)] = v
		}
		i = space(data, vend)
		if i >= len(data) {
			return nil, nil, false
		}
		switch data[i] {
		case ',':
			i = space(data, i+1)
		case '}':
			return obj, skipped, space(data, i+1) == len(data)
		default:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// skimMaxDepth bounds the nesting of a member SkimObject passes: far
// below the decoder's limit (DefaultMaxDepth) even with the levels that
// enclose the object, so that a member decoded alone is accepted exactly
// when it is inside the whole record. A deeper record is not skimmed (its
// reader decodes it whole).
const skimMaxDepth = 1000

// plainName reports whether a member name, as written between its quotes,
// is one the decoder reads as written: no escape (compared as written, an
// escaped name could hide another), valid UTF-8 and no control character
// (which the decoder refuses).
func plainName(name []byte) bool {
	for _, c := range name {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.Valid(name)
}

// space returns the index of the first byte at or after i that is not
// JSON white space.
func space(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the index just past the string starting at data[i]
// (a '"'), or -1 when it does not end.
func stringEnd(data []byte, i int) int {
	i++
	for {
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			return -1
		}
		q := i + k
		// The quote is escaped when an odd number of backslashes
		// precede it.
		n := 0
		for p := q - 1; p >= i && data[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// valueEnd returns the index just past the value starting at data[i], or
// -1, and how deeply the value nests (of a valid value, its nesting: 0
// for a scalar): strings are skipped whole, brackets matched, and a
// scalar runs to the next delimiter. Only the extent is found, not
// whether the value is valid.
func valueEnd(data []byte, i int) (end, maxDepth int) {
	if i >= len(data) {
		return -1, 0
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i), 0
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				if i = stringEnd(data, i); i < 0 {
					return -1, 0
				}
				continue
			case '{', '[':
				depth++
				maxDepth = max(maxDepth, depth)
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, maxDepth
				}
			}
			i++
		}
		return -1, 0
	}
	for k := i; k < len(data); k++ {
		switch data[k] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return k, 0
		}
	}
	return len(data), 0
}
