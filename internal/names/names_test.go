package names

import (
	"reflect"
	"strings"
	"testing"
)

// TestPrintableLookAlikes: names that print alike before (issue 13, item 4)
// now print differently, each quoted with escapes where it could be
// misread; plain names, ASCII or not, print as they are.
func TestPrintableLookAlikes(t *testing.T) {
	for _, c := range []struct{ in, printable, safe string }{
		{"gpt-4o", "gpt-4o", "gpt-4o"},
		{"gpt-4o ", `"gpt-4o "`, `"gpt-4o "`},
		{" gpt-4o", `" gpt-4o"`, `" gpt-4o"`},
		{"gpt\u20114o", `"gpt\u20114o"`, `"gpt\u20114o"`},
		{"gpt\u20104o", `"gpt\u20104o"`, `"gpt\u20104o"`},
		{"caf\u00e9", "café", "café"},
		{"cafe\u0301", `"cafe\u0301"`, `"cafe\u0301"`},
		{"\u00e9cole e\u0301", `"\u00e9cole e\u0301"`, `"\u00e9cole e\u0301"`}, // not NFC: every non-ASCII escaped
		{"g\u043ft", "gпt", "gпt"},                                             // Cyrillic п is not a look-alike of a Latin letter
		{"gpt-4\u043e", `"gpt-4\u043e"`, `"gpt-4\u043e"`},
		{"a\u200bb", `"a\u200bb"`, `"a\u200bb"`},
		{"a\u00a0b", `"a\u00a0b"`, `"a\u00a0b"`},
		{"a b", "a b", `"a b"`},
		{"a\tb", `"a\tb"`, `"a\tb"`},
		{"x\x1b[31m", `"x\x1b[31m"`, `"x\x1b[31m"`},
		{"bad\xffutf8", `"bad\xffutf8"`, `"bad\xffutf8"`},
		{`q"\`, `q"\`, `q"\`},
		{"模型", "模型", "模型"},
		{"", "", `""`},
	} {
		if got := Printable(c.in); got != c.printable {
			t.Errorf("Printable(%q) = %s, want %s", c.in, got, c.printable)
		}
		if got := Safe(c.in); got != c.safe {
			t.Errorf("Safe(%q) = %s, want %s", c.in, got, c.safe)
		}
	}
}

// TestNameCut: a name of a megabyte shows its first and last
// MaxNameWidth/2 characters and how many bytes were cut between them
// (issue 13, item 7); quoted, head and tail are quoted apart.
func TestNameCut(t *testing.T) {
	long := strings.Repeat("g", 1<<20)
	half := strings.Repeat("g", MaxNameWidth/2)
	if got, want := Printable(long), half+"…(+1048376 bytes)…"+half; got != want {
		t.Errorf("Printable: %d bytes, %q…", len(got), got[len(got)-30:])
	}
	if got, want := Safe(long+" "), `"`+half+`"…(+1048377 bytes)…"`+strings.Repeat("g", MaxNameWidth/2-1)+` "`; got != want {
		t.Errorf("Safe: %d bytes, %q…", len(got), got[len(got)-30:])
	}
}

// TestNameCutEnds: long names that differ only at the end (or only at
// the start) print differently (review finding 7: they printed the same,
// the end cut off); names that differ only in the middle print the same,
// and LookAlikes groups them.
func TestNameCutEnds(t *testing.T) {
	a, b := strings.Repeat("A", 5000)+"x", strings.Repeat("A", 5000)+"y"
	half := strings.Repeat("A", MaxNameWidth/2)
	if got, want := Printable(a), half+"…(+4801 bytes)…"+strings.Repeat("A", MaxNameWidth/2-1)+"x"; got != want {
		t.Errorf("Printable(A…x) = %q", got)
	}
	if Printable(a) == Printable(b) || Printable("x"+a) == Printable("y"+a) {
		t.Errorf("names differing at an end print the same")
	}
	m1 := strings.Repeat("A", 2500) + "1" + strings.Repeat("A", 2500)
	m2 := strings.Repeat("A", 2500) + "2" + strings.Repeat("A", 2500)
	if Printable(m1) != Printable(m2) {
		t.Fatalf("names differing in the middle print apart: the test needs them alike")
	}
	got := LookAlikes([]string{a, b, m1, m2, m1})
	want := []LookAlikeGroup{{Names: []string{m1, m2}, Differ: "the middle that is cut when they are printed"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LookAlikes = %d groups %v", len(got), got)
	}
	// The two keys join: "x" and "x " look alike; "x " and a name
	// printed as "x " (with its quotes, unquoted) print the same.
	got = LookAlikes([]string{"x", "x ", `"x "`})
	if len(got) != 1 || len(got[0].Names) != 3 || got[0].Differ != "quotes: they print the same" {
		t.Errorf("LookAlikes of x, \"x \", quoted = %q", got)
	}
}

func TestLookAlikes(t *testing.T) {
	got := LookAlikes([]string{
		"gpt-4o", "gpt-4o ", "gpt\u20114o", "gpt-4o", // one group: space and hyphen
		"caf\u00e9", "cafe\u0301", // normalisation
		"a  b", "a b", // white space
		"\uff21gent", "Agent", // fullwidth A (NFKC)
		"cl\u200baude", "claude", // zero-width space
		"other", "GPT-4O", // case differs: not alike
	})
	want := []LookAlikeGroup{
		{Names: []string{"Agent", "\uff21gent"}, Differ: "look-alike characters"},
		{Names: []string{"a  b", "a b"}, Differ: "white space"},
		{Names: []string{"cafe\u0301", "caf\u00e9"}, Differ: "Unicode normalisation"},
		{Names: []string{"claude", "cl\u200baude"}, Differ: "look-alike characters"},
		{Names: []string{"gpt-4o", "gpt-4o ", "gpt\u20114o"}, Differ: "look-alike characters"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LookAlikes\n%q\nwant\n%q", got, want)
	}
}

// TestCutIdempotent: cutting a cut string again adds the counts, never
// marks twice.
func TestCutIdempotent(t *testing.T) {
	s := strings.Repeat("é", 300)
	e := func(n int) string { return strings.Repeat("é", n) }
	once := Cut(s, 200)
	if want := e(100) + "…(+200 bytes)…" + e(100); once != want {
		t.Fatalf("Cut once = %q", once)
	}
	if twice := Cut(once, 200); twice != once {
		t.Errorf("Cut twice = %q", twice)
	}
	if got, want := Cut(once, 100), e(50)+"…(+400 bytes)…"+e(50); got != want {
		t.Errorf("Cut narrower = %q, want %q", got, want)
	}
	if got := Printable(once); got != once {
		t.Errorf("Printable of a cut name = %q", got)
	}
}

// TestPrintableQuotesWorkflowCommands: a name that starts with "::" would
// start a table row with a GitHub Actions workflow command (::error::,
// ::add-mask::, ::stop-commands::); it is quoted, and "::" inside a name
// is left alone.
func TestPrintableQuotesWorkflowCommands(t *testing.T) {
	for in, want := range map[string]string{
		"::error::injected":  `"::error::injected"`,
		"::add-mask::secret": `"::add-mask::secret"`,
		"agent::v2":          "agent::v2",
		":single":            ":single",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %s, want %s", in, got, want)
		}
	}
}
