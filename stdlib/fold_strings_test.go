package stdlib

import (
	"math/rand/v2"
	"strings"
	"testing"

	"cel.dev/cel-go/common/types"
)

func TestEqFold(t *testing.T) {
	checkAll(t, []expect{
		{expr: `eqFold("Bob@Example.com", "bob@example.COM")`, result: `true`},
		{expr: `eqFold("", "")`, result: `true`},
		{expr: `eqFold("a", "")`, result: `false`},
		{expr: `eqFold("bob", "bob ")`, result: `false`},
		{expr: `eqFold("K", "\u212a")`, result: `true`},
		{expr: `eqFold("s", "\u017f")`, result: `true`},
		{expr: `eqFold("ΣΊΣΥΦΟΣ", "σίσυφος")`, result: `true`},
		{expr: `eqFold("σ", "ς")`, result: `true`},
		{expr: `eqFold("straße", "STRASSE")`, result: `false`},
		{expr: `eqFold("é", "É")`, result: `true`},
		{expr: `eqFold("é", "e\u0301")`, result: `false`},
		{expr: `eqFold("İ", "i")`, result: `false`},
		{expr: `eqFold(m.to, "BOB")`, vars: map[string]any{"m": map[string]any{"to": "bob"}}, result: `true`},
		{expr: `eqFold(m.to, "BOB")`, vars: map[string]any{"m": map[string]any{"to": 1}}, err: `no such overload: eqFold(int, string)`},
		{expr: `eqFold(1, "a")`, err: `found no matching overload for 'eqFold' applied to '(int, string)'`},
		{expr: `"a".eqFold("A")`, err: `found no matching overload for 'eqFold' applied to 'string.(string)'`},
	})
}

func TestContainsFold(t *testing.T) {
	checkAll(t, []expect{
		{expr: `containsFold("Please send the IBAN now", "iban")`, result: `true`},
		{expr: `containsFold("Please send the IBAN now", "IBAN NOW")`, result: `true`},
		{expr: `containsFold("abc", "")`, result: `true`},
		{expr: `containsFold("", "")`, result: `true`},
		{expr: `containsFold("", "a")`, result: `false`},
		{expr: `containsFold("ab", "abc")`, result: `false`},
		{expr: `containsFold("iPhone 15", "android")`, result: `false`},
		{expr: `containsFold("\u212aelvin", "KEL")`, result: `true`},
		{expr: `containsFold("kelvin", "\u212a")`, result: `true`},
		{expr: `containsFold("Σίσυφος", "ΊΣΥ")`, result: `true`},
		{expr: `containsFold("ΟΔΟΣ", "ος")`, result: `true`},
		{expr: `containsFold("Straße", "SS")`, result: `false`},
		{expr: `containsFold("日本語テキスト", "テキ")`, result: `true`},
		{expr: `containsFold(m.body, "<information>")`, vars: map[string]any{"m": map[string]any{"body": "x <INFORMATION> y"}}, result: `true`},
		{expr: `containsFold("a", 1)`, err: `found no matching overload for 'containsFold' applied to '(string, int)'`},
	})
}

// containsFold agrees with its definition: some substring of s is eqFold-equal
// to sub.
func TestContainsFoldMatchesDefinition(t *testing.T) {
	alphabet := []rune("aAkKsSſ\u212aσςΣßé É1 ")
	rng := rand.New(rand.NewPCG(1, 2))
	randString := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		s, sub := randString(rng.IntN(6)), randString(rng.IntN(3))
		want := false
		rs, nsub := []rune(s), len([]rune(sub))
		for i := 0; i+nsub <= len(rs) && !want; i++ {
			want = strings.EqualFold(string(rs[i:i+nsub]), sub)
		}
		if got := containsFold(types.String(s), types.String(sub)); got != types.Bool(want) {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
		}
		if got, want := eqFold(types.String(s), types.String(sub)), types.Bool(strings.EqualFold(s, sub)); got != want {
			t.Fatalf("eqFold(%q, %q) = %v, want %v", s, sub, got, want)
		}
		if (foldString(s) == foldString(sub)) != strings.EqualFold(s, sub) {
			t.Fatalf("foldString disagrees with EqualFold on %q, %q", s, sub)
		}
	}
}
