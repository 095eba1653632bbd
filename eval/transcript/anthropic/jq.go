package anthropic

// jqHint is the jq command that makes JSONL of a document that starts
// with t: the elements of a list, or the one object.
func jqHint(t string) string {
	if t == "[" {
		return `a list of records? make it JSONL with jq -c '.[]'`
	}
	return `one record? make it JSONL with jq -c .`
}
