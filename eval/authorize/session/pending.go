package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// place returns the run to check c on and c's index in it.
//
// A host that reports the whole conversation sends the assistant message
// requesting c among its messages, and c itself as the pending call. The
// history then already holds c, unanswered: appending it again
// (authorize.WithPending) would count it twice — a forbid of two sends, a
// count of calls — and change the answer without a word. So when the
// history holds a top-level call that no result answers with c's
// non-empty id, that call is the pending one: it is checked in place, as
// it would be once run (a copy with ok true, as WithPending makes the
// call it appends), and it must be c (the same tool and arguments), else
// the request is refused (CallMismatch). Without an id, c cannot be told
// apart from the calls the history's last message requests and no result
// answers yet: when there are such calls the request is refused
// (CallIDRequired) rather than guessed either way. Otherwise c is
// appended, as a new assistant message.
func place(rn *run.Run, c authorize.Call) (_ *run.Run, pending int, inHistory bool, _ error) {
	if c.ID != "" {
		var at []int
		for _, hc := range rn.Calls {
			if hc.Parent < 0 && hc.ResultEvent < 0 && hc.ID == c.ID {
				at = append(at, hc.Index)
			}
		}
		switch len(at) {
		case 0:
		case 1:
			hc := rn.Calls[at[0]]
			if what := differs(hc, c); what != "" {
				return nil, 0, false, &Error{Code: CallMismatch, Msg: fmt.Sprintf("call %q: the history's message %d requests a call of this id that no result answers yet, which is this pending call, but %s (send the call the message requests, or give a new call a new id)", clip(c.ID), hc.Event, what)}
			}
			r := *rn
			r.Calls = slices.Clone(rn.Calls)
			cp := *hc
			cp.Ok, cp.OkUnknown = true, ""
			r.Calls[hc.Index] = &cp
			return &r, hc.Index, true, nil
		default:
			return nil, 0, false, &Error{Code: CallMismatch, Msg: fmt.Sprintf("call %q: %d calls of the history have this id and no result yet (messages %s), so which one is pending is not known (give each call its own id)", clip(c.ID), len(at), eventsOf(rn, at))}
		}
	} else if n := len(rn.Events); n > 0 {
		var open []int
		for _, ci := range rn.Events[n-1].Calls {
			if rn.Calls[ci].ResultEvent < 0 {
				open = append(open, ci)
			}
		}
		if len(open) > 0 {
			tools := make([]string, len(open))
			for i, ci := range open {
				tools[i] = fmt.Sprintf("%q (id %q)", rn.Calls[ci].Tool, clip(rn.Calls[ci].ID))
			}
			return nil, 0, false, &Error{Code: CallIDRequired, Msg: fmt.Sprintf("call %q has no id, and the history's last message (%d) requests calls no result answers yet: %s; the pending call may be one of them, checked in place, or a new one, appended: give the call's id (a call the history already holds is checked where it is)", c.Tool, n-1, strings.Join(tools, ", "))}
		}
	}
	r, i, err := authorize.WithPending(rn, c)
	return r, i, false, err
}

// differs says how the history's call hc differs from the pending call c
// ("" when they are the same call): its tool, then its arguments.
func differs(hc *run.Call, c authorize.Call) string {
	if hc.Tool != c.Tool {
		return fmt.Sprintf("its tool is %q there and %q here", hc.Tool, c.Tool)
	}
	if hc.ArgsError != c.ArgsError {
		return "its arguments differ (" + orObject(hc.ArgsError) + " there, " + orObject(c.ArgsError) + " here)"
	}
	a, errA := json.Marshal(nonNil(hc.Args))
	b, errB := json.Marshal(nonNil(c.Args))
	if errA != nil || errB != nil || string(a) != string(b) {
		return fmt.Sprintf("its arguments differ (%s there, %s here)", clip(string(a)), clip(string(b)))
	}
	return ""
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func orObject(argsError string) string {
	if argsError == "" {
		return "an object"
	}
	return "not an object: " + argsError
}

func eventsOf(rn *run.Run, calls []int) string {
	s := make([]string, len(calls))
	for i, ci := range calls {
		s[i] = fmt.Sprint(rn.Calls[ci].Event)
	}
	return strings.Join(s, ", ")
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// unanswered returns rn (a run from place, its pending call at index
// pending) with every other top-level call no result answers marked as
// of unknown outcome (OkUnknown), on copies: rn's calls may be the
// session's cached decoding, which later checks reuse. The
// openai-messages reader reads such a call as one that did not run (ok
// false), which is right for a finished transcript; in a live session the
// host may be running it now, or may have run it and not reported its
// result yet, so whether it ran is unknown, and an invariant that reads
// ok is unknown on it rather than quietly held — the gateway's rule for
// a call in flight. The calls such a call dispatches (a parallel
// wrapper's) take its outcome, as once answered: unknown too.
func unanswered(rn *run.Run, pending int) *run.Run {
	cloned := false
	mark := func(i int, why string) {
		if !cloned {
			r := *rn
			r.Calls = slices.Clone(rn.Calls)
			rn, cloned = &r, true
		}
		cp := *rn.Calls[i]
		cp.Ok, cp.OkUnknown = false, why
		rn.Calls[i] = &cp
	}
	for i := range len(rn.Calls) {
		c := rn.Calls[i]
		if i == pending || c.Parent >= 0 || c.ResultEvent >= 0 || c.OkUnknown != "" {
			continue
		}
		why := fmt.Sprintf("call %d (%q, message %d) has no result in the session yet: whether it ran is unknown (report its result)", c.Index, c.Tool, c.Event)
		mark(i, why)
		for _, d := range dispatchedBy(rn, i) {
			mark(d, fmt.Sprintf("call %d (%q) dispatched it and has no result in the session yet: whether it ran is unknown", c.Index, c.Tool))
		}
	}
	return rn
}

// dispatchedBy returns the indexes of the calls top-level call i of rn
// dispatches (a parallel wrapper's, which run iff it runs). Its nested
// calls are found again, as the readers find them (build.AppendNested),
// on a stand-in of it that has a result: the calls that take the
// stand-in's result are the dispatched ones. Direct children are found in
// the same order both times (nested calls are appended outermost first).
func dispatchedBy(rn *run.Run, i int) []int {
	var children []int
	for _, c := range rn.Calls {
		if c.Parent == i {
			children = append(children, c.Index)
		}
	}
	if len(children) == 0 {
		return nil
	}
	top := *rn.Calls[i]
	top.Index, top.Parent, top.Depth, top.ResultEvent, top.Ok, top.OkUnknown = 0, -1, 0, 0, true, ""
	mini := run.Run{Calls: []*run.Call{&top}}
	if build.AppendNested(&mini, 0) != "" {
		return nil // the decoding found them: not reached
	}
	var out []int
	k := 0
	for _, c := range mini.Calls[1:] {
		if c.Parent != 0 {
			continue
		}
		if k >= len(children) {
			break
		}
		if c.ResultEvent >= 0 { // took the stand-in's result: dispatched
			out = append(out, children[k])
		}
		k++
	}
	return out
}
