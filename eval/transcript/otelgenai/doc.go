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
// Spans of one trace may be spread over several lines, so the package has
// its own Framer (Frame): it buffers a file's spans until its end, then
// gives one record per run (an ExportTraceServiceRequest holding only that
// run's spans, at the line of its first span). Decode reads such a record
// (or any line whose spans form one run). Memory is bounded: see Frame.
//
// It imports eval/run, eval/transcript/frame and eval/transcript/build
// (never eval/transcript). docs/transcripts.md ("otel-genai") has the
// mapping table.
package otelgenai
