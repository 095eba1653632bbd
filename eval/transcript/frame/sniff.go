package frame

import (
	"bytes"
	"encoding/json"
)

// SniffBytes is how much of the start of a file (decompressed) a format's
// sniffer is shown: 64 KiB, which may end inside a record.
const SniffBytes = 64 << 10

// Sniffer says whether h, the Scan of the first up to SniffBytes of a
// file, looks like its format. It must decide by the format's distinctive
// members, so that a file is claimed by one format only; a head that ends
// inside a record is scanned up to the cut. (Each reader package also has
// Sniff(head []byte) bool, the same over raw bytes.)
type Sniffer func(h Head) bool

// Head is what the sniffers look at: the start of a file read as JSON
// tokens as far as they go (a head cut inside a record, or that is not
// JSON at all, yields what came before the cut).
type Head struct {
	// ZIP is true when the file starts with a ZIP local file header.
	ZIP bool
	// Keys are the member names of the records' objects: the objects with
	// no object above them (a JSONL line's object, an element of a
	// top-level array).
	Keys map[string]bool
	// Inner are the member names of the objects that are a record's
	// member values (a logged call's "request"), not of objects in lists.
	Inner map[string]bool
	// Types are the string values of every "type" member, at any depth.
	Types map[string]bool
	// Strings are the string values of record members (Keys), by name,
	// the first one seen.
	Strings map[string]string
}

// maxSniffTokens bounds the work of Scan on a pathological head.
const maxSniffTokens = 1 << 16

// Scan reads head as a stream of JSON values (one JSON document, or JSONL
// lines) with encoding/json's tokenizer and collects a Head. It stops at
// the first token it cannot read, which is where a cut head ends.
func Scan(head []byte) Head {
	h := Head{Keys: map[string]bool{}, Inner: map[string]bool{}, Types: map[string]bool{}, Strings: map[string]string{}}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		h.ZIP = true
		return h
	}
	dec := json.NewDecoder(bytes.NewReader(head))
	// stack holds, per open container, '{' or '['; objs counts the
	// objects on it, and key is the pending member name of the innermost
	// object (set when a name was read, cleared by its value).
	var stack []byte
	objs := 0
	type frameState struct {
		key    string
		direct bool // the object is a member value of a record
	}
	var keys []frameState
	for range maxSniffTokens {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		inObj := len(stack) > 0 && stack[len(stack)-1] == '{'
		// A string in an object is a name when no name is pending.
		if inObj && keys[len(keys)-1].key == "" {
			if s, ok := tok.(string); ok {
				keys[len(keys)-1].key = s
				switch objs {
				case 1:
					h.Keys[s] = true
				case 2:
					if keys[len(keys)-1].direct {
						h.Inner[s] = true
					}
				}
				continue
			}
		}
		name := ""
		if inObj {
			name = keys[len(keys)-1].key
			keys[len(keys)-1].key = ""
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, '{')
				keys = append(keys, frameState{direct: inObj && objs == 1})
				objs++
			case '[':
				stack = append(stack, '[')
			default:
				if len(stack) > 0 && stack[len(stack)-1] == '{' {
					keys = keys[:len(keys)-1]
					objs--
				}
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		case string:
			if name == "type" {
				h.Types[t] = true
			}
			if objs == 1 && name != "" {
				if _, seen := h.Strings[name]; !seen {
					h.Strings[name] = t
				}
			}
		}
	}
	return h
}

// Any reports whether any of names is in set.
func Any(set map[string]bool, names ...string) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
