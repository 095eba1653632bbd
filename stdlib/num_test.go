package stdlib

import (
	"math"
	"strings"
	"testing"
)

func TestNum(t *testing.T) {
	long := strings.Repeat("1", 257)
	checkAll(t, []expect{
		// numbers
		{expr: `num(3)`, result: `3.0`},
		{expr: `num(-3)`, result: `-3.0`},
		{expr: `num(3u)`, result: `3.0`},
		{expr: `num(98.7)`, result: `98.7`},
		{expr: `num(9007199254740993)`, result: `9007199254740992.0`},
		{expr: `num(18446744073709551615u)`, result: `18446744073709551616.0`},
		{expr: `num(double("NaN")) != num(double("NaN"))`, result: `true`},
		{expr: `num(double("-Infinity"))`, result: `double("-Infinity")`},
		// strings
		{expr: `num("98.70")`, result: `98.7`},
		{expr: `num("98.70") == 98.7`, result: `true`},
		{expr: `num(" 7 ")`, result: `7.0`},
		{expr: `num("\t\n\r\v\f 7 \n")`, result: `7.0`},
		{expr: `num("1e3")`, result: `1000.0`},
		{expr: `num("1E-2")`, result: `0.01`},
		{expr: `num("+.5")`, result: `0.5`},
		{expr: `num("-5.")`, result: `-5.0`},
		{expr: `num("007")`, result: `7.0`},
		{expr: `num("-0")`, result: `-0.0`},
		{expr: `num("1e-400")`, result: `0.0`},
		{expr: `num("12345678901234567890")`, result: `12345678901234567890.0`},
		{expr: `num(v)`, vars: map[string]any{"v": "2.5"}, result: `2.5`},
		{expr: `num(v)`, vars: map[string]any{"v": 2}, result: `2.0`},
		{expr: `num(m.amount) * 2.0`, vars: map[string]any{"m": map[string]any{"amount": "1.25"}}, result: `2.5`},
		// not numbers
		{expr: `num(true)`, err: `num: bool is not a number`},
		{expr: `num(null)`, err: `num: null_type is not a number`},
		{expr: `num([1])`, err: `num: list is not a number`},
		{expr: `num({"a": 1})`, err: `num: map is not a number`},
		{expr: `num(b"1")`, err: `num: bytes is not a number`},
		{expr: `num(timestamp("2024-01-01T00:00:00Z"))`, err: `num: google.protobuf.Timestamp is not a number`},
		{expr: `num(duration("1s"))`, err: `num: google.protobuf.Duration is not a number`},
		{expr: `num(optional.of(1))`, err: `num: optional_type is not a number`},
		{expr: `num(v)`, vars: map[string]any{"v": nil}, err: `num: null_type is not a number`},
		{expr: `num(v)`, vars: map[string]any{"v": false}, err: `num: bool is not a number`},
		// not decimal literals
		{expr: `num("")`, err: `num: string "" is not a decimal number`},
		{expr: `num("   ")`, err: `num: string "   " is not a decimal number`},
		{expr: `num("abc")`, err: `num: string "abc" is not a decimal number`},
		{expr: `num("12 apples")`, err: `num: string "12 apples" is not a decimal number`},
		{expr: `num("nan")`, err: `num: string "nan" is not a decimal number`},
		{expr: `num("-inf")`, err: `num: string "-inf" is not a decimal number`},
		{expr: `num("Infinity")`, err: `num: string "Infinity" is not a decimal number`},
		{expr: `num("0x10")`, err: `num: string "0x10" is not a decimal number`},
		{expr: `num("0x1p-2")`, err: `num: string "0x1p-2" is not a decimal number`},
		{expr: `num("1_000")`, err: `num: string "1_000" is not a decimal number`},
		{expr: `num("1,5")`, err: `num: string "1,5" is not a decimal number`},
		{expr: `num(".")`, err: `num: string "." is not a decimal number`},
		{expr: `num("1e")`, err: `num: string "1e" is not a decimal number`},
		{expr: `num("e5")`, err: `num: string "e5" is not a decimal number`},
		{expr: `num("--1")`, err: `num: string "--1" is not a decimal number`},
		{expr: `num("\u00a07")`, err: `num: string "\u00a07" is not a decimal number`},
		{expr: `num("$5")`, err: `num: string "$5" is not a decimal number`},
		{expr: `num("1e400")`, err: `num: string "1e400" is out of double range`},
		{expr: `num("-1e400")`, err: `num: string "-1e400" is out of double range`},
		{expr: `num("` + long + `")`, err: `num: string of 257 bytes is too long to be a number`},
		{expr: `num("this is not a number, and it is a long text")`, err: `num: string "this is not a number, and it is a long t"... is not a decimal number`},
		{expr: `num("ééééééééééééééééééééé")`, err: `num: string "éééééééééééééééééééé"... is not a decimal number`},
		// type-checking: the result is a double
		{expr: `num(1) == 1`, err: `found no matching overload for '_==_' applied to '(double, int)'`},
		{expr: `num("1") + 1`, err: `found no matching overload for '_+_' applied to '(double, int)'`},
		{expr: `num()`, err: `found no matching overload for 'num' applied to '()'`},
		{expr: `num(1, 2)`, err: `found no matching overload for 'num' applied to '(int, int)'`},
		{expr: `"1".num()`, err: `found no matching overload for 'num' applied to 'string.()'`},
	})
}

func TestIsDecimalLiteral(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "12": true, "1.": true, ".5": true, "1.5": true, "+1": true, "-1.5e+10": true, "1e5": true, "1E05": true,
		"": false, "+": false, ".": false, "-.": false, "1e": false, "1e+": false, "1.5.": false, " 1": false, "1 ": false,
		"1_0": false, "0x1": false, "inf": false, "NaN": false, "1e5.5": false, "١": false,
	} {
		if got := isDecimalLiteral(s); got != want {
			t.Errorf("isDecimalLiteral(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestTruthy(t *testing.T) {
	checkAll(t, []expect{
		{expr: `truthy(null)`, result: `false`},
		{expr: `truthy(true)`, result: `true`},
		{expr: `truthy(false)`, result: `false`},
		{expr: `truthy(0)`, result: `false`},
		{expr: `truthy(-2)`, result: `true`},
		{expr: `truthy(0u)`, result: `false`},
		{expr: `truthy(1u)`, result: `true`},
		{expr: `truthy(0.0)`, result: `false`},
		{expr: `truthy(-0.0)`, result: `false`},
		{expr: `truthy(0.1)`, result: `true`},
		{expr: `truthy(double("NaN"))`, result: `true`},
		{expr: `truthy("")`, result: `false`},
		{expr: `truthy(" ")`, result: `true`},
		{expr: `truthy("false")`, result: `true`},
		{expr: `truthy(b"")`, result: `false`},
		{expr: `truthy(b"\x00")`, result: `true`},
		{expr: `truthy([])`, result: `false`},
		{expr: `truthy([null])`, result: `true`},
		{expr: `truthy({})`, result: `false`},
		{expr: `truthy({"a": false})`, result: `true`},
		{expr: `truthy(timestamp("1970-01-01T00:00:00Z"))`, result: `true`},
		{expr: `truthy(duration("0s"))`, result: `true`},
		{expr: `truthy(optional.none())`, result: `true`},
		{expr: `truthy(int)`, result: `true`},
		{expr: `truthy(v)`, vars: map[string]any{"v": nil}, result: `false`},
		{expr: `truthy(v)`, vars: map[string]any{"v": []any{}}, result: `false`},
		{expr: `truthy(v)`, vars: map[string]any{"v": map[string]any{"k": 1}}, result: `true`},
		{expr: `truthy(m.a)`, vars: map[string]any{"m": map[string]any{"a": 0.0}}, result: `false`},
		{expr: `truthy(m.a)`, vars: map[string]any{"m": map[string]any{}}, err: `no such key: a`},
		{expr: `truthy(1) == 1`, err: `found no matching overload for '_==_' applied to '(bool, int)'`},
		{expr: `truthy()`, err: `found no matching overload for 'truthy' applied to '()'`},
	})
}

func TestApprox(t *testing.T) {
	checkAll(t, []expect{
		{expr: `approx(0.1 + 0.2, 0.3, 1e-9)`, result: `true`},
		{expr: `approx(0.1 + 0.2, 0.3, 0.0)`, result: `false`},
		{expr: `approx(1.0, 1.5, 0.5)`, result: `true`},
		{expr: `approx(1.5, 1.0, 0.5)`, result: `true`},
		{expr: `approx(1.0, 1.5000001, 0.5)`, result: `false`},
		{expr: `approx(1, 1.0, 0)`, result: `true`},
		{expr: `approx(2u, 3, 1u)`, result: `true`},
		{expr: `approx("98.70", 98.7, 0.0)`, result: `true`},
		{expr: `approx(" 100 ", "100.004", "0.005")`, result: `true`},
		{expr: `approx(double("NaN"), double("NaN"), 1.0)`, result: `false`},
		{expr: `approx(double("Infinity"), double("Infinity"), 0.0)`, result: `true`},
		{expr: `approx(double("Infinity"), 1e308, 1e308)`, result: `false`},
		{expr: `approx(1.0, 2.0, double("Infinity"))`, result: `true`},
		{expr: `approx(m.amount, 98.7, 0.005)`, vars: map[string]any{"m": map[string]any{"amount": 98.7}}, result: `true`},
		{expr: `approx(m.amount, 98.7, 0.005)`, vars: map[string]any{"m": map[string]any{"amount": "98.70"}}, result: `true`},
		{expr: `approx(m.amount, 98.7, 0.005)`, vars: map[string]any{"m": map[string]any{"amount": 99}}, result: `false`},
		{expr: `approx(1.0, 1.0, -0.1)`, err: `approx: tolerance must be >= 0, got -0.1`},
		{expr: `approx(1.0, 1.0, -1)`, err: `approx: tolerance must be >= 0, got -1`},
		{expr: `approx(1.0, 1.0, double("NaN"))`, err: `approx: tolerance must be >= 0, got NaN`},
		{expr: `approx(true, 1.0, 0.1)`, err: `approx: argument 1: bool is not a number`},
		{expr: `approx(1.0, "abc", 0.1)`, err: `approx: argument 2: string "abc" is not a decimal number`},
		{expr: `approx(1.0, 1.0, null)`, err: `approx: argument 3: null_type is not a number`},
		{expr: `approx(1.0, "1e999", 0.1)`, err: `approx: argument 2: string "1e999" is out of double range`},
		{expr: `approx(m.amount, 98.7, 0.005)`, vars: map[string]any{"m": map[string]any{"amount": true}}, err: `approx: argument 1: bool is not a number`},
		{expr: `approx(1.0, 2.0)`, err: `found no matching overload for 'approx' applied to '(double, double)'`},
		{expr: `approx(1.0, 2.0, 0.1) == 1`, err: `found no matching overload for '_==_' applied to '(bool, int)'`},
	})
}

func TestQuoteShort(t *testing.T) {
	for in, want := range map[string]string{
		"":                            `""`,
		"abc":                         `"abc"`,
		"a\"b\n":                      `"a\"b\n"`,
		strings.Repeat("x", 40):       `"` + strings.Repeat("x", 40) + `"`,
		strings.Repeat("x", 41):       `"` + strings.Repeat("x", 40) + `"...`,
		strings.Repeat("é", 21):       `"` + strings.Repeat("é", 20) + `"...`,
		"x" + strings.Repeat("é", 21): `"x` + strings.Repeat("é", 19) + `"...`,
	} {
		if got := quoteShort(in); got != want {
			t.Errorf("quoteShort(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestToNumberGo(t *testing.T) {
	// The largest literal that fits 256 bytes after trimming is accepted.
	s := strings.Repeat(" ", 100) + "1" + strings.Repeat("0", 55) + strings.Repeat(" ", 100)
	f, err := parseDecimal(s)
	if err != nil || f != 1e55 {
		t.Fatalf("parseDecimal(%d bytes) = %v, %v", len(s), f, err)
	}
	if f, err := parseDecimal("4.9e-324"); err != nil || f != math.SmallestNonzeroFloat64 {
		t.Fatalf("parseDecimal(4.9e-324) = %v, %v", f, err)
	}
}
