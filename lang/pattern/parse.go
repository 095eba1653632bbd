package pattern

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar is deliberately total: every sequence of tokens parses, with
// stray tokens, missing closing brackets and empty alternatives recorded
// in the tree. Checking the tree afterwards (convert) finds the first
// mistake in reading order and explains it precisely, where a grammar that
// fails would only say which token it did not expect.

// spaces are the characters the lexer skips.
const spaces = " \t\n\r\f\v"

var patternLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Space", Pattern: `[ \t\n\r\f\v]+`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "Punct", Pattern: `[|*+?{},()!^$]`},
	{Name: "Bad", Pattern: `(?s).`}, // anything else: reported as unexpected
})

var parser = participle.MustBuild[gPattern](
	participle.Lexer(patternLexer),
	participle.Elide("Space"),
)

// toks is a captured token: participle captures the elided spaces before
// a token with it, so the token is the last one (see tok). (It must be
// exactly []lexer.Token for participle to capture tokens into it.)
type toks = []lexer.Token

// tok returns the captured token; its Value is "" when nothing was
// captured.
func tok(ts toks) lexer.Token {
	if len(ts) == 0 {
		return lexer.Token{}
	}
	return ts[len(ts)-1]
}

// gPattern is a whole pattern: an alternation, possibly followed by ")"
// tokens that close no group (each followed by more of the pattern).
type gPattern struct {
	Alt    *gAlt     `parser:"@@?"`
	Strays []*gStray `parser:"@@*"`
}

type gStray struct {
	Close toks  `parser:"@')'"`
	Alt   *gAlt `parser:"@@?"`
}

// gAlt is an alternation; a nil or empty sequence is an empty alternative.
type gAlt struct {
	First *gSeq      `parser:"@@?"`
	Rest  []*gBranch `parser:"@@*"`
}

type gBranch struct {
	Bar toks  `parser:"@'|'"`
	Seq *gSeq `parser:"@@?"`
}

type gSeq struct {
	Reps []*gRep `parser:"@@+"`
}

type gRep struct {
	Atom *gAtom `parser:"@@"`
	Ops  []*gOp `parser:"@@*"`
}

// gAtom is one atom; Stray is a token that cannot start one.
type gAtom struct {
	Name   toks    `parser:"  @Ident"`
	Not    *gNot   `parser:"| @@"`
	Group  *gGroup `parser:"| @@"`
	Anchor toks    `parser:"| @('^' | '$')"`
	Stray  toks    `parser:"| @(Int | Bad | '}' | ',' | '*' | '+' | '?' | '{')"`
}

type gNot struct {
	Bang toks `parser:"@'!'"`
	Name toks `parser:"@Ident?"`
}

type gGroup struct {
	Open  toks  `parser:"@'('"`
	Alt   *gAlt `parser:"@@?"`
	Close toks  `parser:"@')'?"`
}

type gOp struct {
	Sym   toks    `parser:"  @('*' | '+' | '?')"`
	Brace *gBrace `parser:"| @@"`
}

type gBrace struct {
	Open  toks `parser:"@'{'"`
	Min   toks `parser:"@Int?"`
	Comma toks `parser:"@','?"`
	Max   toks `parser:"@Int?"`
	Close toks `parser:"@'}'?"`
}

// Parse parses a pattern. On error it returns a nil Node and an Error at
// the offending token; it never panics.
func Parse(text string) (n *Node, perr *Error) {
	defer func() {
		if r := recover(); r != nil { // a bug: report it rather than crash
			n, perr = nil, &Error{Msg: fmt.Sprintf("internal error parsing the pattern: %v", r)}
		}
	}()
	all, err := parser.Lex("", strings.NewReader(text))
	if err != nil {
		return nil, fromParticiple(err, text)
	}
	empty := true
	depth := 0
	for _, t := range all {
		switch {
		case t.EOF(), strings.TrimLeft(t.Value, spaces) == "":
			continue
		case t.Value == "(":
			depth++
			if depth > MaxDepth {
				return nil, errAt(t, fmt.Sprintf("groups nest more than %d levels deep", MaxDepth))
			}
		case t.Value == ")":
			depth = max(0, depth-1)
		}
		empty = false
	}
	if empty {
		return nil, &Error{Offset: 0, End: 0, Msg: "empty pattern"}
	}
	g, err := parser.ParseString("", text)
	if err != nil {
		return nil, fromParticiple(err, text)
	}
	c := &converter{text: text, tokens: all}
	n = c.pattern(g)
	if c.err != nil {
		return nil, c.err
	}
	return n, nil
}

// fromParticiple turns a lexer or parser error (which the total grammar
// should not produce) into an Error.
func fromParticiple(err error, text string) *Error {
	var perr participle.Error
	off := 0
	if errors.As(err, &perr) {
		off = max(0, min(perr.Position().Offset, len(text)))
	}
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) && !ute.Unexpected.EOF() {
		return errAt(ute.Unexpected, "unexpected "+strconv.Quote(ute.Unexpected.Value))
	}
	msg := err.Error()
	if perr != nil {
		msg = perr.Message()
	}
	return &Error{Offset: off, End: off, Msg: msg}
}

func errAt(t lexer.Token, msg string) *Error {
	return &Error{Offset: t.Pos.Offset, End: t.Pos.Offset + len(t.Value), Msg: msg}
}

// converter turns the participle tree into Nodes, stopping at the first
// mistake in reading order.
type converter struct {
	text   string
	tokens []lexer.Token // every token, spaces included
	err    *Error
}

// next returns the first token that is not a space and starts at or after
// byte off (EOF when there is none).
func (c *converter) next(off int) lexer.Token {
	for _, t := range c.tokens {
		if t.Pos.Offset >= off && (t.EOF() || strings.TrimLeft(t.Value, spaces) != "") {
			return t
		}
	}
	return lexer.EOFToken(lexer.Position{Offset: len(c.text)})
}

func (c *converter) fail(t toks, format string, args ...any) {
	if c.err == nil {
		c.err = errAt(tok(t), fmt.Sprintf(format, args...))
	}
}

// span is a node with the byte range of its source text, grouping
// parentheses included.
type span struct {
	n          *Node
	start, end int
}

func present(t toks) bool { return tok(t).Value != "" }

func tokPos(t toks) int { return tok(t).Pos.Offset }

func tokEnd(t toks) int { return tok(t).Pos.Offset + len(tok(t).Value) }

func tokText(t toks) string { return tok(t).Value }

func (c *converter) pattern(g *gPattern) *Node {
	if g.Alt.empty() && len(g.Strays) == 0 {
		c.err = &Error{Msg: "empty pattern"}
		return nil
	}
	var n *Node
	if !g.Alt.empty() {
		n = c.alt(g.Alt).n
	}
	if c.err == nil && len(g.Strays) > 0 {
		c.fail(g.Strays[0].Close, `unexpected ")" without a matching "("`)
	}
	return n
}

func (a *gAlt) empty() bool {
	return a == nil || (a.First.empty() && len(a.Rest) == 0)
}

func (s *gSeq) empty() bool { return s == nil || len(s.Reps) == 0 }

// alt converts a non-empty alternation.
func (c *converter) alt(a *gAlt) span {
	seqs := []*gSeq{a.First}
	for _, b := range a.Rest {
		seqs = append(seqs, b.Seq)
	}
	var parts []span
	for i, s := range seqs {
		if s.empty() {
			switch {
			case i == 0: // "| a"
				c.fail(a.Rest[0].Bar, `unexpected "|" at the start of an alternative`)
			case i < len(seqs)-1: // "a || b": the second bar starts an alternative
				c.fail(a.Rest[i].Bar, `unexpected "|" at the start of an alternative`)
			default: // "a |"
				c.fail(a.Rest[i-1].Bar, `missing alternative after "|"`)
			}
			return span{}
		}
		p := c.seq(s)
		if c.err != nil {
			return span{}
		}
		parts = append(parts, p)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	n := &Node{Kind: Alt, Pos: parts[0].start, End: parts[len(parts)-1].end}
	for _, p := range parts {
		if p.n.Kind == Alt {
			n.Children = append(n.Children, p.n.Children...)
		} else {
			n.Children = append(n.Children, p.n)
		}
	}
	// The alternation spans its first and last alternative, without the
	// parentheses a single alternative may be written in.
	return span{n, n.Pos, n.End}
}

// seq converts a non-empty sequence.
func (c *converter) seq(s *gSeq) span {
	var parts []span
	for _, r := range s.Reps {
		p := c.rep(r)
		if c.err != nil {
			return span{}
		}
		parts = append(parts, p)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	n := &Node{Kind: Seq, Pos: parts[0].start, End: parts[len(parts)-1].end}
	for _, p := range parts {
		if p.n.Kind == Seq {
			n.Children = append(n.Children, p.n.Children...)
		} else {
			n.Children = append(n.Children, p.n)
		}
	}
	return span{n, n.Pos, n.End}
}

func (c *converter) rep(r *gRep) span {
	a := c.atom(r.Atom)
	if c.err != nil {
		return span{}
	}
	for i, op := range r.Ops {
		tok, text := op.Sym, tokText(op.Sym)
		if op.Brace != nil {
			tok, text = op.Brace.Open, c.braceText(op.Brace)
		}
		if i > 0 {
			c.fail(tok, "%q cannot follow another repetition operator: to repeat a repetition, group it first, as in (a*)%s", text, text)
			return span{}
		}
		if a.n.Kind == Begin || a.n.Kind == End {
			c.fail(tok, "%q cannot repeat %q: an anchor matches no item", text, c.text[a.start:a.end])
			return span{}
		}
		lo, hi, end := 0, -1, tokEnd(tok)
		switch {
		case op.Brace != nil:
			lo, hi, end = c.brace(op.Brace)
			if c.err != nil {
				return span{}
			}
		case text == "+":
			lo = 1
		case text == "?":
			hi = 1
		}
		a = span{&Node{Kind: Repeat, Children: []*Node{a.n}, Min: lo, Max: hi, Pos: a.start, End: end}, a.start, end}
	}
	return a
}

// braceText is the source text of a brace operator, for messages.
func (c *converter) braceText(b *gBrace) string {
	end := tokEnd(b.Open)
	for _, t := range []toks{b.Min, b.Comma, b.Max, b.Close} {
		if present(t) {
			end = tokEnd(t)
		}
	}
	return c.text[tokPos(b.Open):end]
}

// brace checks a {n}, {n,} or {n,m} operator and returns its bounds and
// the end of its text.
func (c *converter) brace(b *gBrace) (lo, hi, end int) {
	switch {
	case !present(b.Min) && present(b.Comma):
		hint := ""
		if present(b.Max) && present(b.Close) {
			hint = fmt.Sprintf("; write {0,%s}", tokText(b.Max))
		}
		c.fail(b.Comma, "%s: the minimum is missing%s", c.braceText(b), hint)
		return
	case !present(b.Min):
		c.fail(b.Open, `"{" must be followed by a count, as in {2}, {2,} or {1,3}`)
		return
	case !present(b.Close):
		if next := c.next(tokPos(b.Open) + len(c.braceText(b))); !next.EOF() {
			c.fail(toks{next}, "unexpected %q in %s: expected \"}\"", next.Value, c.braceText(b))
		} else {
			c.fail(b.Open, `missing "}"`)
		}
		return
	}
	var ok bool
	if lo, ok = count(tokText(b.Min)); !ok {
		c.fail(b.Min, "{n,m} bounds must be at most %d (use + or * for longer runs)", MaxRepeat)
		return
	}
	switch {
	case !present(b.Comma):
		hi = lo
	case !present(b.Max):
		hi = -1
	default:
		if hi, ok = count(tokText(b.Max)); !ok {
			c.fail(b.Max, "{n,m} bounds must be at most %d (use + or * for longer runs)", MaxRepeat)
			return
		}
		if hi < lo {
			c.fail(b.Max, "%s: the maximum is below the minimum", c.braceText(b))
			return
		}
	}
	return lo, hi, tokEnd(b.Close)
}

// count parses a repetition bound; false when it exceeds MaxRepeat.
func count(s string) (int, bool) {
	s = strings.TrimLeft(s, "0")
	if len(s) > 3 {
		return 0, false
	}
	n := 0
	if s != "" {
		n, _ = strconv.Atoi(s)
	}
	return n, n <= MaxRepeat
}

func (c *converter) atom(a *gAtom) span {
	leaf := func(k Kind, name string, pos, end int) span {
		return span{&Node{Kind: k, Name: name, Pos: pos, End: end}, pos, end}
	}
	switch {
	case present(a.Name):
		if tokText(a.Name) == "_" {
			return leaf(Any, "", tokPos(a.Name), tokEnd(a.Name))
		}
		return leaf(Step, tokText(a.Name), tokPos(a.Name), tokEnd(a.Name))
	case a.Not != nil:
		switch {
		case !present(a.Not.Name):
			c.fail(a.Not.Bang, `"!" must be followed by a step name`)
			return span{}
		case tokText(a.Not.Name) == "_":
			c.fail(a.Not.Bang, `"!" must be followed by a step name, not "_" ("!_" would match no item)`)
			return span{}
		}
		return leaf(Not, tokText(a.Not.Name), tokPos(a.Not.Bang), tokEnd(a.Not.Name))
	case a.Group != nil:
		g := a.Group
		if g.Alt.empty() {
			if present(g.Close) {
				c.fail(g.Open, `empty group "()"`)
			} else {
				c.fail(g.Open, `missing ")"`)
			}
			return span{}
		}
		inner := c.alt(g.Alt)
		if c.err != nil {
			return span{}
		}
		if !present(g.Close) {
			c.fail(g.Open, `missing ")"`)
			return span{}
		}
		return span{inner.n, tokPos(g.Open), tokEnd(g.Close)}
	case present(a.Anchor):
		if tokText(a.Anchor) == "$" {
			return leaf(End, "", tokPos(a.Anchor), tokEnd(a.Anchor))
		}
		return leaf(Begin, "", tokPos(a.Anchor), tokEnd(a.Anchor))
	}
	c.stray(a.Stray)
	return span{}
}

// stray reports a token that cannot start an atom.
func (c *converter) stray(t toks) {
	v := tokText(t)
	switch {
	case v == "*" || v == "+" || v == "?" || v == "{":
		c.fail(t, "nothing before %q to repeat", v)
	case v != "" && v[0] >= '0' && v[0] <= '9':
		c.fail(t, "unexpected %q: a step name starts with a letter or \"_\" (to repeat the item before, write {%s})", v, v)
	case v == "-" || v == "." || v == ":" || v == "/":
		c.fail(t, "unexpected %q: step names are made of letters, digits and \"_\"", v)
	default:
		r, _ := utf8.DecodeRuneInString(v)
		if r == utf8.RuneError && len(v) == 1 {
			c.fail(t, "unexpected byte %q (the pattern is not valid UTF-8)", v)
			return
		}
		c.fail(t, "unexpected %q", v)
	}
}
