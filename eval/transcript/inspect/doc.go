// Package inspect reads Inspect AI evaluation logs (the "inspect"
// transcript format): a .eval log (a ZIP archive of header.json,
// samples/<id>_epoch_<n>.json, summaries.json, ...; members stored,
// deflated or Zstandard-compressed, method 93) or a .json log (one object
// with "eval", "samples", ...). It takes a log and gives one run per
// sample and epoch; it imports eval/run, eval/transcript/frame and
// eval/transcript/build (never eval/transcript), with archive/zip,
// github.com/klauspost/compress/zstd and go-json-experiment's jsontext.
//
// # Framing (Frame)
//
// A ZIP needs random access and a .json log is one JSON value, so Frame
// reads the whole input first, up to ArchiveFactor × Options.MaxRecordBytes
// (256 MiB by default; a longer log is one error for the file). Each
// sample is one record of at most MaxRecordBytes once decompressed (a
// member whose decompressed size passes it is an error for that member,
// read no further: a ZIP bomb costs no more than the bound) and nested no
// deeper than MaxDepth. A record's origin is "log.eval:samples/1_epoch_1.json"
// line 1 for a .eval log, and the line where the sample starts for a .json
// log. The eval spec is header.json's "eval" (or, for a log still being
// written, _journal/start.json's); the framer hands Decode
// {"eval": <eval spec>, "sample": <sample>}. Every file under samples/
// is a sample (one not named .json is an error, never skipped); after
// the last, each sample summaries.json lists must have had its member,
// else the log is truncated or altered and that is an error.
//
// # Decoding (Decode)
//
// The sample's "messages" (Inspect's ChatMessage list) are the events, in
// order. Every string of the messages, metadata, scores and target that is
// exactly "attachment://<key>" is replaced by the sample's
// attachments[<key>]; a reference to no attachment is an error. Roles are
// system, user, assistant and tool. Content is a string or a list of
// content objects (text, reasoning, image, audio, video, data, document,
// tool_use) kept in Event.Blocks, Event.Content being the text of the text
// objects joined with "\n". An assistant's tool_calls [{id, function,
// arguments, parse_error}] are its calls (a non-null parse_error makes
// the call's ArgsError); a tool message (tool_call_id, function,
// error {type, message}) is a result, matched by build.Matcher: error
// non-null is a failure whose text is error.message (else error.type).
// A tool_use content object (a call the provider ran itself) is a call
// answered where it stands by its result and error.
//
// Run.Meta (`meta` in a contract) is {id, epoch, task, task_id, run_id,
// eval_id, model, metadata, scores, target, error}: the sample's id and
// epoch (1 when absent), the eval spec's task and model names, the
// sample's metadata and scores objects ({} when absent), its target and
// its error message (null without one), and calls_from (see Tool events). Run.Record
// is the framed record.
//
// # Tool events (events.go)
//
// A handed-off agent's calls (Inspect's default content_only filter writes
// them into the messages as text) exist only as "tool" events of
// sample.events, so those are read too, in their order (an event is
// written when its call starts). A tool event whose id is a message
// call's is that call (the k-th event of an id the k-th call of it), and
// must agree with it on function and arguments, else the record is
// refused. Any other tool event is a top-level, result-only call answered
// by a "tool" event of its own, placed: after the messages answering the
// call it ran within (found by spans, the handoff's tool span, or by an
// older log's nested "events"); else after those answering the latest
// message call whose tool event came before it; else before the message
// requesting the first whose event came after it; else, with no message
// calls, at the end. A call none of these orders is refused.
// Other event types are ignored (a "subtask"'s nested events are read in
// place); one whose type names a call is refused. Meta "calls_from" is
// "messages" when the sample has no events, else "messages and events".
//
// Not read: the sample's output, store, model_usage and the log's
// plan, results, stats and reductions — the output is its last message.
// Where a call could hide in a message or tool event outside what is
// read, or in a content object whose type names a call, the record is
// refused (build.ScanRest).
package inspect
