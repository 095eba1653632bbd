// Package excerpt renders the part of a run a report points a reader at:
// the items a violated invariant's witness names and, for a run whose
// label disagrees with a given one, its calls and its last message, each
// item as one short line (runs.Record.Excerpt, docs/runs-format.md). eval
// calls Of when it judges a run, so that the runs file carries what the
// HTML report expands under a listed run, without the transcript.
package excerpt

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
)

// Of returns the excerpt of the judged record rec of run r: nil unless an
// invariant was violated with a witness or a label disagrees with a given
// one. At most runs.MaxExcerptItems items, each at most
// runs.MaxExcerptText bytes: witnessed items first (by invariant, then
// step), then, for a disagreement, the calls in order and the last event.
func Of(r *run.Run, rec *runs.Record) map[string]string {
	var items []string
	for _, w := range slices.Sorted(maps.Keys(rec.Witnesses)) {
		steps := rec.Witnesses[w]
		for _, s := range slices.Sorted(maps.Keys(steps)) {
			items = append(items, steps[s])
		}
	}
	if Disagrees(rec) {
		for _, c := range r.Calls {
			items = append(items, "call:"+strconv.Itoa(c.Index))
		}
		if n := len(r.Events); n > 0 {
			items = append(items, "event:"+strconv.Itoa(n-1))
		}
	}
	var out map[string]string
	for _, it := range items {
		if len(out) == runs.MaxExcerptItems {
			break
		}
		if _, done := out[it]; done {
			continue
		}
		text, ok := Item(r, it)
		if !ok {
			continue // an index the run does not have: nothing to show
		}
		if out == nil {
			out = map[string]string{}
		}
		out[it] = text
	}
	return out
}

// Disagrees reports whether one of rec's labels is known and differs
// from the label another harness gave.
func Disagrees(rec *runs.Record) bool {
	for _, p := range []struct {
		ours  runs.Label
		given *bool
	}{{rec.Utility, rec.Given.Utility}, {rec.AttackSuccess, rec.Given.AttackSuccess}, {rec.SideEffect, rec.Given.SideEffect}} {
		if p.given != nil && p.ours.Known && p.ours.Value != *p.given {
			return true
		}
	}
	return false
}

// Item renders one item of r ("event:N" or "call:N") as a short line;
// false when r has no such item.
func Item(r *run.Run, item string) (string, bool) {
	kind, num, _ := strings.Cut(item, ":")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 {
		return "", false
	}
	switch {
	case kind == "call" && i < len(r.Calls):
		return Clip(call(r.Calls[i])), true
	case kind == "event" && i < len(r.Events):
		return Clip(event(r.Events[i])), true
	}
	return "", false
}

// call renders "tool(arg=value, …) → ok: result" (or "→ error: …", or
// "→ no result"). Only the first bytes of the arguments and of the result
// are rendered: an argument may be megabytes long, a line is a few hundred
// bytes.
func call(c *run.Call) string {
	var b strings.Builder
	b.WriteString(c.Tool)
	b.WriteByte('(')
	for i, k := range slices.Sorted(maps.Keys(c.Args)) {
		if b.Len() > runs.MaxExcerptText {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(head(k))
		b.WriteByte('=')
		value(&b, c.Args[k], 0)
	}
	if c.ArgsError != "" {
		b.WriteString("unreadable arguments: " + head(c.ArgsError))
	}
	b.WriteByte(')')
	switch {
	case c.ResultEvent < 0:
		b.WriteString(" → no result")
	case c.Error != "":
		b.WriteString(" → error: " + head(c.Error))
	default:
		b.WriteString(" → " + head(c.Result))
	}
	return b.String()
}

// maxDepth bounds the nesting value renders: deeper values are "…".
const maxDepth = 8

// value writes v as JSON (keys sorted, strings quoted, not HTML-escaped),
// stopping with "…" once b holds a line's worth or below maxDepth.
func value(b *strings.Builder, v any, depth int) {
	if b.Len() > runs.MaxExcerptText || depth > maxDepth {
		b.WriteString("…")
		return
	}
	switch v := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b.WriteByte(',')
			}
			if b.Len() > runs.MaxExcerptText {
				b.WriteString("…")
				break
			}
			quote(b, k)
			b.WriteByte(':')
			value(b, v[k], depth+1)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if b.Len() > runs.MaxExcerptText {
				b.WriteString("…")
				break
			}
			value(b, e, depth+1)
		}
		b.WriteByte(']')
	case string:
		quote(b, v)
	default:
		out, err := json.Marshal(v) // numbers, booleans, null
		if err != nil {
			out = []byte(head(fmt.Sprint(v)))
		}
		b.Write(out)
	}
}

// quote writes s's head as a JSON string, not HTML-escaped.
func quote(b *strings.Builder, s string) {
	var q strings.Builder
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false) // the reports escape; "<" stays readable
	_ = enc.Encode(head(s))  // a string always encodes
	b.WriteString(strings.TrimSuffix(q.String(), "\n"))
}

// head is the first bytes of s, enough for a clipped line: Clip then
// sees at most twice a line's bytes (a text of megabytes is never
// copied whole).
func head(s string) string {
	const limit = 2 * runs.MaxExcerptText
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// event renders "role: content", a tool result as "tool NAME: content".
func event(e *run.Event) string {
	who := e.Role
	if e.Role == "tool" && e.Tool != "" {
		who = "tool " + e.Tool
	}
	if e.Content == "" && len(e.Calls) > 0 {
		return fmt.Sprintf("%s: (requests %s)", who, strings.Join(callNames(e.Calls), ", "))
	}
	return who + ": " + head(e.Content)
}

func callNames(cs []int) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = "call:" + strconv.Itoa(c)
	}
	return out
}

// Clip makes s one line of at most runs.MaxExcerptText bytes of valid
// UTF-8: runs of white space (newlines included) become one space, other
// control characters and invalid bytes "\uFFFD" (a terminal or a page
// shows the text as text), and a longer text is cut at a rune boundary and
// ends in "…".
func Clip(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
	if len(s) <= runs.MaxExcerptText {
		return s
	}
	const ellipsis = "…"
	cut := runs.MaxExcerptText - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
