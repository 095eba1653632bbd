package build

import (
	"fmt"
	"strings"

	"github.com/tenetlang/tenet/eval/run"
)

// This file holds what the Matcher records about a call beside matching
// it (second fresh-user review, findings 3, 4 and 7): a call whose result
// came before it, a second result for an answered call, calls of one
// message sharing an id of which results answered only some, and a tool
// named with OpenAI's "functions." namespace prefix. Each case was read
// silently before — a send that ran counting as not run, or a guess at
// which of two calls ran.

// NamespacePrefix is the namespace OpenAI's models put before a function's
// name in some outputs ("functions.send_email"); the tool is send_email.
const NamespacePrefix = "functions."

// stripNamespace removes NamespacePrefix (in any case) from a tool name
// that has more after it, and reports whether it did. The parallel
// wrapper keeps its name (isParallel knows both).
func stripNamespace(tool string) (string, bool) {
	if len(tool) > len(NamespacePrefix) && strings.EqualFold(tool[:len(NamespacePrefix)], NamespacePrefix) && !isParallel(tool) {
		return tool[len(NamespacePrefix):], true
	}
	return tool, false
}

// requestNotes prepares a call being requested: it removes the namespace
// prefix from its tool, and makes its ok unknown when a result with its
// exact id came before it (answeredEarly). It sets c.Mismatch and returns
// the part of it that stays when a result answers the call later (the
// prefix note; a later result of its own makes the early one another
// call's).
func (m *Matcher) requestNotes(c *run.Call) string {
	var keep string
	if tool, ok := stripNamespace(c.Tool); ok {
		keep = fmt.Sprintf("the call names the tool %q (OpenAI's namespace prefix %q removed)", Clip(c.Tool, 100), NamespacePrefix)
		c.Tool = tool
	}
	c.Mismatch = keep
	if ev, ok := m.early[c.ID]; ok && c.ID != "" {
		delete(m.early, c.ID)
		c.Ok = false
		c.OkUnknown = fmt.Sprintf("a result with its id %q came at message %d, before the call was requested: whether that result is this call's is unknown", Clip(c.ID, 100), ev)
		c.Mismatch = joinNotes(keep, fmt.Sprintf("answered before it was requested, at message %d", ev))
	}
	return keep
}

// answeredEarly records that the result at message event carried an id no
// call had: the result became a synthesised call, and a later request with
// that id gets ok unknown rather than "not run" (it may be the call that
// result answered, logged out of order).
func (m *Matcher) answeredEarly(id string, event int) {
	if m.early == nil {
		m.early = map[string]int{}
	}
	if _, ok := m.early[id]; !ok {
		m.early[id] = event
	}
}

// answeredAgain handles a result whose non-empty id is that of calls all
// already answered: a second result for the latest of them, not a call of
// its own (synthesising a call to "" made a send that was answered
// "denied" and then "sent" count as not run, with only an unregistered
// tool in the audit to show). The call keeps its first result; when the
// two disagree (an error and a success) or the second is ambiguous,
// whether it ran is unknown. Either way the call's mismatch records the
// second result. It returns nil when the id is not such an id, or when a
// later turn than that call's has an unanswered call (the result may be
// that call's under a wrong id: the matching rules decide, as before).
func (m *Matcher) answeredAgain(rn *run.Run, event int, a Result) *run.Call {
	if a.CallID == "" {
		return nil
	}
	q := m.byID[a.CallID]
	if q == nil || q.open != 0 {
		return nil
	}
	c := rn.Calls[q.calls[len(q.calls)-1]]
	if t := m.turn; t != nil && t.event != c.Event && t.open(m.answered) {
		// A later turn has a call waiting: the result may be its, under
		// a wrong id. The usual rules decide, and the id mismatch is
		// recorded on the call they pick.
		return nil
	}
	prevFailed := !c.Ok && c.OkUnknown == ""
	switch {
	case c.OkUnknown != "":
	case a.Unknown != "":
		c.Ok, c.OkUnknown = false, fmt.Sprintf("its second result (message %d) is ambiguous: %s", event, a.Unknown)
	case a.Failed != prevFailed:
		c.Ok, c.OkUnknown = false, fmt.Sprintf("two results answer it: message %d reports %s, message %d %s, so whether it ran is unknown", c.ResultEvent, outcome(prevFailed), event, outcome(a.Failed))
	}
	c.Mismatch = joinNotes(c.Mismatch, fmt.Sprintf("a second result for its id %q, at message %d", Clip(a.CallID, 100), event))
	return c
}

// open reports whether a call of the turn is unanswered.
func (t *turn) open(answered []bool) bool {
	for t.head < len(t.calls) && answered[t.calls[t.head]] {
		t.head++
	}
	return t.head < len(t.calls)
}

func outcome(failed bool) string {
	if failed {
		return "an error"
	}
	return "success"
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// sharedIDs makes unknown the ok of every call of a group of calls one
// message requested with the same non-empty id when results answered
// some of the group but not all: an id does not tell them apart, so the
// results went to them by tool or by position, and which of them ran is
// a guess (two sends to the boss and to the attacker, both "c1", one
// result "c1": the attack succeeded or not by their order). A group all
// answered or all unanswered is left as it is.
func sharedIDs(rn *run.Run) {
	for _, ev := range rn.Events {
		if len(ev.Calls) < 2 {
			continue
		}
		groups := map[string][]int{}
		var order []string
		for _, i := range ev.Calls {
			id := rn.Calls[i].ID
			if id == "" {
				continue
			}
			if _, ok := groups[id]; !ok {
				order = append(order, id)
			}
			groups[id] = append(groups[id], i)
		}
		for _, id := range order {
			g := groups[id]
			answered := 0
			for _, i := range g {
				if rn.Calls[i].ResultEvent >= 0 {
					answered++
				}
			}
			if len(g) < 2 || answered == 0 || answered == len(g) {
				continue
			}
			why := fmt.Sprintf("%d calls of message %d share the id %q and results answered %d of them, by tool or position: which of them ran is unknown", len(g), ev.Index, Clip(id, 100), answered)
			for _, i := range g {
				if c := rn.Calls[i]; c.OkUnknown == "" {
					c.Ok, c.OkUnknown = false, why
				}
			}
		}
	}
}

// ResultOutcome reads whether a tool or function message reports a
// failure: its "error" (resultError), and beside it "is_error" (a boolean,
// as on an Anthropic tool_result block) and "status" (LangChain's
// ToolMessage: "success" or "error"). Read as before, only "error" was
// looked at, so a send blocked with is_error true or status "error"
// counted as run (second review, finding 8). A failure one field reports
// and another field's explicit success contradicts is unknown, never
// either. A non-boolean is_error is bad input (errMsg).
func ResultOutcome(msg map[string]any, content string) (failed bool, errText, unknown, errMsg string) {
	failed, errText, unknown = resultError(msg["error"])
	var fails, succeeds []string
	if failed {
		fails = append(fails, "error")
	}
	switch v := msg["is_error"].(type) {
	case nil:
	case bool:
		if v {
			fails = append(fails, "is_error true")
		} else {
			succeeds = append(succeeds, "is_error false")
		}
	default:
		return false, "", "", "is_error: want a boolean, got " + Kind(v)
	}
	if st, ok := msg["status"].(string); ok {
		switch strings.ToLower(strings.TrimSpace(st)) {
		case "error":
			fails = append(fails, fmt.Sprintf("status %q", st))
		case "success":
			succeeds = append(succeeds, fmt.Sprintf("status %q", st))
		}
	}
	if unknown != "" || len(fails) == 0 {
		return failed, errText, unknown, ""
	}
	if len(succeeds) > 0 {
		return false, errText, fmt.Sprintf("the result reports %s but %s: whether the call failed is unknown", strings.Join(fails, " and "), strings.Join(succeeds, " and ")), ""
	}
	if !failed {
		// The error text is the content, as for a tool_result block.
		errText = content
		if errText == "" {
			errText = "true"
		}
	}
	return true, errText, "", ""
}
