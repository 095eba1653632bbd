package session

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript"
)

// Limits bound a Table. A zero field takes its default.
//
// Memory: a session holds at most MaxHistoryBytes of message text and
// its decoding (a few times the text), so a full table holds about
// MaxSessions × MaxHistoryBytes × 4 at worst: 256 × 1 MiB × 4 = 1 GiB
// with the defaults.
type Limits struct {
	MaxSessions     int           // sessions at once (default 256)
	IdleTTL         time.Duration // a session unused this long is evicted (default 30m)
	MaxMessages     int           // messages per session (default 2,000)
	MaxHistoryBytes int           // bytes of message text per session (default 1 MiB)
}

// The defaults of Limits.
const (
	DefaultMaxSessions     = 256
	DefaultIdleTTL         = 30 * time.Minute
	DefaultMaxMessages     = 2000
	DefaultMaxHistoryBytes = 1 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	if l.IdleTTL <= 0 {
		l.IdleTTL = DefaultIdleTTL
	}
	if l.MaxMessages <= 0 {
		l.MaxMessages = DefaultMaxMessages
	}
	if l.MaxHistoryBytes <= 0 {
		l.MaxHistoryBytes = DefaultMaxHistoryBytes
	}
	return l
}

// Code classifies a session error (the server's error codes).
type Code string

// The codes of *Error.
const (
	TooManySessions Code = "too_many_sessions" // the table is full of sessions in use
	UnknownSession  Code = "unknown_session"   // deleted (by Delete) while the check waited
	HistoryTooLarge Code = "history_too_large" // MaxMessages or MaxHistoryBytes
	Mismatch        Code = "session_mismatch"  // Offset, Grant, Task or Goal differs from the session's
	BadMessages     Code = "bad_messages"      // the history does not decode (openai-messages)
	GrantRequired   Code = "grant_required"    // no grant named and the bundle has several
	UnknownTask     Code = "unknown_task"      // the task or goal is not the bundle's (the invariant checker refused it)
	CallMismatch    Code = "call_mismatch"     // the history's unanswered call of the pending call's id is another call, or several have that id
	CallIDRequired  Code = "call_id_required"  // the pending call has no id and the history's last message has unanswered calls
	Broken          Code = "session_broken"    // an earlier request's messages were refused or their fate is unknown to the host (Table.Break): the session's history is not the host's
)

// Error is a check refused before any decision: nothing was appended.
type Error struct {
	Code Code
	Msg  string
	// offset: the request's offset is not the session's count. Its
	// messages are refused, but no hole follows: the host's next offset
	// disagrees too until it reports what the session lacks.
	offset bool
}

func (e *Error) Error() string { return e.Msg }

// Table holds sessions by id. It is safe for concurrent use.
//
// A session whose first request is refused is not kept. A later request
// refused after reporting messages breaks its session (see Break): the
// host holds messages the session does not. Eviction: a
// session unused for IdleTTL is evicted when a new session is
// created (every expired session then, in one sweep over the table) or
// when its id is used again (it then starts afresh, and a request with
// Offset > 0 is refused). A session whose check is running or waiting is
// never evicted. When MaxSessions sessions are live and none has expired,
// a new session is refused (TooManySessions) rather than evicting a live
// one: a host whose history silently vanished would be checked on a
// history with a hole.
type Table struct {
	lim Limits
	now Now

	mu       sync.Mutex
	sessions map[string]*Session
	created  int
}

// NewTable returns an empty table; now is its clock (nil: time.Now).
func NewTable(lim Limits, now Now) *Table {
	if now == nil {
		now = time.Now
	}
	return &Table{lim: lim.withDefaults(), now: now, sessions: map[string]*Session{}}
}

// Limits are the table's limits, defaults filled in.
func (t *Table) Limits() Limits { return t.lim }

// Len is the number of sessions held (expired ones not yet evicted included).
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.sessions)
}

// Delete ends session id; false when there is none. A check of it that
// is waiting fails with UnknownSession.
func (t *Table) Delete(id string) bool {
	t.mu.Lock()
	s, ok := t.sessions[id]
	delete(t.sessions, id)
	t.mu.Unlock()
	if ok {
		s.mu.Lock()
		s.deleted = true
		s.mu.Unlock()
	}
	return ok
}

// Break makes session id unusable, when it is still the session its
// Table numbered instance (Outcome.Instance): every later request of it
// is refused (Broken) until it is deleted. why completes "the session is
// broken: ". A caller breaks a session when the host can no longer know
// what its history holds: the server, when a decision whose request
// reported messages could not be logged and was withheld (the messages
// were kept, but the host was told the request failed). A session whose
// request is refused after reporting messages is broken by the Table
// itself.
func (t *Table) Break(id string, instance int, why string) {
	t.mu.Lock()
	s := t.sessions[id]
	t.mu.Unlock()
	if s == nil || s.n != instance {
		return
	}
	s.mu.Lock()
	if s.broken == "" {
		s.broken = why
	}
	s.mu.Unlock()
}

// BreakCurrent breaks session id, whichever instance it is at (a no-op
// when there is none): for a request the server refused before it could
// be read (a body over the size limit), which may have reported messages
// the session will now never hold.
func (t *Table) BreakCurrent(id, why string) {
	t.mu.Lock()
	s := t.sessions[id]
	t.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.broken == "" {
		s.broken = why
	}
	s.mu.Unlock()
}

// acquire returns session id, created with engine() when absent or
// expired, marked busy.
func (t *Table) acquire(id string, engine func() *Engine) (*Session, error) {
	now := t.now().UnixNano()
	ttl := t.lim.IdleTTL.Nanoseconds()
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.sessions[id]; ok {
		if s.busy.Load() > 0 || now-s.last.Load() < ttl {
			s.busy.Add(1)
			s.last.Store(now)
			return s, nil
		}
		delete(t.sessions, id) // expired: starts afresh
	}
	if len(t.sessions) >= t.lim.MaxSessions {
		for k, s := range t.sessions {
			if s.busy.Load() == 0 && now-s.last.Load() >= ttl {
				delete(t.sessions, k)
			}
		}
		if len(t.sessions) >= t.lim.MaxSessions {
			return nil, &Error{Code: TooManySessions, Msg: fmt.Sprintf("%d sessions are open, the most this server holds (end finished ones with DELETE; idle ones are evicted after %s)", len(t.sessions), t.lim.IdleTTL)}
		}
	}
	t.created++
	s := &Session{id: id, eng: engine(), n: t.created}
	s.busy.Add(1)
	s.last.Store(now)
	t.sessions[id] = s
	return s, nil
}

// Check decides req.Call in session id (created with engine() on its
// first request, or after it expired). On error nothing of req is kept.
// An *authorize.UnknownGrantError is returned as is; other refusals are
// *Error. A call that cannot be read (req.Unread, returned as is) or
// decided (an *authorize.CallError) is counted: the error comes with an
// Outcome whose Seq, Grant, Bundle, Contract, History and Instance are
// the session's, so that its log entry has a seq no decision takes.
func (t *Table) Check(id string, engine func() *Engine, req Request) (Outcome, error) {
	for {
		out, err, retry := t.checkOnce(id, engine, req)
		if !retry {
			return out, err
		}
	}
}

// checkOnce is Check; retry when the session it waited for was dropped
// (its first request failed), so that this request starts it afresh.
func (t *Table) checkOnce(id string, engine func() *Engine, req Request) (_ Outcome, _ error, retry bool) {
	s, err := t.acquire(id, engine)
	if err != nil {
		return Outcome{}, err, false
	}
	defer func() {
		s.last.Store(t.now().UnixNano())
		s.busy.Add(-1)
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.dropped:
		return Outcome{}, nil, true
	case s.deleted:
		return Outcome{}, &Error{Code: UnknownSession, Msg: fmt.Sprintf("session %q was deleted while this request waited for its previous one", id)}, false
	case s.broken != "":
		return Outcome{}, &Error{Code: Broken, Msg: fmt.Sprintf("session %q is broken: %s; its history is not the host's, so no call is checked on it (delete it, DELETE /v1/sessions/%s, and start a new session with the whole history at offset 0)", id, s.broken, id)}, false
	}
	out, err := s.check(req, t.lim)
	var oe *Error
	if err != nil && len(req.Messages) > 0 && !(errors.As(err, &oe) && oe.offset) {
		// The request's messages were not kept, but the host has them: a
		// later request, offset or not, would be checked on a history
		// with a hole. The session is unusable from now on. (A refused
		// offset is not: the host's offsets disagree with the session's
		// until it reports what the session lacks, a retry of messages
		// the session holds included.)
		s.broken = fmt.Sprintf("a request reporting %d messages was refused, so they were not kept (%s)", len(req.Messages), err.Error())
	}
	if err != nil && s.seq == 0 {
		// A session whose first request failed holds nothing: it is
		// dropped, so that refused requests cannot fill the table.
		s.dropped = true
		t.mu.Lock()
		if t.sessions[id] == s {
			delete(t.sessions, id)
		}
		t.mu.Unlock()
	}
	return out, err, false
}

// check runs under s.mu.
func (s *Session) check(req Request, lim Limits) (Outcome, error) {
	first := s.seq == 0 && len(s.msgs) == 0
	if err := s.fix(req, first); err != nil {
		return Outcome{}, err
	}
	if req.Offset != nil && *req.Offset != len(s.msgs) {
		why := "the session holds " + strconv.Itoa(len(s.msgs)) + " messages"
		if first {
			why = "the session is new (never seen, deleted, evicted after its idle time, or the server restarted): send the whole history with offset 0"
		}
		return Outcome{}, &Error{Code: Mismatch, Msg: fmt.Sprintf("offset %d: %s", *req.Offset, why), offset: true}
	}
	if req.Unread != nil {
		return s.counted(), req.Unread
	}
	size := s.size
	for _, m := range req.Messages {
		size += len(m)
	}
	if n := len(s.msgs) + len(req.Messages); n > lim.MaxMessages {
		return Outcome{}, &Error{Code: HistoryTooLarge, Msg: fmt.Sprintf("the session would hold %d messages, over the limit of %d (start a new session)", n, lim.MaxMessages)}
	}
	if size > lim.MaxHistoryBytes {
		return Outcome{}, &Error{Code: HistoryTooLarge, Msg: fmt.Sprintf("the session's messages would be %d bytes, over the limit of %d (start a new session)", size, lim.MaxHistoryBytes)}
	}
	rn := s.rn
	if len(req.Messages) > 0 || rn == nil {
		msgs := append(s.msgs[:len(s.msgs):len(s.msgs)], req.Messages...)
		var err error
		if rn, err = decode(msgs, s.task, s.goal, len(s.msgs)); err != nil {
			return Outcome{}, err
		}
	}
	withCall, pending, inHistory, err := place(rn, req.Call)
	var ce *authorize.CallError
	if errors.As(err, &ce) {
		return s.counted(), err
	}
	if err != nil {
		return Outcome{}, err
	}
	withCall = unanswered(withCall, pending)
	var d authorize.Decision
	if inHistory {
		// The history's call is req.Call (place compared them); decided
		// alone, as AuthorizeIn decides an appended call, since the calls
		// after it in the run may be its siblings' nested calls.
		d, err = s.eng.Auth.Authorize(req.Call, s.grant)
	} else {
		d, err = s.eng.Auth.AuthorizeIn(withCall, pending, s.grant)
	}
	if errors.As(err, &ce) {
		return s.counted(), err
	}
	if err != nil {
		return Outcome{}, err
	}
	var results []Result
	if s.eng.NewChecker != nil {
		if s.checker == nil {
			if s.checker, err = s.eng.NewChecker(s.task, s.goal); err != nil {
				s.checker = nil
				return Outcome{}, &Error{Code: UnknownTask, Msg: err.Error()}
			}
		}
		if results, err = s.checker.Check(withCall, pending); err != nil {
			return Outcome{}, fmt.Errorf("invariant check: %w", err)
		}
	}
	// Decided: the messages are now the session's.
	for _, m := range req.Messages {
		s.msgs = append(s.msgs, bytes.Clone(m))
	}
	s.size, s.rn = size, rn
	s.seq++
	allowed, refusal, kept := final(d, results, s.eng.OnUnknown)
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Name < kept[j].Name })
	return Outcome{Allowed: allowed, Refusal: refusal, Decision: d, Invariants: kept, Grant: s.grant,
		Bundle: s.eng.Auth.Bundle(), Contract: s.eng.Auth.Contract(), Seq: s.seq, History: len(s.msgs), OnUnknown: s.eng.OnUnknown, Instance: s.n, InHistory: inHistory}, nil
}

// counted counts a call that could not be read or decided, its messages
// not kept, and returns what its log entry needs.
func (s *Session) counted() Outcome {
	s.seq++
	return Outcome{Grant: s.grant, Bundle: s.eng.Auth.Bundle(), Contract: s.eng.Auth.Contract(), Seq: s.seq,
		History: len(s.msgs), OnUnknown: s.eng.OnUnknown, Instance: s.n}
}

// fix sets the session's grant, task and goal on its first request and
// holds later requests to them.
func (s *Session) fix(req Request, first bool) error {
	if first {
		g := req.Grant
		if g == "" {
			grants := s.eng.Auth.Grants()
			if len(grants) != 1 {
				return &Error{Code: GrantRequired, Msg: fmt.Sprintf("grant: required on a session's first request, the bundle declares %d grants (%s)", len(grants), joinOr(grants))}
			}
			g = grants[0]
		}
		// An unknown grant is refused now, before the session takes it.
		if grants := s.eng.Auth.Grants(); !slices.Contains(grants, g) {
			return &authorize.UnknownGrantError{Grant: g, Grants: grants}
		}
		s.grant, s.task, s.goal = g, req.Task, req.Goal
		return nil
	}
	for _, f := range [...]struct{ name, got, want string }{{"grant", req.Grant, s.grant}, {"task", req.Task, s.task}, {"goal", req.Goal, s.goal}} {
		if f.got != "" && f.got != f.want {
			return &Error{Code: Mismatch, Msg: fmt.Sprintf("%s %q: the session runs under %s %q, fixed by its first request (a session is one run: start another for another %s)", f.name, f.got, f.name, f.want, f.name)}
		}
	}
	return nil
}

func joinOr(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return fmt.Sprint(s)
}

// decode reads msgs as one openai-messages record. Task and goal, when
// set, are the record's metadata (meta.task, meta.goal to a contract's
// source). from is the first new message, for the error.
func decode(msgs [][]byte, task, goal string, from int) (*run.Run, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if task != "" || goal != "" {
		b.WriteString(`"metadata":{`)
		if task != "" {
			b.WriteString(`"task":` + strconv.Quote(task))
		}
		if goal != "" {
			if task != "" {
				b.WriteByte(',')
			}
			b.WriteString(`"goal":` + strconv.Quote(goal))
		}
		b.WriteString("},")
	}
	b.WriteString(`"messages":[`)
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteString("]}")
	rn, skip, err := transcript.Decode("openai-messages", run.Origin{File: "session"}, b.Bytes())
	if err != nil {
		var te *transcript.Error
		msg := err.Error()
		if errors.As(err, &te) {
			msg = te.Msg
		}
		return nil, &Error{Code: BadMessages, Msg: fmt.Sprintf("the session's history (messages 0-%d; this request's from %d) is not OpenAI chat messages: %s", len(msgs)-1, from, msg)}
	}
	if skip || rn == nil {
		return nil, &Error{Code: BadMessages, Msg: "the session's history decodes to no run"}
	}
	return rn, nil
}
