// Package audit decides whether a host's grant authorized each tool call
// of a run, and gives a call's arguments the shape of its tool's schema.
//
// Contract: Calls is a pure function of a run's calls, one grant and the
// declared tools (name → tool, as the bundle declares them); it returns
// one runs.AuditEntry per call, nested calls before the call that carries
// them (docs/runs-format.md, "Attempt budget and audit"). ConformArgs
// gives the arguments the typed `tools.<name>` view of a call reads.
// Neither reads nor changes anything else: the grant is only read.
//
// It may import compiler/bundle, eval/run, eval/runs and cel-go's types (the error values of ConformArgs); nothing of eval above
// it.
package audit
