// Package taubench is the tau-bench transcript reader: it reads the
// results files of sierra-research/tau-bench and tau2-bench into runs, one
// run per trajectory (tau-bench) or simulation (tau2-bench).
//
// Frame (a frame.Framer) splits one results file into records: the
// elements of a tau-bench results array, or of a tau2-bench results
// object's "simulations", each given with the results' "timestamp" and
// "info". A record's Origin.Line is the line of the file its element
// starts on; an error about one message names that message's line
// (frame.AtLine). Memory is bounded by Options.MaxRecordBytes per element;
// an element over the limit, or a framing error, ends the stream.
//
// tau2's directory format (DIR/results.json with the header, and
// DIR/simulations/<id>.json, one bare simulation each) is read file by
// file: a simulation file is one record, as an element of "simulations"
// is, whose header is read from DIR/results.json when the file is a
// regular file in a directory named simulations and that results.json
// exists (the one place a reader opens a file it was not given: see
// siblingHeader); else it reads without one. DIR/results.json gives no
// record when simulations/ is beside it, so that `tenet eval C DIR`
// counts each simulation once.
//
// Decode (a frame.Decoder) reads one record:
//   - tau-bench: "traj" is a list of OpenAI chat messages as litellm
//     dumps them (tool_calls with JSON-string arguments, tool messages
//     with tool_call_id and name); a tool result is a failure when its
//     text starts "Error: " or "Unknown action " (tau-bench has no error
//     flag). meta is the record without "traj".
//   - tau2-bench: "messages" are system, user, assistant and tool
//     messages (and MultiToolMessage's tool_messages, one event each);
//     tool_calls are {id, name, arguments, requestor}, kept on the event
//     of their requestor, so a call the user simulator requested is
//     requested by a user event; tool messages answer by "id" and fail
//     with "error": true. meta is the simulation without "messages", with
//     "results" (the file's timestamp and info) and "reward"
//     (reward_info.reward, or null).
//
// It imports eval/run, eval/transcript/build and eval/transcript/frame,
// and go-json-experiment's jsontext for framing. docs/transcripts.md
// ("tau-bench") is its specification.
package taubench
