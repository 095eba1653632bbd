// Package native reads the "tenet" transcript format: tenet's own run
// format, a direct JSON encoding of the run model (eval/run) that any
// harness can write (docs/transcripts.md, "tenet"; the JSON Schema is
// docs/tenet-run.schema.json). Decode is its frame.Decoder; its records
// are JSONL lines (frame.JSONL), one run per line.
//
// A record is
//
//	{"tenet_run": 1,                       // required: the format version
//	 "metadata": {...},                     // optional object: Run.Meta (meta)
//	 "pre": any, "post": any,               // optional: Run.Pre and Run.Post (pre, post)
//	 "given": {"utility": bool|null,        // optional: labels another harness gave,
//	           "attack_success": bool|null, //   read by the source's given block as
//	           "side_effect": bool|null},   //   record.given.<label>
//	 "events": [event, ...]}                // required: Run.Events, in order
//
// and an event is
//
//	{"role": "system"|"user"|"assistant"|"tool",
//	 "content": string | [block, ...],      // optional: "" when absent
//	 "calls": [{"id": string, "tool": string, "args": object | string}, ...],  // not on a tool event
//	 "call_id": string,                     // a tool event: the call it answers (required there)
//	 "error": string,                       // a tool event: the call failed, with this error
//	 "failed_unknown": string,              // a tool event: why whether it failed is unknown
//	 "ran": {"tool": string, "args": object | string}}  // a tool event: what ran, when not what was requested
//
// The format is strict, unlike the readers of other harnesses' formats:
// the harness writing it is the one that knows what happened, so every
// ambiguity the other readers settle by rules (build.Matcher) is refused
// here instead. An unknown field is an error naming its path and the
// nearest known field; types are checked; call ids are non-empty and
// unique in the run; a result names a call requested by an earlier event
// that no other result answered. Results are still matched and nested
// calls found with eval/transcript/build, so that the calls criteria see
// are built as for every format.
//
// It imports eval/run and eval/transcript/build, and
// github.com/agext/levenshtein for its suggestions.
package native
