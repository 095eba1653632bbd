// Package server is tenet's HTTP decision point (`tenet serve`): a host
// asks it, before running a tool call, whether the bundle allows the
// call — on its own (POST /v1/authorize) or in a session whose history
// the invariants are checked on (POST /v1/sessions/{id}/calls). JSON in
// and out; every error is {"error", "code"} with the status of its code
// (ErrorCode.Status); every decision is a line of the decision log.
//
// The bundle in use is swapped whole by Reload, only with an engine its
// caller loaded and verified; a session keeps the engine it started
// with. Serve runs the handler on a listener with time and size limits
// and shuts down gracefully.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/session"
)

// DefaultMaxBody is the default limit of a request body: a session's
// request carries the messages since its last one, rarely more.
const DefaultMaxBody = 1 << 20

// Config configures a Server. The zero value logs no decisions, names the
// condition "live" and takes the default limits.
type Config struct {
	// Log receives one line per decision; nil: none are logged.
	Log *decisionlog.Writer
	// Grant, when set, is the only grant served: a request that names no
	// grant is decided under it, one that names another is refused (422).
	Grant string
	// Condition is the decision log's condition (default "live").
	Condition string
	Limits    session.Limits
	// MaxBody bounds a request body in bytes (default DefaultMaxBody).
	MaxBody int64
	// Events receives what is not a decision: reloads (done or refused),
	// shutdown. nil: discarded.
	Events *slog.Logger
	// Now is the sessions' clock (nil: time.Now).
	Now func() time.Time
	// Instance names this server's run in the decision log, so that a
	// session id used again — after DELETE or eviction, or by a server
	// restarted on the same log — is another session to a reader
	// (decisionlog.Entry.Instance): a session's entries carry Instance/N,
	// N its number among the sessions this server created, and labelled
	// stateless calls Instance (Instance/L2, … past maxLabels labels).
	// Default: the start time, from Now, in RFC 3339 with nanoseconds
	// (tenet serve: from TENET_TIME when set).
	Instance string
}

// Server is the decision point. It is an http.Handler, safe for
// concurrent use.
type Server struct {
	cfg     Config
	events  *slog.Logger
	engine  atomic.Pointer[session.Engine]
	table   *session.Table
	closing atomic.Bool
	mux     *http.ServeMux
	labels  labels
}

// maxLabels bounds the labels whose calls a Server counts at once.
const maxLabels = 1 << 16

// labels numbers the stateless calls that carry a session label, per
// label, for their log entries' seq: 1, 2, 3… so that a label's entries
// are ordered and distinct, as a log reader requires, and read as the
// label's calls. The counts are bounded: past maxLabels labels they start
// afresh under another generation, whose entries carry another instance
// (Config.Instance + "/L2", …), so that a label counted again from 1 is
// another run to a reader, never a seq seen twice.
type labels struct {
	mu  sync.Mutex
	seq map[string]int
	gen int
}

// next is label's next seq and the generation it is counted in (from 1).
func (l *labels) next(label string) (seq, gen int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.seq[label]; !ok && (l.seq == nil || len(l.seq) >= maxLabels) {
		l.seq = map[string]int{}
		l.gen++
	}
	l.seq[label]++
	return l.seq[label], l.gen
}

// New returns a Server deciding with e.
func New(e *session.Engine, cfg Config) *Server {
	if cfg.Condition == "" {
		cfg.Condition = "live"
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Instance == "" {
		now := cfg.Now
		if now == nil {
			now = time.Now
		}
		cfg.Instance = now().UTC().Format(time.RFC3339Nano)
	}
	s := &Server{cfg: cfg, events: cfg.Events, table: session.NewTable(cfg.Limits, cfg.Now)}
	if s.events == nil {
		s.events = slog.New(slog.DiscardHandler)
	}
	s.engine.Store(e)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/authorize", s.authorize)
	mux.HandleFunc("POST /v1/sessions/{id}/calls", s.sessionCall)
	mux.HandleFunc("DELETE /v1/sessions/{id}", s.deleteSession)
	mux.HandleFunc("GET /health", s.health)
	mux.HandleFunc("GET /v1/bundle", s.bundle)
	// The same paths without a method, so that a wrong method gets a JSON
	// 405 naming the right one rather than the mux's text.
	for path, allow := range map[string]string{"/v1/authorize": "POST", "/v1/sessions/{id}/calls": "POST",
		"/v1/sessions/{id}": "DELETE", "/health": "GET, HEAD", "/v1/bundle": "GET, HEAD"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			fail(w, MethodNotAllowed, fmt.Sprintf("%s %s: this endpoint takes %s", r.Method, r.URL.Path, allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, NotFound, fmt.Sprintf("no endpoint %s (the endpoints: POST /v1/authorize, POST /v1/sessions/{id}/calls, DELETE /v1/sessions/{id}, GET /v1/bundle, GET /health)", r.URL.Path))
	})
	s.mux = mux
	return s
}

// Engine is the engine new requests are decided with.
func (s *Server) Engine() *session.Engine { return s.engine.Load() }

// Sessions is the number of sessions held.
func (s *Server) Sessions() int { return s.table.Len() }

// Reload swaps in the engine load returns, for new sessions and
// stateless calls (a running session keeps its own). load must verify the
// bundle it loads (tenet.OpenBundle with the server's trust options): a
// load that fails keeps the engine in use, and the failure is logged and
// returned.
func (s *Server) Reload(load func() (*session.Engine, error)) error {
	old := s.engine.Load().Auth.Bundle()
	e, err := load()
	if err == nil && (e == nil || e.Auth == nil || e.Bundle == nil) {
		err = errors.New("the loader returned no engine")
	}
	if err != nil {
		s.events.Error("reload refused; the bundle in use is kept", "bundle", old, "error", err.Error())
		return err
	}
	s.engine.Store(e)
	s.events.Info("reloaded", "bundle", e.Auth.Bundle(), "previous", old)
	return nil
}

// ServeHTTP routes a request; during shutdown every new request gets 503.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.closing.Load() {
		w.Header().Set("Connection", "close")
		fail(w, ShuttingDown, "the server is shutting down: retry on another instance or after it restarts")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Limits are the listener's time and size limits. A zero field takes
// its default.
type Limits struct {
	ReadHeader     time.Duration // default 5 s
	Read           time.Duration // the whole request, default 10 s
	Write          time.Duration // from the end of the request's header to the end of the response, default 10 s
	Idle           time.Duration // a kept-alive connection, default 60 s
	Shutdown       time.Duration // how long in-flight requests may finish, default 10 s
	MaxHeaderBytes int           // default 16 KiB
}

func (l Limits) withDefaults() Limits {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.ReadHeader, 5*time.Second)
	def(&l.Read, 10*time.Second)
	def(&l.Write, 10*time.Second)
	def(&l.Idle, 60*time.Second)
	def(&l.Shutdown, 10*time.Second)
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = 16 << 10
	}
	return l
}

// Serve answers requests on ln until ctx is done, then shuts down: the
// listener closes, requests that arrive on open connections get 503,
// in-flight requests finish (for at most lim.Shutdown, then their
// connections are cut and an error says so), and Serve returns. The
// decision log is written line by line, so nothing of it is pending.
func (s *Server) Serve(ctx context.Context, ln net.Listener, lim Limits) error {
	lim = lim.withDefaults()
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.Read,
		WriteTimeout:      lim.Write,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.events.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.closing.Store(true)
	s.events.Info("shutting down", "deadline", lim.Shutdown.String())
	sctx, cancel := context.WithTimeout(context.Background(), lim.Shutdown)
	defer cancel()
	err := hs.Shutdown(sctx)
	<-done // http.ErrServerClosed
	if err != nil {
		hs.Close()
		return fmt.Errorf("shutdown: requests still running after %s were cut: %w", lim.Shutdown, err)
	}
	s.events.Info("shut down")
	return nil
}

// sessionID is what a session id may be: a host's run id or a UUID fits.
var sessionID = regexp.MustCompile(`^[A-Za-z0-9._:~-]{1,128}$`)

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	var req AuthorizeRequest
	if s.read(w, r, &req, "grant, call, session") != "" {
		return
	}
	if req.Session != nil && !sessionID.MatchString(*req.Session) {
		// The label names a run in the decision log, as a session id does.
		fail(w, BadSessionID, fmt.Sprintf("session %q: want 1 to 128 letters, digits or . _ : ~ -", clip(*req.Session)))
		return
	}
	e := s.engine.Load()
	grant, ok := s.pinned(w, req.Grant)
	if !ok {
		return
	}
	if grant, ok = pickGrant(w, e, grant); !ok {
		return
	}
	c, shape, ok := readCall(w, req.Call)
	if !ok {
		return
	}
	entry := decisionlog.Entry{Origin: decisionlog.FromServer, Bundle: e.Auth.Bundle(), Contract: e.Auth.Contract(),
		Condition: s.cfg.Condition, Grant: grant, Seq: 1, Call: decisionlog.CallOf(c)}
	if req.Session != nil {
		seq, gen := s.labels.next(*req.Session)
		entry.Session, entry.Seq, entry.Instance = *req.Session, seq, s.cfg.Instance
		if gen > 1 {
			entry.Instance += "/L" + strconv.Itoa(gen)
		}
	}
	d, err := e.Auth.Authorize(c, grant)
	if err != nil {
		s.callError(w, entry, err)
		return
	}
	entry.Allowed, entry.Decision = d.Allowed, &d
	if !s.logged(w, entry) {
		return
	}
	reply(w, http.StatusOK, AuthorizeResponse{Allowed: d.Allowed, Bundle: e.Auth.Bundle(), Grant: grant, Shape: shape.String(), Decision: d})
}

func (s *Server) sessionCall(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !sessionID.MatchString(id) {
		fail(w, BadSessionID, fmt.Sprintf("session id %q: want 1 to 128 letters, digits or . _ : ~ -", clip(id)))
		return
	}
	var req SessionCallRequest
	switch s.read(w, r, &req, "grant, task, goal, offset, messages, call") {
	case "":
	case TooLarge:
		// The body may have reported messages the session will never
		// hold: a later request without offset would be checked on a
		// history with a hole.
		s.table.BreakCurrent(id, fmt.Sprintf("a request's body was over %d bytes (413 too_large): messages it may have reported are not in the session", s.cfg.MaxBody))
		return
	default:
		return
	}
	var ok bool
	if req.Grant, ok = s.pinned(w, req.Grant); !ok {
		return
	}
	// A call that cannot be read still goes to the session, which checks
	// the grant and offset and counts it, so that it is logged, with its
	// error, under a seq of its own.
	c, shape, unread := parseCall(req.Call)
	msgs := make([][]byte, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = m
	}
	out, err := s.table.Check(id, s.engine.Load, session.Request{Grant: req.Grant, Task: req.Task, Goal: req.Goal, Offset: req.Offset, Messages: msgs, Call: c, Unread: unread})
	var se *session.Error
	var ug *authorize.UnknownGrantError
	instance := s.cfg.Instance + "/" + strconv.Itoa(out.Instance)
	switch {
	case errors.As(err, &se):
		fail(w, ErrorCode(se.Code), se.Msg) // the session's codes are the server's
		return
	case errors.As(err, &ug):
		fail(w, UnknownGrant, err.Error())
		return
	case err != nil && out.Seq > 0:
		// A call that could not be read or decided: counted by the session.
		entry := decisionlog.Entry{Origin: decisionlog.FromServer, Bundle: out.Bundle, Contract: out.Contract, Condition: s.cfg.Condition,
			Grant: out.Grant, Session: id, Instance: instance, Seq: out.Seq, Error: err.Error()}
		if unread == nil {
			entry.Call = decisionlog.CallOf(c)
		}
		if !s.logged(w, entry) {
			return
		}
		fail(w, BadCall, err.Error())
		return
	case err != nil:
		fail(w, Internal, err.Error())
		return
	}
	invs := make([]decisionlog.Invariant, len(out.Invariants))
	for i, v := range out.Invariants {
		invs[i] = decisionlog.Invariant{Name: v.Name, Severity: v.Severity, Status: string(v.Status), Before: v.Before, Reason: v.Reason, Witness: v.Witness}
	}
	entry := decisionlog.Entry{Origin: decisionlog.FromServer, Bundle: out.Bundle, Contract: out.Contract, Condition: s.cfg.Condition,
		Grant: out.Grant, Session: id, Instance: instance, Seq: out.Seq, Call: decisionlog.CallOf(c), Allowed: out.Allowed, Decision: &out.Decision,
		Invariants: invs, OnUnknown: out.OnUnknown.String()}
	if !s.logged(w, entry) {
		if len(msgs) > 0 {
			// The session kept the messages, but the host was told the
			// request failed: it may send them again or go on without.
			s.table.Break(id, out.Instance, fmt.Sprintf("the decision of its call %d was withheld, its log line unwritten, after its %d messages were kept (the host was told the request failed)", out.Seq, len(msgs)))
		}
		return
	}
	reply(w, http.StatusOK, SessionCallResponse{Allowed: out.Allowed, Refusal: string(out.Refusal), Session: id, Seq: out.Seq, History: out.History,
		Bundle: out.Bundle, Grant: out.Grant, Shape: shape.String(), Decision: out.Decision, Invariants: invs, OnUnknown: out.OnUnknown.String(), InHistory: out.InHistory})
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.table.Delete(id) {
		fail(w, UnknownSession, fmt.Sprintf("no session %q (never started, already deleted, or evicted after its idle time)", clip(id)))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// health is 200 "ok" unless decisions cannot be given: a decision log
// that failed once fails every later write (decisionlog.Writer), so each
// decision would be a 500 log_failed, and a load balancer or supervisor
// reading /health must see it (503 "failing").
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	h := HealthResponse{Status: "ok", Bundle: s.engine.Load().Auth.Bundle(), Sessions: s.table.Len()}
	if s.cfg.Log != nil {
		if err := s.cfg.Log.Err(); err != nil {
			h.Status, h.Reason = "failing", err.Error()+": every decision is withheld (log_failed) until the server is restarted with a log it can write"
			reply(w, http.StatusServiceUnavailable, h)
			return
		}
	}
	reply(w, http.StatusOK, h)
}

func (s *Server) bundle(w http.ResponseWriter, r *http.Request) {
	e := s.engine.Load()
	out := BundleResponse{Bundle: e.Auth.Bundle(), Contract: e.Auth.Contract(), Version: e.Bundle.Manifest.Version,
		Grants: e.Auth.Grants(), Tools: []ToolInfo{}, Invariants: []InvariantInfo{}, InvariantsChecked: e.NewChecker != nil, OnUnknown: e.OnUnknown.String()}
	for _, t := range e.Bundle.Decls.Tools {
		out.Tools = append(out.Tools, ToolInfo{Name: t.Name, Operation: t.Operation, Resource: t.Resource})
	}
	checked := map[string]session.InvariantInfo{}
	for _, v := range e.Invariants {
		checked[v.Name] = v
	}
	for _, v := range e.Bundle.Plan.Invariants {
		out.Invariants = append(out.Invariants, InvariantInfo{Name: v.Name, Severity: v.Severity, Incremental: checked[v.Name].Incremental})
	}
	reply(w, http.StatusOK, out)
}

// read checks a POST's content type and size and decodes its body into
// v: strictly (unknown or duplicate members, invalid UTF-8 refused), so
// that a misspelt member is an error, not a default. It returns the code
// it failed with ("": none).
func (s *Server) read(w http.ResponseWriter, r *http.Request, v any, members string) ErrorCode {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		fail(w, WrongContentType, fmt.Sprintf("Content-Type %q: the body must be application/json", clip(ct)))
		return WrongContentType
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(w, TooLarge, fmt.Sprintf("the body is over %d bytes, this server's limit (report a session's messages in smaller requests)", s.cfg.MaxBody))
		return TooLarge
	case err != nil:
		fail(w, BadJSON, "reading the body: "+err.Error())
		return BadJSON
	}
	if err := jsonv2.Unmarshal(body, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		fail(w, BadJSON, "request body: "+bodyError(err, members))
		return BadJSON
	}
	return ""
}

// bodyError words a decoding error in the API's terms rather than Go's:
// the member at fault and what is wrong with it.
func bodyError(err error, members string) string {
	var se *jsonv2.SemanticError
	if !errors.As(err, &se) {
		return strings.TrimPrefix(err.Error(), "jsontext: ")
	}
	at := string(se.JSONPointer)
	switch {
	case errors.Is(se.Err, jsonv2.ErrUnknownName):
		return fmt.Sprintf("unknown member %s (the members: %s)", at, members)
	case at == "":
		return "want a JSON object, got " + kindName(se.JSONKind)
	case se.JSONKind != 0:
		return fmt.Sprintf("member %s: got %s, the wrong type (docs/authorize.schema.json)", at, kindName(se.JSONKind))
	}
	return fmt.Sprintf("member %s: %v", at, se.Err)
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a value of kind " + k.String()
}

// pinned applies Config.Grant to the grant a request names.
func (s *Server) pinned(w http.ResponseWriter, grant string) (string, bool) {
	switch {
	case s.cfg.Grant == "" || grant == s.cfg.Grant:
		return grant, true
	case grant == "":
		return s.cfg.Grant, true
	}
	fail(w, UnknownGrant, fmt.Sprintf("grant %q: this server decides under grant %q only (tenet serve --grant)", grant, s.cfg.Grant))
	return "", false
}

// pickGrant is the grant named, or the bundle's only one.
func pickGrant(w http.ResponseWriter, e *session.Engine, grant string) (string, bool) {
	if grant != "" {
		return grant, true
	}
	if gs := e.Auth.Grants(); len(gs) == 1 {
		return gs[0], true
	}
	fail(w, GrantRequired, fmt.Sprintf("grant: required, the bundle declares %d grants %v", len(e.Auth.Grants()), e.Auth.Grants()))
	return "", false
}

func readCall(w http.ResponseWriter, raw []byte) (authorize.Call, authorize.Shape, bool) {
	c, shape, err := parseCall(raw)
	if err != nil {
		fail(w, BadCall, err.Error())
		return authorize.Call{}, 0, false
	}
	return c, shape, true
}

// parseCall reads a request's call; its error is the answer's message.
func parseCall(raw []byte) (authorize.Call, authorize.Shape, error) {
	if len(raw) == 0 {
		return authorize.Call{}, 0, errors.New(`call: required, the tool call about to run`)
	}
	c, shape, err := authorize.ReadCall(raw)
	if err != nil {
		return authorize.Call{}, 0, errors.New("call: " + err.Error())
	}
	return c, shape, nil
}

// callError answers a stateless call that was read but could not be
// decided (an unknown grant, a nested call without a name); the latter is
// logged, with the error.
func (s *Server) callError(w http.ResponseWriter, entry decisionlog.Entry, err error) {
	var ug *authorize.UnknownGrantError
	if errors.As(err, &ug) {
		fail(w, UnknownGrant, err.Error())
		return
	}
	entry.Error = err.Error()
	if !s.logged(w, entry) {
		return
	}
	fail(w, BadCall, err.Error())
}

// logged writes entry; when it cannot be logged the decision is not
// given (500), since a decision point that cannot log must say so.
func (s *Server) logged(w http.ResponseWriter, entry decisionlog.Entry) bool {
	if s.cfg.Log == nil {
		return true
	}
	if err := s.cfg.Log.Write(entry); err != nil {
		s.events.Error("decision log", "error", err.Error())
		fail(w, LogFailed, err.Error()+" (the decision is withheld: a decision point that cannot log refuses)")
		return false
	}
	return true
}

func fail(w http.ResponseWriter, code ErrorCode, msg string) {
	reply(w, code.Status(), ErrorResponse{Error: msg, Code: code})
}

func reply(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		fmt.Fprintf(&b, `{"error":%q,"code":"internal"}`+"\n", "encoding the response: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// clip shortens a value echoed in a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
