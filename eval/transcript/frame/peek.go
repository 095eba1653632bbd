package frame

import (
	"bytes"

	jsonv2 "github.com/go-json-experiment/json"
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
}

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
// SkimObject does not check the bytes it skips: on bytes that are not
// valid JSON it may return anything, and a caller that relies on them
// checks the whole record (build.Decodable) before it does.
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
		if bytes.IndexByte(name, '\\') >= 0 {
			return nil, nil, false
		}
		i = space(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, nil, false
		}
		start := space(data, i+1)
		vend := valueEnd(data, start)
		if vend < 0 {
			return nil, nil, false
		}
		if string(name) == skip && skipped == nil {
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
// -1: strings are skipped whole, brackets matched, and a scalar runs to
// the next delimiter. Only the extent is found, not whether the value is
// valid.
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				if i = stringEnd(data, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for k := i; k < len(data); k++ {
		switch data[k] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return k
		}
	}
	return len(data)
}
