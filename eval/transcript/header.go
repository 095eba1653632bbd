package transcript

import (
	"fmt"
	"sort"
	"strings"
)

// headerProblem decides whether rec, an openai-messages record without a
// "messages" member, is a header line (it returns "") or bad input (it
// returns why). A header line, such as the {"metadata": {...}} on line 1 of
// an AgentDojo file, is skipped and counted; a record that was meant to be
// a run but is skipped would silently drop a run, so a record is not a
// header line when
//
//   - a member name differs from "messages" only by case or surrounding
//     white space ("Messages", "MESSAGES", "messages "): JSON member names
//     are case-sensitive, and the likely cause is a misspelt "messages";
//   - a member holds a list of messages, objects with a "role" (in any
//     case): a transcript under another name ("conversation", "turns").
//
// Members are looked at in sorted order, so the reason given does not
// depend on the record's member order.
func headerProblem(rec map[string]any) string {
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if strings.EqualFold(strings.TrimSpace(k), "messages") {
			return fmt.Sprintf(`no "messages" member, but %s: member names are case-sensitive (a misspelt "messages"?); a header line has no messages`, clip(fmt.Sprintf("%q", k), 100))
		}
	}
	for _, k := range names {
		if holdsMessages(rec[k]) {
			return fmt.Sprintf(`no "messages" member, but %s holds a list of messages (objects with a role): a transcript must be under "messages"; a header line has no messages`, clip(fmt.Sprintf("%q", k), 100))
		}
	}
	return ""
}

// holdsMessages reports whether v is a list with an object that has a
// "role" member, in any case.
func holdsMessages(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			continue
		}
		for k := range obj {
			if strings.EqualFold(strings.TrimSpace(k), "role") {
				return true
			}
		}
	}
	return false
}
