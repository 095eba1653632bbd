// Package build is what every transcript reader shares to turn a decoded
// record into a run.Run with the same events and calls whatever the
// format: it takes the pieces a reader found (events, requested calls,
// results) and gives the run's calls with results matched to them (by id,
// else in order: Matcher), the calls nested in calls' arguments and the
// calls a parallel wrapper dispatched (Finish), the notes of what is
// unknown (a result before its request, two results for one call, shared
// ids), and the refusals that keep a reader from reading a call as "no
// call": call shapes in the parts of a record the reader does not read
// (ScanRest, UnknownCallKey, TopLevelProblem, FindTranscript), a call
// written as text in a chat template's form (TextCall, TextCallProblem),
// Anthropic content blocks (ContentBlocks) and the cut of a user message
// holding tool results and the user's own words into events (SplitResults). It also holds the JSON decoding
// every reader must use (DecodeJSON: duplicate names and invalid UTF-8 are
// errors) and the value helpers of its messages (ParseArgs, OptString,
// Kind, Clip).
//
// Problems are returned as a message string ("" for none) naming the place
// in the record; the reader returns it as its frame.Decoder's msg, and the
// registry (eval/transcript) adds file:line. The refusals speak of
// openai-messages' shapes unless the reader passes its own words (Terms,
// whose methods are the functions above in those words), so that no
// reader rewrites this package's prose. It imports eval/run only.
package build
