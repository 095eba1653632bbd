package build

import "strings"

// Segment is a run of a user message's content blocks, list[Start:End],
// that becomes one event: the tool's (Tool: tool_result blocks) or the
// user's (text and other blocks).
type Segment struct {
	Start, End int
	Tool       bool
}

// SplitResults cuts the content blocks of a user message that holds both
// tool_result blocks and the user's own blocks (text, an image) into
// maximal runs of each, in content order, or returns nil when the message
// holds only one kind. Read as one tool event, the user's words beside the
// results would be tool output: an instruction the user gave would look
// injected, and `read !user* send` would fire on it. Read as one user
// event, the results would be a user turn. A text block of white space
// alone says nothing: it joins the run before it (or, first, the one
// after), so that it makes no event of its own.
func SplitResults(list []any) []Segment {
	kinds := make([]int8, len(list)) // 1 tool_result, 2 the user's, 0 blank text
	var tool, user bool
	for i, raw := range list {
		b, _ := raw.(map[string]any)
		switch typ, _ := b["type"].(string); {
		case typ == "tool_result":
			kinds[i], tool = 1, true
		case typ == "text":
			if s, _ := b["text"].(string); strings.TrimSpace(s) != "" {
				kinds[i], user = 2, true
			}
		default:
			kinds[i], user = 2, true
		}
	}
	if !tool || !user {
		return nil
	}
	for i := range kinds {
		if kinds[i] == 0 && i > 0 {
			kinds[i] = kinds[i-1]
		}
	}
	for i := len(kinds) - 1; i >= 0; i-- {
		if kinds[i] == 0 {
			kinds[i] = kinds[i+1] // a blank run at the start: some block after it is not blank
		}
	}
	var segs []Segment
	for i := range kinds {
		if i == 0 || kinds[i] != kinds[i-1] {
			segs = append(segs, Segment{Start: i, Tool: kinds[i] == 1})
		}
		segs[len(segs)-1].End = i + 1
	}
	return segs
}
