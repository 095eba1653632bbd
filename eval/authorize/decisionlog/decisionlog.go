// Package decisionlog is the structured log of run-time authorization
// decisions (docs/authorize.md, "Decision logs"): one JSON object per
// line, one line per decided call, written by `tenet authorize`, `tenet
// serve` and `tenet gateway`, and read back by `tenet report` (as runs:
// one per session) and `tenet eval` (as transcripts of the calls decided).
package decisionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
)

// Version is the value of every line's "log" member: a reader refuses a
// line of another version instead of misreading it.
const Version = "tenet-decisions/1"

// Origin is the tenet command that made a decision.
type Origin string

// The deciders.
const (
	FromAuthorize Origin = "authorize" // tenet authorize (stdin)
	FromServer    Origin = "serve"     // tenet serve (HTTP)
	FromGateway   Origin = "gateway"   // tenet gateway (MCP stdio)
)

// Call is a decided call as the log keeps it: the call the decider read,
// whatever shape it came in.
type Call struct {
	ID        string         `json:"id,omitempty"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	// ArgumentsError says why the arguments as sent were not an object
	// (Arguments is then empty).
	ArgumentsError string `json:"arguments_error,omitempty"`
}

// CallOf is the log's form of a call.
func CallOf(c authorize.Call) Call {
	args := c.Args
	if args == nil {
		args = map[string]any{}
	}
	return Call{ID: c.ID, Tool: c.Tool, Arguments: args, ArgumentsError: c.ArgsError}
}

// Invariant is one invariant the pending call would violate, or could not
// be decided on (the pending-call check).
type Invariant struct {
	Name     string `json:"name"`
	Severity string `json:"severity"`
	// Status is "violated", "unknown" or "held": tenet serve lists every
	// invariant it checked, tenet gateway only the violated and unknown
	// ones. Before is true when the run so far already violated it without
	// the pending call, and the call makes no violation of its own.
	Status  string            `json:"status"`
	Before  bool              `json:"before,omitempty"`
	Reason  string            `json:"reason,omitempty"`
	Witness map[string]string `json:"witness,omitempty"`
}

// Entry is one line of a decision log.
type Entry struct {
	Log      string `json:"log"`  // Version
	Time     string `json:"time"` // RFC 3339, UTC, nanoseconds
	Origin   Origin `json:"origin"`
	Bundle   string `json:"bundle"`
	Contract string `json:"contract"`
	// Condition names the system whose calls were decided (the decider's
	// --condition flag; "live" by default): the condition of the runs
	// `tenet report` reads the log as.
	Condition string `json:"condition"`
	Grant     string `json:"grant"`
	// Session is the session the call belongs to ("" for a call decided
	// on its own); Seq numbers the session's calls from 1 (a stateless
	// call's is 1).
	Session string `json:"session,omitempty"`
	// Instance tells apart sessions of one name in one log: a name used
	// again (a session deleted or evicted and started afresh, a server or
	// gateway restarted with the log appended to) is another instance. The
	// deciders write their start time, and tenet serve the session's
	// number among those it created after it ("2026-12-02T15:00:00Z/3").
	// Absent in older logs: one instance.
	Instance string `json:"instance,omitempty"`
	Seq      int    `json:"seq"`
	Call     Call   `json:"call,omitzero"` // absent when the line was not a call
	// Allowed is the final answer: the authorization decision allows the
	// call and no invariant check refused it (under the on-unknown policy).
	Allowed bool `json:"allowed"`
	// Decision is the authorization decision (nil when the call could not
	// be read into one: Error says why).
	Decision   *authorize.Decision `json:"decision,omitempty"`
	Invariants []Invariant         `json:"invariants,omitempty"`
	// OnUnknown is the policy an unknown invariant result is decided by,
	// "closed" (refuse) or "open" (allow), on every call the session check
	// judged (tenet gateway: a call the grant allowed, when the contract
	// declares invariants; tenet serve: every session call, the policy in
	// force); absent when no session check ran.
	OnUnknown string `json:"on_unknown,omitempty"`
	Error     string `json:"error,omitempty"`
	// Listed is set on a line that decides no call (Seq 0, Call empty,
	// Allowed false): tenet gateway's check of a tools/list result. A
	// reader counting decided calls skips such lines.
	Listed *Listed `json:"listed,omitempty"`
}

// Listed is what tenet gateway found in one tools/list result: the tools
// the server offers that the contract does not declare, and declared
// tools whose inputSchema disagrees with the contract's params.
type Listed struct {
	// Request is the id of the client's tools/list request, as JSON text.
	Request    string   `json:"request"`
	Undeclared []string `json:"undeclared,omitempty"`
	// Hidden is true when the undeclared tools were removed from the
	// result before the client saw it (--hide-undeclared).
	Hidden bool     `json:"hidden,omitempty"`
	Drift  []string `json:"drift,omitempty"`
}

// Writer appends entries to a log, one whole line per write, so that
// concurrent deciders never interleave and a crash loses at most the line
// being written. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
	n   int // entries written
	now func() time.Time
}

// NewWriter returns a Writer appending to w (a file opened with O_APPEND,
// say). now stamps entries (nil: time.Now).
func NewWriter(w io.Writer, now func() time.Time) *Writer {
	if now == nil {
		now = time.Now
	}
	return &Writer{w: w, now: now}
}

// Write stamps e (Log, Time) and appends it. After a failed write every
// later Write returns the first error: a decider that cannot log must
// know it.
func (w *Writer) Write(e Entry) error {
	e.Log = Version
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	e.Time = w.now().UTC().Format(time.RFC3339Nano)
	if err := enc.Encode(e); err != nil { // Encode ends the line
		w.err = fmt.Errorf("decision log: %w", err)
		return w.err
	}
	if _, err := w.w.Write(buf.Bytes()); err != nil {
		w.err = fmt.Errorf("decision log: %w", err)
		return w.err
	}
	w.n++
	return nil
}

// Err is the first error a Write met (nil while none has): from then on
// every Write fails with it, so a decider's health is its log's.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Written is the number of entries written whole.
func (w *Writer) Written() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}
