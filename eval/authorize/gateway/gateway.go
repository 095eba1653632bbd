// Package gateway is tenet's MCP stdio gateway: it runs an MCP server as a
// child process and relays JSON-RPC 2.0 between the client (the gateway's
// own standard input and output) and the server (the child's), one message
// per line as MCP's stdio transport frames them, enforcing a bundle's
// contract on the way.
//
// Client to server, every line is read strictly before anything is
// relayed — one JSON object, valid UTF-8, no member name twice at any
// depth (so that gateway and server cannot read one line two ways),
// "jsonrpc": "2.0", an id that is a string or a number (or null, on an
// error response only) — and a line that is not is answered with a
// JSON-RPC error (CodeParseError, CodeInvalidRequest; the request's id
// when it could be read, else null) and never reaches the server. A batch
// (a JSON array) is refused whole: MCP's stdio transport has no batches
// since its 2025-06-18 revision. A line over Config.MaxMessage bytes is
// skipped as it streams by (never held whole) and answered with
// CodeInvalidRequest, id null. A blank line is dropped. A tools/call
// request is decided first (Config.Decider; by default the grant's
// authorization, the offline audit's layers): a refused call is answered
// with CodeRefused, the same id, a message naming the layer and detail,
// and the decision as error data, and is never forwarded; a tools/call
// whose params are not {name, arguments} (and _meta, relayed unread: any
// other member could carry what the server acts on undecided) gets
// CodeInvalidParams, and one without an id (a notification) is refused
// too, as nothing could carry its refusal back. A method that is not
// tools/call but folds to it (case, white space, NFKC, zero-width
// characters) is refused (CodeInvalidRequest): a lenient server might
// run it as a call. Every tools/call decided, allowed or not, is one
// decision log line, and so is every refused line that was, or may have
// been, a tools/call (logRefused). A request whose id is still pending, or one beyond
// MaxPending awaiting answers, is refused (CodeInvalidRequest), so that
// each answer has one question. Everything else — other requests,
// notifications, responses to the server's own requests (sampling,
// elicitation, roots) — is relayed byte for byte.
//
// With a SessionDecider as the Decider (tenet gateway's, when the
// contract declares invariants), a call the grant allows is then checked
// against the contract's invariants on the session relayed so far — the
// allowed calls and the server's answers, in relay order — and refused
// (CodeRefused, the message naming the invariant, its severity and the
// witness) when it would newly violate one, or when one is unknown under
// UnknownClosed.
//
// Server to client, lines are read the same way; one that cannot be read
// is dropped and reported on standard error (the client never sees what
// the gateway could not check), and so is an answer (a result or an
// error) whose id is not that of a client request awaiting one: an answer
// to a call the gateway refused, a second answer, one to an id never
// sent. The gateway's lines on standard error escape and bound the
// untrusted text they quote (shown). A tools/list result (matched by the id of
// the client's request) is checked against the contract's tools: every
// tool the contract does not declare is reported on standard error and in
// the decision log, and with Config.HideUndeclared removed from the result
// the client gets; a declared tool whose inputSchema disagrees with the
// contract's params at the top level (names, required, JSON types) is
// reported too. Everything else is relayed byte for byte.
//
// Lifecycle: the client's end of input closes the server's input; the
// server's exit ends Run with its exit status (128 + the signal's number
// when a signal killed it). A server that does not exit within
// Config.ShutdownGrace of its input closing gets SIGTERM, and SIGKILL one
// grace later, as MCP's lifecycle describes. Requests the server never
// answered are answered with CodeServerGone. Signals from Config.Signals
// are forwarded to the server. The server's standard error is the
// gateway's.
package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/internal/names"
)

// DefaultMaxMessage is the default limit of one message (one line, its
// newline not counted): MCP messages are kilobytes; a tools/list of
// hundreds of tools stays well under it.
const DefaultMaxMessage = 4 << 20

// MaxPending bounds the client's requests awaiting the server's answer: a
// client cannot grow the gateway's memory without bound by sending
// requests a server leaves unanswered. Beyond it a request is refused
// (CodeInvalidRequest).
const MaxPending = 1 << 16

// DefaultShutdownGrace is how long the server may take to exit after its
// input is closed, and then after SIGTERM.
const DefaultShutdownGrace = 5 * time.Second

// Config is one gateway run.
type Config struct {
	// Command is the MCP server's program and arguments; Env its
	// environment (nil: the gateway's) and Dir its working directory.
	Command []string
	Env     []string
	Dir     string
	// Authorizer is the bundle: its tools check tools/list results, its id
	// and contract name every log line. Grant is the grant calls are
	// decided under (logged; the default Decider's grant).
	Authorizer *authorize.Authorizer
	Grant      string
	// Decider decides each tools/call (nil: NewGrantDecider(Authorizer,
	// Grant)).
	Decider Decider
	// Log receives one line per decided call and per tools/list result
	// that lists an undeclared tool or a drifted schema (nil: none).
	Log *decisionlog.Writer
	// Session names this gateway's session in the log ("": a random id,
	// NewSessionID); Condition is the log's condition ("": "live").
	Session   string
	Condition string
	// Instance tells this gateway's session apart from another of the
	// same name in the same log (decisionlog.Entry.Instance: tenet
	// gateway writes its start time); "": none.
	Instance string
	// HideUndeclared removes tools the contract does not declare from
	// tools/list results.
	HideUndeclared bool
	// MaxMessage bounds one line in either direction (0:
	// DefaultMaxMessage).
	MaxMessage int
	// ShutdownGrace (0: DefaultShutdownGrace; negative: wait forever).
	ShutdownGrace time.Duration
	// Stdin and Stdout are the client's side; Stderr receives the
	// gateway's reports and the server's standard error.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Signals are forwarded to the server as they arrive. When nil, the
	// context's cancellation sends it SIGTERM instead.
	Signals <-chan os.Signal
}

// NewSessionID is a random session id ("gw-" and 16 hex digits).
func NewSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return "gw-" + hex.EncodeToString(b[:])
}

// pending is a client request forwarded to the server, not yet answered.
type pending struct {
	method string
	id     jsontext.Value
	call   *authorize.Call // an allowed tools/call
}

// gateway is one Run's state.
type gateway struct {
	cfg     Config
	decider Decider
	out     lockedWriter // to the client
	errOut  lockedWriter // the gateway's reports
	toChild io.WriteCloser

	mu      sync.Mutex
	pending map[string]pending
	dead    bool // the server's output ended: nothing more is forwarded
	seq     int  // tools/call decided or refused undecided (the client goroutine only)
	// logFailed: a decision log line could not be written (Run's exit
	// status says so).
	logFailed atomic.Bool
}

// Run relays until the server exits and returns its exit status
// (ExitLogFailed instead when the decision log could not be written). An error
// means the server could not be started (or the Config is unusable);
// nothing was relayed then.
func Run(ctx context.Context, cfg Config) (int, error) {
	if len(cfg.Command) == 0 {
		return 0, errors.New("no MCP server command: give it after --")
	}
	if cfg.Authorizer == nil {
		return 0, errors.New("gateway: no bundle (Config.Authorizer)")
	}
	g := &gateway{cfg: cfg, decider: cfg.Decider, pending: map[string]pending{}}
	if g.decider == nil {
		d, err := NewGrantDecider(cfg.Authorizer, cfg.Grant)
		if err != nil {
			return 0, err
		}
		g.decider = d
	}
	if g.cfg.MaxMessage <= 0 {
		g.cfg.MaxMessage = DefaultMaxMessage
	}
	if g.cfg.ShutdownGrace == 0 {
		g.cfg.ShutdownGrace = DefaultShutdownGrace
	}
	if g.cfg.Session == "" {
		g.cfg.Session = NewSessionID()
	}
	if g.cfg.Condition == "" {
		g.cfg.Condition = "live"
	}
	g.out.w, g.errOut.w = cfg.Stdout, cfg.Stderr

	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Env, cmd.Dir = cfg.Env, cfg.Dir
	// A file is handed to the server as it is; any other writer gets the
	// server's output through the lock the gateway's own reports take.
	if f, ok := cfg.Stderr.(*os.File); ok {
		cmd.Stderr = f
	} else {
		cmd.Stderr = &g.errOut
	}
	toChild, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	fromChild, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("starting the MCP server: %w", err)
	}
	g.toChild = toChild

	exited := make(chan struct{})
	go g.forwardSignals(ctx, cmd.Process, exited)
	go g.fromClient(cmd.Process, exited)
	g.fromServer(fromChild)

	// The server's output has ended: answer what it never will.
	g.mu.Lock()
	g.dead = true
	left := make([]pending, 0, len(g.pending))
	for _, p := range g.pending {
		left = append(left, p)
	}
	g.pending = nil
	g.mu.Unlock()
	sort.Slice(left, func(i, j int) bool { return string(left[i].id) < string(left[j].id) })
	for _, p := range left {
		g.reply(&rpcError{id: p.id, code: CodeServerGone, message: fmt.Sprintf("the MCP server exited before answering this %s request", clip(p.method, 80))})
	}
	err = cmd.Wait()
	close(exited)
	status := exitStatus(cmd.ProcessState, err)
	if g.logFailed.Load() {
		// An enforcement point whose record is incomplete has failed,
		// whatever the server's own status: a caller checking the exit
		// status must not read the session as audited.
		g.report("the decision log could not be written (the calls after it were refused, %d); the MCP server exited with status %d; exiting %d", CodeLogFailed, status, ExitLogFailed)
		return ExitLogFailed, nil
	}
	return status, nil
}

// ExitLogFailed is Run's status when a decision log line could not be
// written, whatever the server's exit status.
const ExitLogFailed = 2

// exitStatus is the server's exit status as a shell reports it.
func exitStatus(ps *os.ProcessState, err error) int {
	if ps == nil {
		return 1
	}
	if code := ps.ExitCode(); code >= 0 {
		return code
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return 1
}

// forwardSignals passes signals on to the server until it has exited.
func (g *gateway) forwardSignals(ctx context.Context, p *os.Process, exited <-chan struct{}) {
	done := ctx.Done()
	for {
		select {
		case <-exited:
			return
		case s := <-g.cfg.Signals:
			_ = p.Signal(s)
		case <-done:
			done = nil
			if g.cfg.Signals == nil {
				_ = p.Signal(syscall.SIGTERM)
			}
		}
	}
}

// fromClient relays the client's lines until its input ends, then closes
// the server's input and, after the grace, stops the server.
func (g *gateway) fromClient(p *os.Process, exited <-chan struct{}) {
	lr := newLineReader(g.cfg.Stdin, g.cfg.MaxMessage)
	for {
		line, over, err := lr.next()
		if over > 0 {
			g.report("client message of %d bytes or more refused: over the limit of %d bytes (--max-message); skipped, not relayed", over, g.cfg.MaxMessage)
			e := &rpcError{code: CodeInvalidRequest, message: fmt.Sprintf("message of %d bytes or more refused: over the gateway's limit of %d bytes (--max-message)", over, g.cfg.MaxMessage)}
			g.logRefused(e, nil, nil)
			g.reply(e)
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.report("reading the client: %v; closing the server's input", err)
			}
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		g.clientLine(line)
	}
	_ = g.toChild.Close()
	if g.cfg.ShutdownGrace < 0 {
		return
	}
	for _, s := range []os.Signal{syscall.SIGTERM, os.Kill} {
		select {
		case <-exited:
			return
		case <-time.After(g.cfg.ShutdownGrace):
			g.report("the MCP server has not exited %v after its input closed: sending %v", g.cfg.ShutdownGrace, s)
			_ = p.Signal(s)
		}
	}
}

// clientLine relays or refuses one client line.
func (g *gateway) clientLine(line []byte) {
	m, e := parseMessage(line)
	if e != nil {
		// Unread, it may have been a tools/call (a second "method"
		// member, a batch of calls): logged as a refusal.
		g.report("client message refused (%d): %s", e.code, shown(e.message))
		g.logRefused(e, e.id, nil)
		g.reply(e)
		return
	}
	if m.kind != kindResponse && foldsToToolsCall(m.method) {
		// Relayed as "another request", it would skip the check; a server
		// that folds case or trims might run it as a call.
		e := &rpcError{id: m.id, code: CodeInvalidRequest, message: fmt.Sprintf("method %q is not tools/call but a server may read it as one", clip(m.method, 80))}
		g.report("client message refused (%d): %s", e.code, shown(e.message))
		g.logRefused(e, m.id, m.params)
		g.reply(e)
		return
	}
	p := pending{method: m.method, id: bytes.Clone(m.id)}
	switch m.kind {
	case kindResponse:
		g.toServer(line)
		return
	case kindNotification:
		if m.method == toolsCall {
			e := &rpcError{code: CodeInvalidRequest, message: "a tools/call without an id (a notification) is refused: a call is decided and answered by its id"}
			g.report("client message refused (%d): %s", e.code, shown(e.message))
			g.logRefused(e, nil, m.params)
			g.reply(e)
			return
		}
		g.toServer(line)
		return
	}
	key := idKey(m.id)
	g.mu.Lock()
	_, busy := g.pending[key]
	dead, full := g.dead, len(g.pending) >= MaxPending
	g.mu.Unlock()
	isCall := m.method == toolsCall
	switch {
	case full:
		e := &rpcError{id: p.id, code: CodeInvalidRequest, message: fmt.Sprintf("%d requests already await the server's answer: refused until it answers some", MaxPending)}
		g.report("client message refused (%d): %s", e.code, shown(e.message))
		if isCall {
			g.logRefused(e, m.id, m.params)
		}
		g.reply(e)
		return
	case dead:
		e := &rpcError{id: p.id, code: CodeServerGone, message: "the MCP server has exited: request not relayed"}
		if isCall {
			g.logRefused(e, m.id, m.params)
		}
		g.reply(e)
		return
	case busy:
		e := &rpcError{id: p.id, code: CodeInvalidRequest, message: fmt.Sprintf("id %s is already the id of a request awaiting its answer: ids of pending requests must differ", clipRaw(m.id))}
		g.report("client message refused (%d): %s", e.code, shown(e.message))
		if isCall {
			g.logRefused(e, m.id, m.params)
		}
		g.reply(e)
		return
	}
	if m.method == toolsCall {
		c, e := g.decide(line, m.id, m.params)
		if e != nil {
			g.reply(e)
			return
		}
		p.call = c
	}
	g.mu.Lock()
	if g.dead {
		g.mu.Unlock()
		g.reply(&rpcError{id: p.id, code: CodeServerGone, message: "the MCP server has exited: request not relayed"})
		return
	}
	g.pending[key] = p
	g.mu.Unlock()
	g.toServer(line)
}

// logRefused logs a client line refused before any decision that was,
// or may have been, a tools/call (one that could not be read, a method
// that folds to tools/call, a tools/call notification, one refused for
// its id): an entry with the refusal as its error and no decision, so
// that an audit of the log sees the attempt (decisionlog counts it as a
// line that decided nothing). The call is logged when params read as
// one, else only its id. A log that cannot be written is reported; the
// line is refused either way.
func (g *gateway) logRefused(e *rpcError, id, params jsontext.Value) {
	if g.cfg.Log == nil {
		return
	}
	g.seq++
	entry := g.entry()
	entry.Error = fmt.Sprintf("refused before any decision (%d): %s", e.code, e.message)
	entry.Call = decisionlog.Call{ID: idText(id), Arguments: map[string]any{}}
	if params != nil {
		// The params read as a tools/call's would be, under a stand-in id
		// when the line had none.
		rid := id
		if rid == nil {
			rid = jsontext.Value("0")
		}
		line := []byte(`{"jsonrpc":"2.0","id":` + string(rid) + `,"method":"tools/call","params":` + string(params) + `}`)
		if c, _, err := authorize.ReadCall(line); err == nil {
			entry.Call = decisionlog.CallOf(c)
			if id == nil {
				entry.Call.ID = ""
			}
		}
	}
	if err := g.cfg.Log.Write(entry); err != nil {
		g.logFailed.Store(true)
		g.report("refused client message not logged: %s", shown(err.Error()))
	}
}

// loggableCall reads a refused tools/call's name and arguments for its log
// entry, the other members of params left out, so that an audit of the log
// sees which tool a refused call named.
func loggableCall(id, params jsontext.Value) (decisionlog.Call, bool) {
	var members map[string]jsontext.Value
	if id == nil || jsonv2.Unmarshal(params, &members) != nil {
		return decisionlog.Call{}, false
	}
	kept := map[string]jsontext.Value{}
	for _, k := range []string{"name", "arguments"} {
		if v, ok := members[k]; ok {
			kept[k] = v
		}
	}
	p, err := jsonv2.Marshal(kept, jsonv2.Deterministic(true))
	if err != nil {
		return decisionlog.Call{}, false
	}
	c, _, err := authorize.ReadCall([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"tools/call","params":` + string(p) + `}`))
	if err != nil {
		return decisionlog.Call{}, false
	}
	return decisionlog.CallOf(c), true
}

// entry is a log entry of this gateway's session, numbered g.seq.
func (g *gateway) entry() decisionlog.Entry {
	return decisionlog.Entry{
		Origin: decisionlog.FromGateway, Bundle: g.cfg.Authorizer.Bundle(), Contract: g.cfg.Authorizer.Contract(),
		Condition: g.cfg.Condition, Grant: g.cfg.Grant, Session: g.cfg.Session, Instance: g.cfg.Instance, Seq: g.seq,
	}
}

// decide decides a tools/call and logs the decision; it returns the call
// when it may be forwarded, else the error to answer with.
func (g *gateway) decide(line []byte, id, params jsontext.Value) (*authorize.Call, *rpcError) {
	g.seq++
	entry := g.entry()
	c, _, err := authorize.ReadCall(line)
	read := err == nil
	if err == nil {
		err = unreadParams(params)
	}
	var v Verdict
	if err != nil {
		entry.Error = err.Error()
		entry.Call = decisionlog.Call{ID: idText(id), Arguments: map[string]any{}}
		if read { // refused for another member of params: the call is readable
			entry.Call = decisionlog.CallOf(c)
		} else if lc, ok := loggableCall(id, params); ok {
			entry.Call = lc // for the log only: what the call named, never decided
		}
	} else {
		entry.Call = decisionlog.CallOf(c)
		v = g.decider.Decide(c)
		entry.Allowed, entry.Decision, entry.Invariants, entry.OnUnknown = v.Allowed, v.Decision, v.Invariants, v.OnUnknown
		if v.Err != nil {
			entry.Allowed, entry.Error = false, v.Err.Error()
		}
	}
	if g.cfg.Log != nil {
		if lerr := g.cfg.Log.Write(entry); lerr != nil {
			g.logFailed.Store(true)
			g.report("tools/call %s refused: %s", clipRaw(id), shown(lerr.Error()))
			return nil, &rpcError{id: id, code: CodeLogFailed, message: "refused: the gateway cannot write its decision log (" + clip(lerr.Error(), 200) + ")"}
		}
	}
	switch {
	case err != nil:
		g.report("tools/call %s refused (%d): %s", clipRaw(id), CodeInvalidParams, shown(err.Error()))
		return nil, &rpcError{id: id, code: CodeInvalidParams, message: "tools/call not decided: " + clip(err.Error(), 300)}
	case v.Err != nil:
		g.report("tools/call %s (tool %q) refused (%d): %s", clipRaw(id), clip(c.Tool, 80), CodeUndecided, shown(v.Err.Error()))
		return nil, &rpcError{id: id, code: CodeUndecided, message: "tools/call refused: " + clip(v.Err.Error(), 300), data: refusalData(g, v)}
	case !v.Allowed:
		msg := refusalMessage(v)
		g.report("tools/call %s (tool %q) refused (%d): %s", clipRaw(id), clip(c.Tool, 80), CodeRefused, shown(msg))
		return nil, &rpcError{id: id, code: CodeRefused, message: msg, data: refusalData(g, v)}
	}
	return &c, nil
}

// unreadParams refuses a tools/call's params members other than name,
// arguments and _meta. The gateway decides name and arguments (and the
// calls nested in arguments) only; MCP reserves _meta for metadata
// (a progress token), relayed unread. Any other member is one the
// gateway would relay undecided and a server might act on — a second
// call, a task, options — so the call is refused, not guessed at.
func unreadParams(params jsontext.Value) error {
	var members map[string]jsontext.Value
	if jsonv2.Unmarshal(params, &members) != nil {
		return nil // not an object: ReadCall said so already
	}
	var extra []string
	for k := range members {
		switch k {
		case "name", "arguments", "_meta":
		default:
			extra = append(extra, strconv.Quote(clip(k, 80)))
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return fmt.Errorf("params: member %s not decided by the gateway (it reads name and arguments, and relays _meta unread): refused rather than relayed undecided", clip(strings.Join(extra, ", "), 300))
}

// refusalMessage names the layer that refused a call and its detail: the
// call's own first failing layer, or the nested call's that refused it,
// or the session check's.
func refusalMessage(v Verdict) string {
	if d := v.Decision; d != nil {
		if r, path := firstRefusal(d, ""); r != nil {
			msg := fmt.Sprintf("tools/call refused by the contract: %s", r.Decision)
			if path != "" {
				msg = fmt.Sprintf("tools/call refused by the contract: nested call %s: %s", path, r.Decision)
			}
			if r.Detail != "" {
				msg += ": " + clip(r.Detail, 300)
			}
			return msg
		}
	}
	if v.Message != "" {
		return v.Message
	}
	return invariantRefusal(v.Invariants, v.OnUnknown, nil)
}

// invariantRefusal words a refusal by the session check's findings: each
// invariant that refused the call, its severity, and the witness (each
// item through describe, when not nil) or the unknown's reason.
func invariantRefusal(invs []decisionlog.Invariant, onUnknown string, describe func(item string) string) string {
	var why []string
	for _, inv := range invs {
		if inv.Before || inv.Status == statusUnknown && onUnknown == string(UnknownOpen) {
			continue // logged, but not why the call was refused
		}
		w := fmt.Sprintf("invariant %q (severity %s) %s", clip(inv.Name, 80), clip(inv.Severity, 40), inv.Status)
		switch {
		case inv.Status == statusUnknown:
			w += " (--on-unknown closed): " + clip(inv.Reason, 200)
		case len(inv.Witness) > 0:
			w += ", witness " + witnessText(inv.Witness, describe)
		}
		why = append(why, w)
	}
	if len(why) > 0 {
		return "tools/call refused by the session check: " + clip(strings.Join(why, "; "), 600)
	}
	return "tools/call refused"
}

// witnessText renders a witness, steps in name order: "read=call:0,
// send=call:1", each item through describe when not nil.
func witnessText(w map[string]string, describe func(string) string) string {
	steps := make([]string, 0, len(w))
	for s := range w {
		steps = append(steps, s)
	}
	sort.Strings(steps)
	for i, s := range steps {
		item := w[s]
		if describe != nil {
			item = describe(item)
		}
		steps[i] = s + "=" + item
	}
	return strings.Join(steps, ", ")
}

// firstRefusal is the first refused decision in d, nested calls first
// (the audit's order); path names a nested one by its tools.
func firstRefusal(d *authorize.Decision, path string) (*authorize.Decision, string) {
	for i := range d.Nested {
		n := &d.Nested[i]
		if n.Allowed {
			continue
		}
		p := fmt.Sprintf("%q", clip(n.Tool, 80))
		if path != "" {
			p = path + " > " + p
		}
		return firstRefusal(n, p)
	}
	if d.Decision != "authorized" {
		return d, path
	}
	return nil, ""
}

// refusalData is a refusal's error data: the decision and what it was made with.
func refusalData(g *gateway, v Verdict) any {
	return struct {
		Bundle     string                  `json:"bundle"`
		Grant      string                  `json:"grant"`
		Session    string                  `json:"session"`
		Seq        int                     `json:"seq"`
		Decision   *authorize.Decision     `json:"decision,omitempty"`
		Invariants []decisionlog.Invariant `json:"invariants,omitempty"`
		Error      string                  `json:"error,omitempty"`
	}{g.cfg.Authorizer.Bundle(), g.cfg.Grant, g.cfg.Session, g.seq, v.Decision, v.Invariants, errText(v.Err)}
}

// idText renders a request id as authorize renders a call's
// (authorize.IDText), for a call that could not be read into one.
func idText(id jsontext.Value) string {
	var v any
	_ = json.Unmarshal(id, &v)
	return authorize.IDText(v)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// fromServer relays the server's lines until its output ends.
func (g *gateway) fromServer(r io.Reader) {
	lr := newLineReader(r, g.cfg.MaxMessage)
	for {
		line, over, err := lr.next()
		if over > 0 {
			g.report("server message of %d bytes or more dropped: over the limit of %d bytes (--max-message)", over, g.cfg.MaxMessage)
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.report("reading the MCP server: %v", err)
			}
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		g.serverLine(line)
	}
}

// serverLine relays one server line, checking tools/list results.
func (g *gateway) serverLine(line []byte) {
	m, e := parseMessage(line)
	if e != nil {
		g.report("server message dropped, not relayed (%d): %s", e.code, shown(e.message))
		return
	}
	if m.kind != kindResponse {
		g.out.writeLine(line)
		return
	}
	key := idKey(m.id)
	g.mu.Lock()
	p, ok := g.pending[key]
	delete(g.pending, key)
	g.mu.Unlock()
	if !ok {
		// An answer no request awaits — to a call the gateway refused (and
		// answered itself), to one answered already, to an id never sent,
		// or with id null — is never the client's: relayed, it would
		// contradict the gateway's refusal or answer a question never
		// asked.
		what := "result"
		if m.result == nil {
			what = "error"
		}
		g.report("server %s for id %s dropped, not relayed: no request of the client's with that id awaits an answer (refused by the gateway, answered already, or never sent)", what, clipRaw(m.id))
		return
	}
	if p.call != nil {
		if obs, is := g.decider.(ResultObserver); is {
			obs.Observe(*p.call, json.RawMessage(bytes.Clone(line)))
		}
	}
	if p.method == "tools/list" && m.result != nil {
		if line = g.checkList(m, line); line == nil {
			return
		}
	}
	g.out.writeLine(line)
}

// checkList checks a tools/list result and returns the line to relay.
func (g *gateway) checkList(m message, line []byte) []byte {
	lc, err := checkToolsList(m.result, g.cfg.Authorizer.Tool, g.cfg.HideUndeclared)
	if err != nil {
		if g.cfg.HideUndeclared {
			g.report("tools/list %s: %s: replaced by an error (--hide-undeclared cannot hide what it cannot read)", clipRaw(m.id), shown(err.Error()))
			g.reply(&rpcError{id: m.id, code: CodeUndecided, message: "tools/list result refused: " + err.Error()})
			return nil
		}
		g.report("tools/list %s: %s: relayed unchecked", clipRaw(m.id), shown(err.Error()))
		return line
	}
	if len(lc.Undeclared) > 0 {
		how := "relayed (hide them with --hide-undeclared)"
		if lc.Result != nil {
			how = "hidden from the client"
		}
		g.report("tools/list %s: the server offers %d tools the contract does not declare: %s; %s", clipRaw(m.id), len(lc.Undeclared), names.Cut(quoteNames(lc.Undeclared), maxShown), how)
	}
	for _, d := range lc.Drift {
		g.report("tools/list %s: %s", clipRaw(m.id), shown(d))
	}
	if g.cfg.Log != nil && (len(lc.Undeclared) > 0 || len(lc.Drift) > 0) {
		entry := decisionlog.Entry{
			Origin: decisionlog.FromGateway, Bundle: g.cfg.Authorizer.Bundle(), Contract: g.cfg.Authorizer.Contract(),
			Condition: g.cfg.Condition, Grant: g.cfg.Grant, Session: g.cfg.Session, Instance: g.cfg.Instance,
			Listed: &decisionlog.Listed{Request: string(m.id), Undeclared: lc.Undeclared, Hidden: lc.Result != nil, Drift: lc.Drift},
		}
		if err := g.cfg.Log.Write(entry); err != nil {
			g.logFailed.Store(true)
			g.report("tools/list %s: %s", clipRaw(m.id), shown(err.Error()))
		}
	}
	if lc.Result == nil {
		return line
	}
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(m.id)
	buf.WriteString(`,"result":`)
	buf.Write(lc.Result)
	buf.WriteString("}\n")
	return buf.Bytes()
}

// toServer forwards a line to the server. A write error means the server
// is gone; its pending requests are answered when its output ends.
func (g *gateway) toServer(line []byte) {
	_, _ = g.toChild.Write(withNewline(line))
}

// reply writes a JSON-RPC error response to the client.
func (g *gateway) reply(e *rpcError) { g.out.writeLine(errorLine(e)) }

// report writes one of the gateway's lines to standard error. Its
// untrusted parts are passed through shown or clipRaw by the caller;
// reportLine keeps the whole one bounded line whatever was missed.
func (g *gateway) report(format string, args ...any) {
	g.errOut.writeLine([]byte("tenet gateway: " + reportLine(fmt.Sprintf(format, args...)) + "\n"))
}

// lockedWriter writes whole lines from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write passes p on whole (the server's standard error).
func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func (w *lockedWriter) writeLine(line []byte) {
	line = withNewline(line)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.w.Write(line)
}

// withNewline is line ending in a newline (the last line of an input may
// have none).
func withNewline(line []byte) []byte {
	if len(line) > 0 && line[len(line)-1] == '\n' {
		return line
	}
	return append(line[:len(line):len(line)], '\n')
}
