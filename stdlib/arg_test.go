package stdlib

import "testing"

func TestArg(t *testing.T) {
	args := map[string]any{"to": "bob", "cc": nil, "amount": 0.0, "flag": false, "list": []any{}}
	checkAll(t, []expect{
		{expr: `arg({'to': 'bob', 'cc': null}, 'cc', 'nobody')`, result: `"nobody"`},
		{expr: `arg({'to': 'bob'}, 'to', '')`, result: `"bob"`},
		{expr: `arg({'to': 'bob'}, 'amount', 0.0)`, result: `0.0`},
		{expr: `arg({}, 'x', null)`, result: `null`},
		{expr: `arg(m, 'to', '')`, vars: map[string]any{"m": args}, result: `"bob"`},
		{expr: `arg(m, 'cc', 'nobody')`, vars: map[string]any{"m": args}, result: `"nobody"`},
		{expr: `arg(m, 'missing', 'dflt')`, vars: map[string]any{"m": args}, result: `"dflt"`},
		// falsy values that are present are returned, not replaced
		{expr: `arg(m, 'amount', 5.0)`, vars: map[string]any{"m": args}, result: `0.0`},
		{expr: `arg(m, 'flag', true)`, vars: map[string]any{"m": args}, result: `false`},
		{expr: `arg(m, 'list', [1])`, vars: map[string]any{"m": args}, result: `[]`},
		{expr: `arg(m, 'to', '').startsWith('b')`, vars: map[string]any{"m": args}, result: `true`},
		{expr: `num(arg(m, 'amount', 1)) == 0.0`, vars: map[string]any{"m": args}, result: `true`},
		{expr: `m.missing`, vars: map[string]any{"m": args}, err: `no such key: missing`},
		{expr: `arg(v, 'to', '')`, vars: map[string]any{"v": map[string]any{"to": "x"}}, result: `"x"`},
		{expr: `arg(v, 'to', '')`, vars: map[string]any{"v": nil}, err: `no such overload: arg(null_type, string, string)`},
		{expr: `arg({'a': 1}, 'a', 0) == 1`, result: `true`},
		{expr: `arg({'a': 1}, 'a', 0) + 1`, result: `2`},
		{expr: `arg({'a': 1}, 'a', 0) + 1.0`, err: `no such overload`},
		{expr: `arg({1: 1}, 'a', 0)`, err: `found no matching overload for 'arg' applied to '(map(int, int), string, int)'`},
		{expr: `arg({'a': 1}, 1, 0)`, err: `found no matching overload for 'arg' applied to '(map(string, int), int, int)'`},
		{expr: `arg([1], 'a', 0)`, err: `found no matching overload for 'arg' applied to '(list(int), string, int)'`},
		{expr: `arg({'a': 1}, 'a')`, err: `found no matching overload for 'arg' applied to '(map(string, int), string)'`},
	})
}
