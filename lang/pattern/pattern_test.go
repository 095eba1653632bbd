package pattern

import (
	"fmt"
	"strings"
	"testing"
)

// dump renders a tree with every node's kind, span and fields:
// Seq@0-4(Step:a@0-1 Repeat{0,-1}@2-4(Step:b@2-3)).
func dump(n *Node) string {
	s := n.Kind.String()
	switch n.Kind {
	case Step, Not:
		s += ":" + n.Name
	case Repeat:
		s += fmt.Sprintf("{%d,%d}", n.Min, n.Max)
	}
	s += fmt.Sprintf("@%d-%d", n.Pos, n.End)
	if len(n.Children) > 0 {
		var cs []string
		for _, c := range n.Children {
			cs = append(cs, dump(c))
		}
		s += "(" + strings.Join(cs, " ") + ")"
	}
	return s
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, tree, str string }{
		// Atoms.
		{"a", "Step:a@0-1", "a"},
		{"send_Money2", "Step:send_Money2@0-11", "send_Money2"},
		{"_", "Any@0-1", "_"},
		{"__", "Step:__@0-2", "__"},
		{"_a", "Step:_a@0-2", "_a"},
		{"!a", "Not:a@0-2", "!a"},
		{"! \n a", "Not:a@0-5", "!a"},
		{"^", "Begin@0-1", "^"},
		{"$", "End@0-1", "$"},
		{"(a)", "Step:a@1-2", "a"},
		{"((a))", "Step:a@2-3", "a"},
		// Repetition.
		{"a*", "Repeat{0,-1}@0-2(Step:a@0-1)", "a*"},
		{"a+", "Repeat{1,-1}@0-2(Step:a@0-1)", "a+"},
		{"a?", "Repeat{0,1}@0-2(Step:a@0-1)", "a?"},
		{"a{3}", "Repeat{3,3}@0-4(Step:a@0-1)", "a{3}"},
		{"a{3,}", "Repeat{3,-1}@0-5(Step:a@0-1)", "a{3,}"},
		{"a{2,5}", "Repeat{2,5}@0-6(Step:a@0-1)", "a{2,5}"},
		{"a { 2 , 5 }", "Repeat{2,5}@0-11(Step:a@0-1)", "a{2,5}"},
		{"a{0}", "Repeat{0,0}@0-4(Step:a@0-1)", "a{0}"},
		{"a{0,}", "Repeat{0,-1}@0-5(Step:a@0-1)", "a*"},
		{"a{1,}", "Repeat{1,-1}@0-5(Step:a@0-1)", "a+"},
		{"a{0,1}", "Repeat{0,1}@0-6(Step:a@0-1)", "a?"},
		{"a{007,100}", "Repeat{7,100}@0-10(Step:a@0-1)", "a{7,100}"},
		{"a{100}", "Repeat{100,100}@0-6(Step:a@0-1)", "a{100}"},
		{"_*", "Repeat{0,-1}@0-2(Any@0-1)", "_*"},
		{"!a+", "Repeat{1,-1}@0-3(Not:a@0-2)", "!a+"},
		{"(a b)*", "Repeat{0,-1}@0-6(Seq@1-4(Step:a@1-2 Step:b@3-4))", "(a b)*"},
		{"(a | b)+", "Repeat{1,-1}@0-8(Alt@1-6(Step:a@1-2 Step:b@5-6))", "(a | b)+"},
		{"(a*)*", "Repeat{0,-1}@0-5(Repeat{0,-1}@1-3(Step:a@1-2))", "(a*)*"},
		{"(a){2}", "Repeat{2,2}@0-6(Step:a@1-2)", "a{2}"},
		// Sequence and alternation, with precedence.
		{"a b", "Seq@0-3(Step:a@0-1 Step:b@2-3)", "a b"},
		{"a b*", "Seq@0-4(Step:a@0-1 Repeat{0,-1}@2-4(Step:b@2-3))", "a b*"},
		{"a b | c", "Alt@0-7(Seq@0-3(Step:a@0-1 Step:b@2-3) Step:c@6-7)", "a b | c"},
		{"a | b c", "Alt@0-7(Step:a@0-1 Seq@4-7(Step:b@4-5 Step:c@6-7))", "a | b c"},
		{"a|b|c", "Alt@0-5(Step:a@0-1 Step:b@2-3 Step:c@4-5)", "a | b | c"},
		{"a (b | c) d", "Seq@0-11(Step:a@0-1 Alt@3-8(Step:b@3-4 Step:c@7-8) Step:d@10-11)", "a (b | c) d"},
		{"read _* send", "Seq@0-12(Step:read@0-4 Repeat{0,-1}@5-7(Any@5-6) Step:send@8-12)", "read _* send"},
		{"^ a !b* $", "Seq@0-9(Begin@0-1 Step:a@2-3 Repeat{0,-1}@4-7(Not:b@4-6) End@8-9)", "^ a !b* $"},
		{"a\n|\tb\r\n", "Alt@0-5(Step:a@0-1 Step:b@4-5)", "a | b"},
		// Groups are flattened into a parent of the same kind.
		{"(a b) c", "Seq@0-7(Step:a@1-2 Step:b@3-4 Step:c@6-7)", "a b c"},
		{"a (b (c d))", "Seq@0-11(Step:a@0-1 Step:b@3-4 Step:c@6-7 Step:d@8-9)", "a b c d"},
		{"(a | b) | c", "Alt@0-11(Step:a@1-2 Step:b@5-6 Step:c@10-11)", "a | b | c"},
		{"((a | b) c | d)", "Alt@1-14(Seq@1-10(Alt@2-7(Step:a@2-3 Step:b@6-7) Step:c@9-10) Step:d@13-14)", "(a | b) c | d"},
		{"(a b) | (c d)", "Alt@0-13(Seq@1-4(Step:a@1-2 Step:b@3-4) Seq@9-12(Step:c@9-10 Step:d@11-12))", "a b | c d"},
		{"x ((a b)* | c)? y", "Seq@0-17(Step:x@0-1 Repeat{0,1}@2-15(Alt@3-13(Repeat{0,-1}@3-9(Seq@4-7(Step:a@4-5 Step:b@6-7)) Step:c@12-13)) Step:y@16-17)", "x ((a b)* | c)? y"},
		{"a ^ b", "Seq@0-5(Step:a@0-1 Begin@2-3 Step:b@4-5)", "a ^ b"},
	} {
		n, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %d: %s", c.in, err.Offset, err.Msg)
			continue
		}
		if got := dump(n); got != c.tree {
			t.Errorf("Parse(%q) =\n  %s\nwant\n  %s", c.in, got, c.tree)
		}
		if got := n.String(); got != c.str {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.str)
		}
		again, err := Parse(n.String())
		if err != nil || again.String() != n.String() {
			t.Errorf("String of %q does not re-parse to itself: %q, %v", c.in, n.String(), err)
		}
		checkTree(t, c.in, n)
	}
}

// checkTree checks the invariants of a parsed tree: spans nest inside the
// text, Seq and Alt have ≥ 2 children and are flattened, leaves have no
// children, a leaf's span is its own text.
func checkTree(t *testing.T, text string, n *Node) {
	t.Helper()
	var walk func(n, parent *Node)
	walk = func(n, parent *Node) {
		if n.Pos < 0 || n.End > len(text) || n.Pos >= n.End {
			t.Fatalf("%q: bad span %d-%d of %s", text, n.Pos, n.End, dump(n))
		}
		if parent != nil && (n.Pos < parent.Pos || n.End > parent.End) {
			t.Fatalf("%q: span of %s outside its parent %s", text, dump(n), dump(parent))
		}
		switch n.Kind {
		case Seq, Alt:
			if len(n.Children) < 2 {
				t.Fatalf("%q: %s has fewer than 2 children", text, dump(n))
			}
			for _, c := range n.Children {
				if c.Kind == n.Kind {
					t.Fatalf("%q: %s is not flattened", text, dump(n))
				}
			}
		case Repeat:
			if len(n.Children) != 1 || n.Min < 0 || n.Min > MaxRepeat || n.Max > MaxRepeat || (n.Max >= 0 && n.Max < n.Min) {
				t.Fatalf("%q: bad repeat %s", text, dump(n))
			}
		default:
			if len(n.Children) != 0 {
				t.Fatalf("%q: leaf with children %s", text, dump(n))
			}
		}
		src := text[n.Pos:n.End]
		switch n.Kind {
		case Step:
			if src != n.Name {
				t.Fatalf("%q: step %s spans %q", text, n.Name, src)
			}
		case Not:
			if !strings.HasPrefix(src, "!") || !strings.HasSuffix(src, n.Name) {
				t.Fatalf("%q: not %s spans %q", text, n.Name, src)
			}
		case Any:
			if src != "_" {
				t.Fatalf("%q: any spans %q", text, src)
			}
		case Begin, End:
			if src != "^" && src != "$" {
				t.Fatalf("%q: anchor spans %q", text, src)
			}
		}
		for _, c := range n.Children {
			walk(c, n)
		}
	}
	walk(n, nil)
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in       string
		off, end int
		msg      string
	}{
		{"", 0, 0, `empty pattern`},
		{" \n\t ", 0, 0, `empty pattern`},
		// Alternation.
		{"| a", 0, 1, `unexpected "|" at the start of an alternative`},
		{"a || b", 3, 4, `unexpected "|" at the start of an alternative`},
		{"(| a)", 1, 2, `unexpected "|" at the start of an alternative`},
		{"a |", 2, 3, `missing alternative after "|"`},
		{"(a | ) b", 3, 4, `missing alternative after "|"`},
		// Groups.
		{"(a b", 0, 1, `missing ")"`},
		{"x (a (b)", 2, 3, `missing ")"`},
		{"(", 0, 1, `missing ")"`},
		{"a ( ) b", 2, 3, `empty group "()"`},
		{"a)", 1, 2, `unexpected ")" without a matching "("`},
		{") a", 0, 1, `unexpected ")" without a matching "("`},
		{"(a) b) c", 5, 6, `unexpected ")" without a matching "("`},
		{strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1), MaxDepth, MaxDepth + 1,
			`groups nest more than 100 levels deep`},
		// Not.
		{"!", 0, 1, `"!" must be followed by a step name`},
		{"a ! | b", 2, 3, `"!" must be followed by a step name`},
		{"!!a", 0, 1, `"!" must be followed by a step name`},
		{"!(a)", 0, 1, `"!" must be followed by a step name`},
		{"!_", 0, 1, `"!" must be followed by a step name, not "_" ("!_" would match no item)`},
		// Repetition.
		{"*", 0, 1, `nothing before "*" to repeat`},
		{"a | +b", 4, 5, `nothing before "+" to repeat`},
		{"(?a)", 1, 2, `nothing before "?" to repeat`},
		{"{2}", 0, 1, `nothing before "{" to repeat`},
		{"a**", 2, 3, `"*" cannot follow another repetition operator: to repeat a repetition, group it first, as in (a*)*`},
		{"a*?", 2, 3, `"?" cannot follow another repetition operator: to repeat a repetition, group it first, as in (a*)?`},
		{"a+{2,3}", 2, 3, `"{2,3}" cannot follow another repetition operator: to repeat a repetition, group it first, as in (a*){2,3}`},
		{"^*", 1, 2, `"*" cannot repeat "^": an anchor matches no item`},
		{"a $+", 3, 4, `"+" cannot repeat "$": an anchor matches no item`},
		{"^{2}", 1, 2, `"{2}" cannot repeat "^": an anchor matches no item`},
		{"a{3,1}", 4, 5, `{3,1}: the maximum is below the minimum`},
		{"a{101}", 2, 5, `{n,m} bounds must be at most 100 (use + or * for longer runs)`},
		{"a{1,101}", 4, 7, `{n,m} bounds must be at most 100 (use + or * for longer runs)`},
		{"a{99999999999999999999999}", 2, 25, `{n,m} bounds must be at most 100 (use + or * for longer runs)`},
		{"a{,3}", 2, 3, `{,3}: the minimum is missing; write {0,3}`},
		{"a{,}", 2, 3, `{,}: the minimum is missing`},
		{"a{}", 1, 2, `"{" must be followed by a count, as in {2}, {2,} or {1,3}`},
		{"a{b}", 1, 2, `"{" must be followed by a count, as in {2}, {2,} or {1,3}`},
		{"a{2", 1, 2, `missing "}"`},
		{"a{2,", 1, 2, `missing "}"`},
		{"a{1,2,3}", 5, 6, `unexpected "," in {1,2: expected "}"`},
		{"a{2 b}", 4, 5, `unexpected "b" in {2: expected "}"`},
		// Stray tokens.
		{"a }", 2, 3, `unexpected "}"`},
		{"a , b", 2, 3, `unexpected ","`},
		{"3", 0, 1, `unexpected "3": a step name starts with a letter or "_" (to repeat the item before, write {3})`},
		{"a 2b", 2, 3, `unexpected "2": a step name starts with a letter or "_" (to repeat the item before, write {2})`},
		{"send-money", 4, 5, `unexpected "-": step names are made of letters, digits and "_"`},
		{"a.b", 1, 2, `unexpected ".": step names are made of letters, digits and "_"`},
		{"(a ]", 3, 4, `unexpected "]"`},
		{"a 'b'", 2, 3, `unexpected "'"`},
		{"a é", 2, 4, `unexpected "é"`},
		{"a\u00a0b", 1, 3, `unexpected "\u00a0"`},
		{"a\xff", 1, 2, `unexpected byte "\xff" (the pattern is not valid UTF-8)`},
		// The first mistake in reading order wins.
		{"(a ] | b", 3, 4, `unexpected "]"`},
		{"a{3,1} | *", 4, 5, `{3,1}: the maximum is below the minimum`},
		{"| (", 0, 1, `unexpected "|" at the start of an alternative`},
	} {
		n, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", c.in, dump(n))
			continue
		}
		if n != nil {
			t.Errorf("Parse(%q) returned a tree with its error", c.in)
		}
		if err.Offset != c.off || err.End != c.end || err.Msg != c.msg {
			t.Errorf("Parse(%q) error = %d-%d %s\nwant %d-%d %s", c.in, err.Offset, err.End, err.Msg, c.off, c.end, c.msg)
		}
		if err.Error() != err.Msg {
			t.Errorf("Error() = %q", err.Error())
		}
	}
}

func TestSteps(t *testing.T) {
	n, err := Parse("read (_ | !confirm)* send read !send x")
	if err != nil {
		t.Fatal(err.Msg)
	}
	var got []string
	for _, r := range Steps(n) {
		got = append(got, fmt.Sprintf("%s@%d-%d", r.Name, r.Pos, r.End))
	}
	want := "read@0-4 confirm@11-18 send@21-25 x@37-38"
	if strings.Join(got, " ") != want {
		t.Errorf("Steps = %s, want %s", strings.Join(got, " "), want)
	}
	if n, _ := Parse("! \n  b"); fmt.Sprint(Steps(n)) != "[{b 5 6}]" {
		t.Errorf("Steps of a spaced not = %v", Steps(n))
	}
	if Steps(nil) != nil {
		t.Error("Steps(nil) != nil")
	}
}

// TestStringHandBuilt renders trees Parse would not build (unflattened,
// nested alternations) with the parentheses they need.
func TestStringHandBuilt(t *testing.T) {
	a, b, c := &Node{Kind: Step, Name: "a"}, &Node{Kind: Step, Name: "b"}, &Node{Kind: Step, Name: "c"}
	for _, x := range []struct {
		n    *Node
		want string
	}{
		{&Node{Kind: Seq, Children: []*Node{a, {Kind: Seq, Children: []*Node{b, c}}}}, "a (b c)"},
		{&Node{Kind: Alt, Children: []*Node{a, {Kind: Alt, Children: []*Node{b, c}}}}, "a | (b | c)"},
		{&Node{Kind: Seq, Children: []*Node{a, {Kind: Alt, Children: []*Node{b, c}}}}, "a (b | c)"},
		{&Node{Kind: Repeat, Min: 2, Max: 4, Children: []*Node{{Kind: Not, Name: "a"}}}, "!a{2,4}"},
		{&Node{Kind: Repeat, Min: 5, Max: -1, Children: []*Node{{Kind: Any}}}, "_{5,}"},
		{nil, ""},
	} {
		if got := x.n.String(); got != x.want {
			t.Errorf("String() = %q, want %q", got, x.want)
		}
	}
	if Kind(42).String() != "Kind(42)" || Begin.String() != "Begin" {
		t.Error("Kind.String")
	}
}

// FuzzParse checks that Parse never panics, that a successful parse gives
// a well-formed tree whose String re-parses to the same String, and that
// an error's offsets are inside the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a", "read _* send", "^ (a | b c)+ !d{2,5} $", "(a b)* | c?", "a{3,1}", "| a", "(a", "a)", "!",
		"a{,3}", "a**", "^*", "x ((a b)* | c)? y", "a{101}", "a é\xff", "((((a))))", "a{1,2,3}", "_{0}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n, err := Parse(text)
		if err != nil {
			if n != nil {
				t.Fatal("tree returned with an error")
			}
			if err.Offset < 0 || err.End < err.Offset || err.End > len(text) || err.Msg == "" {
				t.Fatalf("%q: bad error %d-%d %q", text, err.Offset, err.End, err.Msg)
			}
			if strings.HasPrefix(err.Msg, "internal error") {
				t.Fatalf("%q: %s", text, err.Msg)
			}
			return
		}
		checkTree(t, text, n)
		s := n.String()
		again, err := Parse(s)
		if err != nil {
			t.Fatalf("%q: String %q does not parse: %s", text, s, err.Msg)
		}
		if again.String() != s {
			t.Fatalf("%q: String %q re-parses to %q", text, s, again.String())
		}
	})
}
