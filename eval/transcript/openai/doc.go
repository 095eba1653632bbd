// Package openai reads the openai-messages transcript format into runs
// (docs/transcripts.md): Decode is its frame.Decoder, and its records are
// JSONL lines (frame.JSONL). It is one row of the registry in
// eval/transcript, which is how every other package reaches it. It builds
// events and calls with eval/transcript/build, the run building every
// reader shares, and imports eval/run, eval/transcript/build and
// eval/transcript/frame only.
//
// # Format openai-messages
//
// JSONL: one JSON object per line; blank lines are ignored; a line may end in
// "\r\n". Lines are numbered from 1 and every line counts, blank ones too.
// This is the shape of AgentDojo and Invariant exports:
//
//	{"messages": [message, ...],      // required for a run
//	 "metadata": {...},               // optional; becomes Run.Meta ({} when absent or null)
//	 ...}                             // anything else: kept in Run.Record only
//
// A record without a "messages" key (such as the {"metadata": {...}} header
// on line 1 of an AgentDojo file) carries no transcript: it is skipped and
// counted (Reader.Skipped), unless it looks like a run with a misspelt
// "messages" (header.go: then it is malformed, as is a record spelling
// "messages" or "metadata" in another case) or holds, at any depth, a
// "messages" member, a list of messages, a call or a Responses API item
// (a run in a shape this reader does not read). Whether the contract's
// source maps such a record to a run is eval's to decide
// (eval.Program.HeaderRun; HeaderRecord gives it the record). "messages": [] is a run with
// no events. The whole
// decoded object is Run.Record; JSON numbers decode as float64 (CEL double),
// objects as map[string]any. Run.Origin is the file name and the record's line.
//
// Each message becomes one run.Event, in order (Event.Index = position in
// "messages", from 0):
//
//	{"role": string,                  // required; compared in any case, kept lower-cased in Event.Role
//	 "content": string | null | [block, ...],
//	 "tool_calls": [tool_call, ...] | null,        // requested calls (read on any role; assistants send them)
//	 "function_call": {"name": string, "arguments": args} | null,  // OpenAI's legacy form of one requested call
//	 "tool_call_id": string | null,   // tool and function messages: the call this result answers
//	 "tool_call": {"function": string, "args": args, "id": string} | null,  // tool and function messages: what actually ran
//	 "name": string | null,           // tool and function messages: the tool that ran, when tool_call does not say
//	 "error": null | string | any}    // tool and function messages: the call's error
//
// Roles are compared in any case ("Tool" is a tool message) and Event.Role is
// the lower-cased role, except that a message carrying results has Event.Role
// "tool": a "function" message, and a message holding tool_result blocks (a
// user message in Anthropic's shape), so that results are never a user turn
// or user text to criteria and patterns. A message with role "tool" or "function" is a
// result; tool_call_id or tool_call (non-null) under any other role is a
// record error, as the role is then likely wrong and the result would answer
// nothing.
//
// Content: a string is kept as is, null becomes "". A list is kept in
// Event.Blocks unchanged, and Event.Content is the "text" of the blocks that
// are objects with a string "text" field, joined with "\n". Among the
// blocks, Anthropic's are read (eval/transcript/build):
//
//	{"type": "tool_use", "id": string | null, "name": string, "input": args}      // a requested call
//	{"type": "tool_result", "tool_use_id": string | null,                          // a result
//	 "content": string | null | [block, ...], "is_error": bool | null}
//
// A tool_result's content is a string, or the "text" of its blocks joined
// with "\n"; is_error true makes it a failed result whose error is its
// content, or "true" when that is empty. A message is read in this order:
// its own result (a tool or function message), then its content blocks in
// order (a tool_use requests a call, a tool_result answers one, so a result
// never precedes the call it answers in one message), then its tool_calls
// (or LangChain's additional_kwargs.tool_calls, below), then its
// function_call.
//
// A requested call, in "tool_calls", has the OpenAI shape
//
//	{"id": string | null, "type": "function", "function": {"name": string, "arguments": args}}
//
// and becomes one run.Call (Depth 0, Parent -1, Operation "" for eval to fill
// in from the contract), in order of request; the message's Event.Calls lists
// their indexes in Run.Calls. args is a JSON object, or a JSON string holding
// one (OpenAI's wire form); null or absent means no arguments (an empty map).
// Anything else — a string that does not parse, or parses to a non-object, an
// array, a number — gives Args = {} and Call.ArgsError saying why: the call is
// reported as malformed, never silently read as a call without arguments.
//
// A tool or function message is a result: Event.CallID is its tool_call_id
// ("" when null or absent); Event.Failed is whether "error" reports an error —
// null, absent, "" and false do not — and Event.Error is the error text (a
// string as is, true as "true", any other value as its JSON text). An
// "error" of 0, {}, [] or white space says neither: the event's
// FailedUnknown and the call's OkUnknown say so, and criteria reading
// failed or ok are unknown (resultError); so do the strings "false", "0",
// "None", "null" and "nil". Beside "error", "is_error" (a boolean, as on a
// tool_result block) and "status" ("error" or "success", LangChain's) are
// read: true or "error" is a failure, and a failure one field reports and
// another's explicit success contradicts is unknown (resultOutcome). Its
// "tool_call", when present, records what actually ran: its "function"
// (else the message's "name") replaces the matched call's Tool and its
// "args" replace the call's Args (and ArgsError), each only when present,
// non-null and (for the function) non-empty. Event.Tool is the tool that
// ran: the matched call's Tool after that override. A message with exactly
// one tool_result block (and no role of a result) gets that result's
// CallID, Tool, Failed and Error; one with several leaves them empty.
//
// What ran never silently replaces the request: when the tool or the
// arguments (compared after parsing) differ, the call keeps the request in
// RequestedTool and RequestedArgs, and Call.Mismatch says how they differ;
// when the result's non-empty id (tool_call_id, tool_use_id or
// tool_call.id) is not the matched call's non-empty id, Mismatch says so
// too. The tool_call's "id" also serves as the id of a synthesised call
// (rule 5 below); its "placeholder_args" is ignored (see below).
//
// LangChain keeps the provider's OpenAI tool calls in
// additional_kwargs.tool_calls: they are read as the message's tool_calls
// when it has none of its own; when it has both, they must be the same
// calls (id, tool, parsed arguments, in order), else the record is
// malformed.
//
// A call to ParallelTool (multi_tool_use.parallel, also with the
// "functions." prefix) carries the calls it
// dispatches in its arguments, {"tool_uses": [{"recipient_name":
// "functions.X", "parameters": args}, ...]}: they are nested calls (below)
// to X, which ran iff the wrapper ran — its result is theirs, Ok when the
// wrapper's result is ok, not Ok when the wrapper got no result, and
// OkUnknown (criteria reading ok are unknown) when the wrapper's result
// reports an error, since some may have run and others not.
//
// Nested calls (eval/transcript/build): every object in a call's arguments, at any key,
// is checked against every call shape at once — {"function": string,
// "args": args}, {"name": string, "arguments": args}, {"type": "tool_use",
// "name": string, "input": args}, {"recipient_name": string, "parameters":
// args} — and each shape present is a call nested in that call (Depth,
// Parent); the keys beside a call's own arguments are searched too, its
// arguments when its turn comes, down to maxNestedDepth levels.
//
// Where a call could be, a shape the reader does not know is a record error,
// never "no call": a message key that is not one of the above, whose name
// contains "call", "tool" or "function" and which holds an object, a
// non-empty list or a non-empty string; a content block whose type contains
// one of these words but is not tool_use or tool_result, an untyped block
// with a call's shape, or another block with such a key (Gemini's
// functionCall); a tool_use without a string name; a parallel wrapper
// whose tool_uses cannot be read; and anywhere in a message outside what is
// read (eval/transcript/build) — other keys at any depth, other blocks, the keys beside
// what is read of a call — a key naming a call, a tool or a function that
// holds an object, a non-empty list or a non-empty string, or a
// call-shaped object (the shapes above, {name, input|args|parameters},
// {function: {name, ...}}, a type naming a call), named by its path and
// the likely harness (Gemini's parts, LangChain's additional_kwargs, the
// Responses API). Results' content and error, tool_result content and
// placeholder_args are data, not searched. Blocks that cannot carry calls
// (text, image, thinking, ...) are kept as they are.
//
// # Matching results to calls
//
// Call ids can be empty or repeated in real logs (command-r and Gemini runs
// have no ids at all; GPT-4 runs reuse ids across turns), so each result
// (tool or function message, tool_result block) is matched, in transcript
// order, to one still-unanswered call, taking the first rule that applies;
// the latest turn is the calls of the latest message that requested calls:
//
//  1. its id is non-empty and exactly one unanswered call of the run has it;
//  2. its id is non-empty and exactly one unanswered call of the latest turn
//     has it;
//  3. the first unanswered call of the latest turn, in request order, whose
//     Tool is the tool the result says ran (tool_call.function, else name);
//  4. the first unanswered call of the latest turn, in request order;
//  5. otherwise a Call is synthesised from the result (Event = the result's
//     event, ID = its id or else tool_call.id, Tool and Args from tool_call
//     or name, or "" and {} without them), because a result proves a call
//     ran even when its request is missing. When nothing names the tool
//     and the result reports no error, its ok is unknown (OkUnknown): the
//     result proves that something ran, not what.
//
// The fallbacks (rules 3 and 4) stay inside the latest turn: an earlier
// call left unanswered must not take a later call's result, which would
// count a send that ran as not run, or a blocked one as run.
//
// Where the order or count of results leaves which call ran open, the
// call's ok is unknown (OkUnknown) and the case recorded (eval/transcript/build): a
// call requested with the exact id of an earlier result that matched no
// call (its Mismatch: answered before it was requested); a second result
// for an id whose calls are all answered, which is recorded on the latest
// of them (not a synthesised call), its ok unknown when the two disagree;
// and calls of one message sharing a non-empty id of which results
// answered some but not all — every call of that group. A tool named
// "functions.X" (OpenAI's namespace prefix) is X, recorded in Mismatch.
//
// Record members beside "messages" other than "metadata" are searched as
// unread parts of a message are, and for a message object and a ReAct
// action: a response logged beside the request is bad input, not a run
// without its calls (topLevelProblem). "metadata" is data (tool lists,
// ground-truth calls) and is not searched.
//
// The matched call gets Ok = !Failed, Result = the event's Content, Error =
// the event's Error and ResultEvent = the event's index. A call no result
// answers keeps Ok false and ResultEvent -1: a run can end with requested
// calls that never ran.
//
// Run.Output is the Content of the last event when that event is an assistant
// message with non-empty Content, else "": a run that ends on a tool message
// has no final answer, whatever the assistant said before.
//
// # placeholder_args
//
// The tool_call of an AgentDojo tool message is a serialised AgentDojo
// FunctionCall {function, args, id, placeholder_args}. Upstream documents
// placeholder_args as optional placeholder arguments for the ground-truth
// agent of injection tasks: arguments written with "$name" placeholders, for
// the reference solutions of tasks, never for what an agent under test sent. In the traces it appears only in the
// gemini-1-5-flash-002 file (all 388 tool messages) and is always null. It
// says nothing about what was requested or what ran, so the reader ignores it
// (it stays visible in Run.Record); the args field is what ran.
//
// # Errors
//
// A record is rejected whole, with an *Error, when: the line is not valid JSON
// or not a JSON object; it is longer than Options.MaxRecordBytes or nested
// deeper than Options.MaxDepth; "messages"
// is not a list; "metadata" is neither an object nor null; or a message is
// malformed. Message errors read "message N: reason", N being the index in
// "messages" from 0: a message that is not an object, a missing or non-string
// role, a content that is not a string, null or list, tool_calls that are not
// a list of {function: {name: string}} objects, a non-string id or
// tool_call_id, a tool_call that is not an object, or a non-string
// tool_call.function, or a call shape the reader cannot read (above).
// Malformed arguments are not a record error (see Call.ArgsError). A read error of the underlying reader is returned as an
// *Error wrapping it and ends the stream.
package openai
