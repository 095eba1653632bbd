package openai

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// recordProblem says why rec, an openai-messages record, is bad input
// before its members are read, or returns "". The members the format reads
// are "messages" and "metadata"; JSON member names are case-sensitive, so
// a record spelling one of them in another case ("Messages", "METADATA")
// or with white space around it ("messages ") would have it silently
// ignored — a run read as a header line, or a run without its metadata —
// and is bad input instead, naming the likely cause. A member so spelt
// next to the exact one is allowed (it is kept in Run.Record).
//
// A record without "messages" is a header line (such as the
// {"metadata": {...}} on line 1 of an AgentDojo file), skipped and
// counted, unless a member holds a list of messages, objects with a
// "role" (in any case): a transcript under another name ("conversation",
// "turns"), which would drop a run silently.
//
// Members are looked at in sorted order, so the reason given does not
// depend on the record's member order.
func recordProblem(rec map[string]any) string {
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, known := range []string{"messages", "metadata"} {
		if _, ok := rec[known]; ok {
			continue
		}
		for _, k := range names {
			if strings.EqualFold(strings.TrimSpace(k), known) {
				return fmt.Sprintf(`no %q member, but %s: member names are case-sensitive (a misspelt %q?)`, known, build.Clip(fmt.Sprintf("%q", k), 100), known)
			}
		}
	}
	if _, ok := rec["messages"]; ok {
		return ""
	}
	for _, k := range names {
		if build.HoldsMessages(rec[k]) {
			return fmt.Sprintf(`no "messages" member, but %s holds a list of messages (objects with a role): a transcript must be under "messages"; a header line has no messages`, build.Clip(fmt.Sprintf("%q", k), 100))
		}
	}
	if _, ok := rec["resourceSpans"]; ok {
		// Not a header: a line of OpenTelemetry spans, whose calls would
		// otherwise be skipped unread.
		return `no "messages" member, but "resourceSpans": an OpenTelemetry trace export (OTLP/JSON), likely format otel-genai`
	}
	if msg := build.FindTranscript(rec, names); msg != "" {
		return `no "messages" member, but ` + msg
	}
	return ""
}
