// Package mcp is the reader of the `mcp` transcript format: Model Context
// Protocol session logs, one JSON-RPC 2.0 message a line as a client and
// a server exchange them (MCP schema 2025-06-18 and 2025-11-25), the whole
// file one session and one run (Frame reads it as one record, bounded by
// frame.Options.MaxRecordBytes; Decode is its frame.Decoder).
//
// Every message is one event, in file order, so that event i is
// record.messages[i]. A tools/call request is an assistant event that
// requests one call (id: the JSON-RPC id's text; tool: params.name;
// arguments: params.arguments); its response is a tool event, the call's
// result: a CallToolResult's content blocks (their text joined; the JSON
// of structuredContent when no block has text), failed when isError is
// true; a JSON-RPC error response is a failed result whose error is the
// error's message and code. A request with no response in the file leaves
// its call's outcome unknown (run.Call.OkUnknown), never "did not run":
// the server may have run it. Ids are matched as JSON-RPC does: a string
// and a number are different ids, so a session holding both 1 and "1" is
// refused (the run's call ids would be the same), as is a tools/call id
// used twice (MCP forbids it), a response that two pending requests
// could take, or one that no pending request's id matches (never given
// to a call by its place). JSON-RPC ids belong to their sender: a request whose method
// only a server sends (sampling/createMessage, roots/list,
// elicitation/create) may hold the id of a pending request only a client
// sends, and a response then goes to the one request whose result's
// required fields it has (ids.go); when both or neither fit, refused.
//
// A task-augmented tools/call (params.task, MCP 2025-11-25) answered by a
// CreateTaskResult is followed by its task id (tasks.go): its result is the
// response to tasks/result for that task; without one, the task's last
// status decides: failed fails the call, working, input_required,
// completed and cancelled leave it unknown. A second tasks/result response
// for the task is refused.
//
// Every other message (initialize, tools/list, notifications, prompts,
// resources, sampling, elicitation, ping) is an event of role "mcp" with
// no content: its payload is reachable as record.messages[i]. Meta holds
// protocolVersion, clientInfo and serverInfo from initialize. MCP carries
// no system, user or assistant text: a run of this format has none.
// Refused, with a message naming the line: what is not a JSON-RPC 2.0
// message (naming the likely format or the logging tool's wrapper), a
// tools/call that asks for input (its result comes through messages this
// reader does not follow), a task whose result cannot be tied to one call
// or whose terminal statuses disagree, and a call in a place it
// does not read (build.ScanRest: tools/call params and results beside the
// fields read, sampling/createMessage requests and results).
//
// It imports eval/run, eval/transcript/build and eval/transcript/frame.
package mcp
