// Package otelgenai reads the otel-genai transcript format: OpenTelemetry
// traces that follow the GenAI semantic conventions, in the OTLP/JSON
// encoding of an ExportTraceServiceRequest, one JSON object per line as the
// OpenTelemetry collector's file exporter writes them
// (resourceSpans[].scopeSpans[].spans[]).
//
// Its one job: turn the spans of one run — a trace, or every trace of one
// gen_ai.conversation.id — into a run.Run. Chat spans' gen_ai.input.messages
// and gen_ai.output.messages (JSON strings of role/parts messages) give the
// conversation; execute_tool spans give the calls that ran, with their
// results and errors. A chat span's tool_call part and the execute_tool span
// with the same gen_ai.tool.call.id are one call: the span is its result,
// and the tool_call_response part that carries the same result back to the
// model in a later chat span's input is not counted again.
//
// An execute_tool span's call failed when its status is ERROR (or it has
// error.type; the error text is the status description, else its
// exception event's message or type), and ran otherwise: OpenTelemetry
// asks instrumentations to leave the status unset unless there is an
// error, and the result attribute is opt-in, so an ended span with
// neither is a call that succeeded. pydantic-ai's
// pydantic_ai.tool.deferral.name says the tool did not run (the requested
// call keeps no result). Parts may carry members beyond
// the conventions' (their schemas allow them) unless one names a call;
// pydantic-ai's tool_call_response {id, name, result} is read. Spans that
// carry a conversation in OpenLLMetry's or OpenInference's attributes are
// refused, naming the convention.
//
// Spans of one trace may be spread over several lines, so the package has
// its own Framer (Frame): it buffers a file's spans until its end, then
// gives one record per run (an ExportTraceServiceRequest holding only that
// run's spans, at the line of its first span). Decode reads such a record
// (or any line whose spans form one run). Memory is bounded: see Frame.
//
// A run is judged only when its spans are whole traces (tree.go): part
// of a trace judged as the whole run would read a call in the missing part
// as never made, false where the truth is unknown. So a run is refused
// (bad input at the line of the first offending span) when a span names a
// parent that is not among its trace's spans — unless that parent is in
// another service's export: the span's flags say the parent is remote
// (SpanFlags 0x100 and 0x200 set), or, the flags silent on it, the span is
// of kind SERVER or CONSUMER (how a process receives a remote request or
// message); flags that say the parent is local override the kind. It is
// refused too when a trace has two root spans, a span id twice (an export
// concatenated with itself), or a parent cycle, and when a span has no
// endTimeUnixNano (OTLP exports a span when it ends: one without was
// exported in progress, and its run may not be over). Refusal, not unknown:
// what the missing part did is not one criterion's gap but any of them.
// What cannot be seen: the part of a cut trace that holds its root (spans
// end, and are exported, before their parents, so the file written last
// holds the root and lacks no parent). Spans name their parent, not their
// children, so that part read alone is judged; the other part is refused
// for its missing parent when given too. The framer groups spans within
// one file, not across the files of one command: a trace must be in one
// file.
//
// It imports eval/run, eval/transcript/frame and eval/transcript/build
// (never eval/transcript). docs/transcripts.md ("otel-genai") has the
// mapping table.
package otelgenai
