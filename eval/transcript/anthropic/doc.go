// Package anthropic reads the anthropic-messages transcript format into
// runs (docs/transcripts.md, "anthropic-messages"): Anthropic Messages API
// conversations, one JSONL line per record. Decode is the format's
// frame.Decoder; records are JSONL lines (frame.JSONL). It is one row of
// the registry in eval/transcript, which is how every other package
// reaches it. It builds events and calls with eval/transcript/build and
// imports eval/run and eval/transcript/build only.
//
// A record is one of
//
//	{"request": {request}, "response": {Message} | null, "metadata": {...}}  // a logged API call
//	{"request": {"method", "url", "headers", "body": {request}},
//	 "response": {"status_code", "headers", "body": {Message}}, ...}       // an HTTP exchange: read as its bodies
//	{"model", "system", "messages": [...], "tools", ..., "response": {Message}}  // a request body (response optional)
//	[message, ...]                                                          // a bare list of messages
//
// The request is the Messages API request (its "system", "messages" and
// "metadata" are read; "tools", "tool_choice" and "mcp_servers" declare
// tools and are not searched; other members are searched for call shapes);
// the response is the API's Message object ("role": "assistant",
// "content", "stop_reason", "usage", ...), the turn the model gave to the
// request, appended after the messages. A record that has neither
// "request" nor "messages" is a header line (skipped and counted) unless
// it holds a transcript or a call somewhere (then bad input, as in
// openai-messages), or is a Message alone (bad input: a response without
// its request).
//
// Events, in order: the system prompt (role "system", when "system" is a
// non-empty string or a list of text blocks), each message, then the
// response. Messages are "user" or "assistant" (any case; kept
// lower-cased); a user message holding tool_result blocks is an event of
// role "tool", since results are never a user turn (docs/transcripts.md).
// Content is a string or a list of blocks; a list is kept in Event.Blocks
// and its text blocks' "text" joined with "\n" is Event.Content (thinking
// is not content).
//
// Blocks read: tool_use, server_tool_use and mcp_tool_use (assistant
// only) are requested calls {id, name, input}; tool_result (user only)
// and mcp_tool_result (assistant only) are results {tool_use_id, content,
// is_error}; every other block type ending in "_tool_result" (assistant
// only: web_search_tool_result, web_fetch_tool_result,
// code_execution_tool_result, ...) is the result of a server tool call,
// failed when its content is an object whose type ends in "_error" (its
// error_code is the error). Results are matched to calls by
// build.Matcher. Other block types that name a call, a tool or a function
// are refused; the rest are kept and searched for call shapes
// (build.ScanRest).
//
// A tool_use or server_tool_use block's "caller" says who made the call
// (caller.go): absent, null or "direct" is the model, a top-level call;
// a code execution server tool ("code_execution_20260120", with its
// "tool_id") makes the call nested under that server_tool_use call
// (Depth, Parent), in its own message's calls. A caller this reader
// cannot place is refused. A "compaction" block is refused: the turns it
// summarised, and their calls, need not be in the record. Records are
// framed by frame.JSONL, which refuses a file that is one pretty-printed
// JSON document once, at its first line.
package anthropic
