// Package pattern parses tenet's trace patterns (docs/patterns.md) with
// participle: regular expressions over a run's item stream whose letters
// are step names.
//
//	pattern := alt            alt  := seq ('|' seq)*        seq := rep+
//	rep     := atom ('*' | '+' | '?' | '{' n [',' [m]] '}')?
//	atom    := STEP | '_' | '!' STEP | '(' alt ')' | '^' | '$'
//
// STEP is an identifier ([A-Za-z_][A-Za-z0-9_]*, "_" alone being any
// item); whitespace, newlines included, is insignificant. Postfix
// operators bind tighter than juxtaposition, which binds tighter than
// "|": "a b | c" is "(a b) | c" and "a b*" is "a (b*)".
//
// The parser only knows syntax; which step names exist is the caller's
// business (Steps lists the names a pattern uses).
package pattern

import (
	"strconv"
	"strings"
)

// Kind is the kind of a pattern node.
type Kind int

// Node kinds.
const (
	Alt    Kind = iota // Children: the alternatives (≥ 2)
	Seq                // Children: in order (≥ 2)
	Repeat             // Children[0] repeated Min..Max times (Max -1: unbounded)
	Step               // one item matching step Name
	Not                // one item not matching step Name
	Any                // one item: _
	Begin              // ^: the start of the run (matches no item)
	End                // $: the end of the run (matches no item)
)

var kindNames = [...]string{"Alt", "Seq", "Repeat", "Step", "Not", "Any", "Begin", "End"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Node is a node of a parsed pattern. Pos and End are byte offsets of the
// node's text in the pattern string (End exclusive).
//
// A node's text is what it was written as, without the parentheses that
// group it as a whole: in "(a b) | c" the Seq spans "a b". The
// parentheses belong to the enclosing construct: in "(a b)*" the Repeat
// spans "(a b)*" and its child Seq "a b". A Not spans "!" and the name.
//
// Parse builds canonical trees: a Seq or Alt has at least two children, a
// Seq has no Seq child and an Alt no Alt child (parenthesised sequences
// and alternations are flattened into their parent of the same kind).
type Node struct {
	Kind     Kind
	Children []*Node
	Name     string // Step, Not
	Min, Max int    // Repeat
	Pos, End int
}

// Error is a parse error at a byte offset of the pattern string.
type Error struct {
	Offset int
	// End is the end (exclusive) of the offending token; End == Offset at
	// the end of the pattern or for an empty pattern.
	End int
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// MaxRepeat bounds n and m in {n,m}: counted repetition is expanded into
// copies when compiled.
const MaxRepeat = 100

// MaxDepth bounds how deeply groups nest, so that hostile input cannot
// exhaust the parser's stack.
const MaxDepth = 100

// Ref is a use of a step name in a pattern: a Step or Not node's name with
// the byte range of the name in the pattern string.
type Ref struct {
	Name     string
	Pos, End int
}

// Steps returns the step names n uses (in Step and Not nodes), each once,
// in order of first use, with the range of that first use.
func Steps(n *Node) []Ref {
	var out []Ref
	seen := map[string]bool{}
	var walk func(*Node)
	walk = func(x *Node) {
		if x == nil {
			return
		}
		switch x.Kind {
		case Step, Not:
			if !seen[x.Name] {
				seen[x.Name] = true
				pos := x.Pos
				if x.Kind == Not {
					pos = x.End - len(x.Name) // after "!" and any space
				}
				out = append(out, Ref{Name: x.Name, Pos: pos, End: x.End})
			}
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

// String renders n in canonical syntax: one space between the items of a
// sequence, " | " between alternatives, parentheses only where needed,
// and *, + and ? for {0,}, {1,} and {0,1}. Parsing the result gives a tree
// that renders the same.
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	if n == nil {
		return
	}
	switch n.Kind {
	case Alt:
		for i, c := range n.Children {
			if i > 0 {
				b.WriteString(" | ")
			}
			c.writeIn(b, c.Kind == Alt)
		}
	case Seq:
		for i, c := range n.Children {
			if i > 0 {
				b.WriteByte(' ')
			}
			c.writeIn(b, c.Kind == Alt || c.Kind == Seq)
		}
	case Repeat:
		var c *Node
		if len(n.Children) > 0 {
			c = n.Children[0]
		}
		c.writeIn(b, c == nil || c.Kind == Alt || c.Kind == Seq || c.Kind == Repeat)
		b.WriteString(repeatOp(n.Min, n.Max))
	case Step:
		b.WriteString(n.Name)
	case Not:
		b.WriteString("!" + n.Name)
	case Any:
		b.WriteByte('_')
	case Begin:
		b.WriteByte('^')
	case End:
		b.WriteByte('$')
	}
}

func (n *Node) writeIn(b *strings.Builder, parens bool) {
	if parens {
		b.WriteByte('(')
	}
	n.write(b)
	if parens {
		b.WriteByte(')')
	}
}

// repeatOp renders the operator of a repetition min..max (max -1:
// unbounded).
func repeatOp(lo, hi int) string {
	switch {
	case lo == 0 && hi < 0:
		return "*"
	case lo == 1 && hi < 0:
		return "+"
	case lo == 0 && hi == 1:
		return "?"
	case hi < 0:
		return "{" + strconv.Itoa(lo) + ",}"
	case lo == hi:
		return "{" + strconv.Itoa(lo) + "}"
	}
	return "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
}
