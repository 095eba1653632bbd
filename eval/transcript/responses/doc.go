// Package responses reads the openai-responses transcript format into
// runs (docs/transcripts.md, "openai-responses"): OpenAI Responses API
// items. Decode is its frame.Decoder; its records are JSONL lines
// (Frame). It is one row of the registry in eval/transcript, which
// is how every other package reaches it. It builds events and calls with
// eval/transcript/build and imports eval/run and eval/transcript/build
// only.
//
// A record is one of
//
//	[item, ...]                                   // the conversation as items (a request's input, grown turn by turn)
//	{"instructions": string | [item, ...] | null, // the system prompt (a "system" event first)
//	 "input": string | [item, ...] | null,        // a string is one user message
//	 "output": [item, ...],                       // required: the response's items
//	 "metadata": {...} | null,                    // Run.Meta
//	 ...}                                         // a Response object's other fields: Run.Record only
//	{"request": {"instructions", "input", ...},    // a logged call: the request's instructions
//	 "response": {"output", "status", ...},        // (else the response's) and input, then the
//	 "metadata": {...}}                            // response's output (loggedCall)
//
// so a request logged with its response and a Response object (which has
// instructions and output, not input) are both read. An object without
// "input" and "output" is a header line, skipped, unless it holds a
// transcript or a call (build.FindTranscript) or is a Response object
// ("object": "response", refused); one with "input" but no
// "output" is bad input (a request without its response); one with
// "messages" is a chat transcript, refused with the formats to use. An
// output item with an input item's id and the same content was logged
// twice and is read once; with other content it is refused. "usage" and
// "tool_usage" counters are not searched for calls (usageMembers).
//
// Each item is one event, in record order (instructions, input, output),
// Event.Index its position: a message's role and text (its input_text and
// output_text parts and refusals); a call item (role "assistant") that
// requests one call; an output item (role "tool") that answers the call
// with its call_id. Client-side calls are function_call (tool name,
// arguments), custom_tool_call (name, {"input": input}) and
// computer_call, local_shell_call, shell_call and apply_patch_call (tool =
// the item type, args = the item's other fields); their outputs are the
// *_output items. The platform's own tools — web_search_call,
// file_search_call, code_interpreter_call, image_generation_call, and
// mcp_call (tool = its name, args = its arguments) — are one item that is
// request and result: status "completed" ran, "failed" failed, anything
// else is unknown; an mcp_call's error (a string, or the object the API
// returns: its message) is a failure. reasoning, mcp_list_tools and the
// MCP approval items carry no call. item_reference and compaction items hide items and are
// refused, as is any other type.
//
// The API has no error flag on an output item: a tool's error is text in
// "output". An output is therefore a success (ok) unless the harness
// marked it — "error", "is_error" or "status" "error" as tenet's other
// readers read them (build.ResultOutcome), or status "failed" — and a
// contradiction between them is unknown, never false.
package responses
