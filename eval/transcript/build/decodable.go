package build

import (
	"bytes"
	"math"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Decodable reports whether DecodeJSON accepts data, without building its
// values: a record a reader only peeks at (frame.Peek) is checked with it,
// so that what would be invalid JSON to the reader is not passed over
// unread. DecodeJSON's decoder (go-json-experiment/json into any) accepts
// exactly what its jsontext layer accepts — one value, strict syntax, no
// duplicate member names, valid UTF-8, nesting within its limit — and
// whose every number is within float64's range (1e400 is refused, 1e-400
// is 0); TestDecodable compares the two on hostile texts.
func Decodable(data []byte) bool {
	return jsontext.Value(data).IsValid() && numbersInRange(data)
}

// numbersInRange reports whether every number of data, valid JSON, is
// finite as a float64. Only a number with an exponent or of more than 300
// characters can exceed float64's range (about 1.8e308), so the others
// are not parsed.
func numbersInRange(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			i++
			for {
				k := bytes.IndexByte(data[i:], '"')
				if k < 0 {
					return true // not valid JSON: IsValid has refused it
				}
				q := i + k
				n := 0
				for p := q - 1; p >= i && data[p] == '\\'; p-- {
					n++
				}
				i = q + 1
				if n%2 == 0 {
					break
				}
			}
		case c == '-' || (c >= '0' && c <= '9'):
			start, exp := i, false
			for i < len(data) {
				c := data[i]
				if c == 'e' || c == 'E' {
					exp = true
				} else if !(c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
					break
				}
				i++
			}
			if exp || i-start > 300 {
				f, _ := strconv.ParseFloat(string(data[start:i]), 64)
				if math.IsInf(f, 0) {
					return false
				}
			}
		default:
			i++
		}
	}
	return true
}
