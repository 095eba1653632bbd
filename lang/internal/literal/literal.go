// Package literal maps the text of an HCL string literal (quoted or
// heredoc) back to the file it was written in, and bounds the size of the
// strings of a file before HCL parses it.
//
// Its contract: given a file's bytes and HCL's tokens of it, Map returns the
// literal's text exactly as HCL evaluates it (escapes decoded, flush-heredoc
// indentation removed, NFC-normalized) with the file offset of every byte;
// Pos turns an offset into an hcl.Pos whose column counts grapheme clusters
// as HCL's own ranges do; TooLarge finds a string beyond MaxParts or
// MaxWork. It imports no tenet package (only HCL, cty and go-textseg), and
// reports no diagnostics: package lang words them.
package literal

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// This file maps the text of a string literal back to the file: for every
// byte HCL's evaluation of the literal produces, the file offset it came from.
//
// HCL does not expose that mapping, so we redo its work on the same tokens:
// the file is lexed once with hclsyntax (the parser's own lexer, so token
// boundaries are exactly the parser's), each literal token is unescaped the
// way hclsyntax.ParseStringLiteralToken does it, and flush heredocs (<<-) are
// de-indented the way hclsyntax's flushHeredocTemplateParts does it — per
// token, counting indentation in grapheme clusters — and the result is
// NFC-normalized as cty normalizes every string. The caller then checks the
// result against HCL's own value and falls back if they ever disagree.

// litUnit is the decoded text of one literal token with, for each byte, the
// file offset it came from.
type litUnit struct {
	text []byte
	offs []int
}

// LineStarts returns the byte offset where each line of src begins. HCL
// counts lines at "\n" ("\r\n" included) and not at a lone "\r".
func LineStarts(src []byte) []int {
	lines := []int{0}
	for i, b := range src {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// utf8BOM is stripped by HCL's lexer, which then counts columns of the first
// line from after it while byte offsets still include it.
const utf8BOM = "\xef\xbb\xbf"

// Pos converts a file byte offset into an hcl.Pos whose Column counts
// grapheme clusters from the start of the line, as HCL's lexer does. An
// offset inside a cluster gets that cluster's column. Without src, columns
// count bytes.
//
// HCL segments each token on its own, so a cluster that straddles a token
// boundary (a combining mark right after an opening quote or a lone "$")
// counts twice for HCL and once here; such text is not CEL anyway.
func Pos(src []byte, lines []int, off int) hcl.Pos {
	if off < 0 {
		off = 0
	}
	if src != nil && off > len(src) {
		off = len(src)
	}
	if len(lines) == 0 {
		lines = []int{0}
	}
	k := sort.Search(len(lines), func(k int) bool { return lines[k] > off }) - 1
	if k < 0 {
		k = 0
	}
	start := lines[k]
	if k == 0 && bytes.HasPrefix(src, []byte(utf8BOM)) && off >= len(utf8BOM) {
		start = len(utf8BOM)
	}
	pos := hcl.Pos{Line: k + 1, Column: 1, Byte: off}
	if src == nil {
		pos.Column += off - start
		return pos
	}
	for p := start; p < off; {
		adv, _, _ := scanGraphemeCluster(src[p:], true)
		if adv <= 0 || p+adv > off {
			break
		}
		p += adv
		pos.Column++
	}
	return pos
}

// TokensIn returns the tokens of toks (sorted by offset) that lie wholly
// inside rng.
func TokensIn(toks hclsyntax.Tokens, rng hcl.Range) hclsyntax.Tokens {
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Range.Start.Byte >= rng.Start.Byte })
	j := i
	for j < len(toks) && toks[j].Range.End.Byte <= rng.End.Byte && toks[j].Type != hclsyntax.TokenEOF {
		j++
	}
	return toks[i:j]
}

// Map decodes the string literal (quoted or heredoc) whose tokens are
// toks, the opening and closing markers included. ok is false when the
// tokens are not a plain literal, which the caller treats as "cannot map".
func Map(toks hclsyntax.Tokens) (text []byte, offs []int, ok bool) {
	if len(toks) < 2 {
		return nil, nil, false
	}
	open, close := toks[0], toks[len(toks)-1]
	var quoted, flush bool
	var litType hclsyntax.TokenType
	switch {
	case open.Type == hclsyntax.TokenOQuote && close.Type == hclsyntax.TokenCQuote:
		quoted, litType = true, hclsyntax.TokenQuotedLit
	case open.Type == hclsyntax.TokenOHeredoc && close.Type == hclsyntax.TokenCHeredoc:
		flush = strings.HasPrefix(string(open.Bytes), "<<-")
		litType = hclsyntax.TokenStringLit
	default:
		return nil, nil, false
	}
	var units []litUnit
	for _, tok := range toks[1 : len(toks)-1] {
		if tok.Type != litType {
			return nil, nil, false
		}
		units = append(units, decodeLit(tok.Bytes, tok.Range.Start.Byte, quoted))
	}
	if flush {
		flushHeredoc(units)
	}
	end := open.Range.End.Byte
	if n := len(toks); n > 2 {
		end = toks[n-2].Range.End.Byte
	}
	for _, u := range units {
		text = append(text, u.text...)
		offs = append(offs, u.offs...)
	}
	text, offs = nfc(text, append(offs, end)) // last, as HCL normalizes the finished literal
	return text, offs, true
}

// decodeLit unescapes one literal token as hclsyntax.ParseStringLiteralToken
// does; base is the token's file offset. Each byte an escape produces maps to
// the escape's first byte. Invalid escapes (already reported by the parser)
// are kept the way HCL keeps them.
func decodeLit(b []byte, base int, quoted bool) litUnit {
	var u litUnit
	emit := func(off int, bs ...byte) {
		for _, c := range bs {
			u.text = append(u.text, c)
			u.offs = append(u.offs, off)
		}
	}
	literal := func(i, j int) { // b[i:j] stands for itself
		for k := i; k < j; k++ {
			emit(base+k, b[k])
		}
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case quoted && c == '\\':
			n := ragelUTF8Len(b[i+1:])
			if n == 0 { // a lone backslash: HCL keeps it
				literal(i, i+1)
				i++
				continue
			}
			switch sel := b[i+1]; sel {
			case 'n', 'r', 't', '"', '\\':
				emit(base+i, simpleEscapes[sel])
				i += 2
			case 'u', 'U':
				want := 4
				if sel == 'U' {
					want = 8
				}
				j := i + 2
				for j < len(b) && j-(i+2) < want && isHex(b[j]) {
					j++
				}
				if j-(i+2) == want {
					num, err := strconv.ParseUint(string(b[i+2:j]), 16, 32)
					if r := rune(num); err == nil && utf8.RuneLen(r) != -1 {
						emit(base+i, utf8.AppendRune(nil, r)...)
						i = j
						continue
					}
				}
				literal(i, j) // malformed: HCL keeps the whole sequence
				i = j
			default: // invalid selector: HCL keeps the character after the backslash
				literal(i+1, i+1+n)
				i += 1 + n
			}
		case c == '$' || c == '%':
			switch {
			case i+2 < len(b) && b[i+1] == c && b[i+2] == '{': // $${ → ${, %%{ → %{
				emit(base+i, c, '{')
				i += 3
			case i+1 < len(b) && b[i+1] == c: // "$$" is one literal sequence to HCL
				literal(i, i+2)
				i += 2
			default:
				literal(i, i+1)
				i++
			}
		default:
			literal(i, i+1)
			i++
		}
	}
	return u
}

// ragelUTF8Len is the length of the UTF-8 sequence at the start of b as HCL's
// scanners define one (lead byte and continuation bytes only, overlong forms
// accepted), or 0 when b does not start with one.
func ragelUTF8Len(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	var n int
	switch c := b[0]; {
	case c <= 0x7f:
		return 1
	case c >= 0xc0 && c <= 0xdf:
		n = 2
	case c >= 0xe0 && c <= 0xef:
		n = 3
	case c >= 0xf0 && c <= 0xf7:
		n = 4
	default:
		return 0
	}
	if len(b) < n {
		return 0
	}
	for _, c := range b[1:n] {
		if c < 0x80 || c > 0xbf {
			return 0
		}
	}
	return n
}

// simpleEscapes are HCL's one-character escapes, by selector.
var simpleEscapes = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', '"': '"', '\\': '\\'}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// nfc applies to text the NFC normalization cty applies to every string
// (cty.StringVal), so that Text equals HCL's value, carrying the offsets
// along. An ASCII character is a normalization boundary (it never reorders
// or composes with what precedes it), so text is normalized in chunks that
// start at an ASCII character; a chunk that normalization rewrites, such as
// "e\u0301" becoming "é", maps all its bytes to its first source byte.
func nfc(text []byte, offs []int) ([]byte, []int) {
	ascii := true
	for _, c := range text {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return text, offs
	}
	out := make([]byte, 0, len(text))
	outOffs := make([]int, 0, len(offs))
	for start := 0; start < len(text); {
		end := start + 1
		for end < len(text) && text[end] >= utf8.RuneSelf {
			end++
		}
		chunk := string(text[start:end])
		if n := cty.NormalizeString(chunk); n != chunk {
			out = append(out, n...)
			for range len(n) {
				outOffs = append(outOffs, offs[start])
			}
		} else {
			out = append(out, chunk...)
			outOffs = append(outOffs, offs[start:end]...)
		}
		start = end
	}
	return out, append(outOffs, offs[len(text)])
}

// flushHeredoc removes the common indentation of a <<- heredoc, exactly as
// hclsyntax's flushHeredocTemplateParts does: the indentation of a line is
// the leading white space (unicode.IsSpace) of its first token counted in
// grapheme clusters; lines that are only white space do not count and are
// left alone; every other line loses the smallest indentation found.
func flushHeredoc(units []litUnit) {
	const maxInt = int(^uint(0) >> 1)
	minSpaces := maxInt
	newline := true
	var adjust []int
	for i, u := range units {
		s := string(u.text)
		if newline {
			newline = false
			trimmed := strings.TrimLeftFunc(s, unicode.IsSpace)
			if len(trimmed) == 0 && strings.HasSuffix(s, "\n") {
				// a blank line: neither counted nor trimmed
			} else {
				minSpaces = min(minSpaces, graphemeCount(u.text[:len(s)-len(trimmed)]))
				adjust = append(adjust, i)
			}
		}
		if strings.HasSuffix(s, "\n") {
			newline = true
		}
	}
	for _, i := range adjust {
		cut := 0
		for k := 0; k < minSpaces && cut < len(units[i].text); k++ {
			adv, _, _ := scanGraphemeCluster(units[i].text[cut:], true)
			if adv <= 0 {
				break
			}
			cut += adv
		}
		units[i].text = units[i].text[cut:]
		units[i].offs = units[i].offs[cut:]
	}
}

// graphemeCount counts the grapheme clusters of b.
func graphemeCount(b []byte) int {
	n := 0
	for len(b) > 0 {
		adv, _, _ := scanGraphemeCluster(b, true)
		if adv <= 0 {
			adv = 1
		}
		b = b[adv:]
		n++
	}
	return n
}
