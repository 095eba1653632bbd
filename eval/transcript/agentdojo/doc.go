// Package agentdojo is the agentdojo-run transcript reader: it reads the
// run files AgentDojo's benchmark writes (its TraceLogger), one file per
// run, into run.Run. docs/transcripts.md ("agentdojo-run") is its
// specification, field by field.
//
// A run file is one pretty-printed JSON object, filed as
// <logdir>/<pipeline>/<suite>/<user_task>/<attack>/<injection_task or
// none>.json. Frame (a frame.Framer) makes the whole file one record at
// line 1, bounded by Options.MaxRecordBytes, after checking that it holds
// exactly one JSON object with "suite_name", "pipeline_name",
// "user_task_id" and "messages" (a truncated file, a second value or
// another format's file is refused at its line). The record carries the
// file's name beside its bytes ({"file": NAME, "run": FILE}, the bytes
// starting on the record's first line), because the path says how the run
// was filed: Decode derives meta.path from it.
//
// Decode (a frame.Decoder) reads the run:
//   - messages: system, user, assistant and tool, each one event; content
//     a string (AgentDojo before 0.1.30), null, or a list of blocks
//     {"type": "text" | "thinking" | "redacted_thinking", "content"}
//     (kept in Event.Blocks; the text blocks joined with "\n" are
//     Event.Content, thinking is not);
//   - an assistant's tool_calls are FunctionCalls {function, args, id,
//     placeholder_args}: requested calls (placeholder_args, templates of
//     ground truths, are ignored); args that are not an object make a
//     malformed call (ArgsError). A FunctionCall inside args is a nested
//     call (build.Finish), audited like any call; AgentDojo runs such a
//     call before the outer one but logs only the outer result, so when
//     the outer call got a result, whether the nested one ran is unknown
//     (OkUnknown), never "did not run";
//   - a tool message answers a call by tool_call_id, else by build's rules
//     (older runs have no ids); its tool_call is what ran, compared with
//     the request (Call.Mismatch, RequestedArgs: AgentDojo turns a string
//     argument that reads as a Python list into the list before running
//     it, so the request keeps the string and the ran call the list); a
//     non-null "error" is a failed call with that text;
//   - meta is every top-level member but "messages" (unknown ones, such as
//     a fork's "usage", included), the documented optional members null
//     when absent (a crashed run has no "utility" or "security"; files
//     before 0.1.30 no "benchmark_version"), and "path": {pipeline, suite,
//     user_task, attack, injection_task} from the file's last five path
//     components, or null when the path has not that shape (standard
//     input). Where the fields and the path disagree, both are kept.
//     The run-level "error" (a provider error AgentDojo skipped the task
//     on) stays in meta: the run is a run, its labels AgentDojo's.
//   - "messages": [] is a run with no events (eval makes its labels
//     unknown).
//
// It imports eval/run, eval/transcript/build and eval/transcript/frame,
// and go-json-experiment's jsontext to check the file and find lines.
package agentdojo
