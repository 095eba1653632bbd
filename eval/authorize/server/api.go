package server

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
)

// The wire types of the API (docs/authorize.schema.json describes the
// same bodies; TestSchema holds them to it).

// AuthorizeRequest is the body of POST /v1/authorize: one call decided on
// its own.
type AuthorizeRequest struct {
	// Grant may be left out when the bundle declares exactly one grant.
	Grant string `json:"grant,omitempty"`
	// Call is any shape authorize.ReadCall accepts.
	Call jsontext.Value `json:"call"`
	// Session, when given, is a label for the decision log only: no
	// history is kept. It is a session id (1 to 128 letters, digits or
	// . _ : ~ -). Entries under one label get seqs 1, 2, 3… (this server's
	// count of the label's calls), so that a log reader reads them as one
	// run.
	Session *string `json:"session,omitempty"`
}

// AuthorizeResponse answers POST /v1/authorize.
type AuthorizeResponse struct {
	Allowed  bool               `json:"allowed"`
	Bundle   string             `json:"bundle"`
	Grant    string             `json:"grant"`
	Shape    string             `json:"shape"` // the shape the call was read in (authorize.Shape)
	Decision authorize.Decision `json:"decision"`
}

// SessionCallRequest is the body of POST /v1/sessions/{id}/calls.
type SessionCallRequest struct {
	// Grant, Task and Goal are fixed by the session's first request
	// (Grant may be left out when the bundle declares one grant); a later
	// request leaves them out or repeats them.
	Grant string `json:"grant,omitempty"`
	Task  string `json:"task,omitempty"`
	Goal  string `json:"goal,omitempty"`
	// Offset, when given, is how many messages the host reported before
	// these: a session that lost them (evicted, deleted, a restarted
	// server) is then refused with 409 instead of checked on a history
	// with a hole, and messages sent again (a retry) are refused with 409
	// instead of appended twice. Hosts should always send it.
	Offset *int `json:"offset,omitempty"`
	// Messages are the OpenAI chat messages since the last request; they
	// may include the assistant message requesting Call (matched by id).
	Messages []jsontext.Value `json:"messages,omitempty"`
	Call     jsontext.Value   `json:"call"`
}

// SessionCallResponse answers POST /v1/sessions/{id}/calls.
type SessionCallResponse struct {
	Allowed bool `json:"allowed"`
	// Refusal says what refused the call: "authorization", "invariant" or
	// "unknown_invariant" (absent when allowed).
	Refusal  string             `json:"refusal,omitempty"`
	Session  string             `json:"session"`
	Seq      int                `json:"seq"`
	History  int                `json:"history"` // messages the session holds now
	Bundle   string             `json:"bundle"`
	Grant    string             `json:"grant"`
	Shape    string             `json:"shape"`
	Decision authorize.Decision `json:"decision"`
	// Invariants are those violated or unknown with the pending call.
	Invariants []decisionlog.Invariant `json:"invariants"`
	OnUnknown  string                  `json:"on_unknown"`
	// InHistory is true when the call was the history's own call of its
	// id, not yet answered (the messages ended with the assistant message
	// requesting it): checked where it is rather than appended.
	InHistory bool `json:"in_history,omitempty"`
}

// BundleResponse answers GET /v1/bundle.
type BundleResponse struct {
	Bundle     string          `json:"bundle"`
	Contract   string          `json:"contract"`
	Version    string          `json:"version"`
	Grants     []string        `json:"grants"`
	Tools      []ToolInfo      `json:"tools"`
	Invariants []InvariantInfo `json:"invariants"`
	// InvariantsChecked is false when sessions check the grant only.
	InvariantsChecked bool   `json:"invariants_checked"`
	OnUnknown         string `json:"on_unknown"`
}

// ToolInfo is one declared tool.
type ToolInfo struct {
	Name      string `json:"name"`
	Operation string `json:"operation"`
	Resource  string `json:"resource,omitempty"` // the argument naming the resource
}

// InvariantInfo is one invariant of the bundle.
type InvariantInfo struct {
	Name        string `json:"name"`
	Severity    string `json:"severity"`
	Incremental bool   `json:"incremental"`
}

// HealthResponse answers GET /health: 200 "ok", or 503 "failing" when
// every decision would fail (the decision log cannot be written), Reason
// saying why.
type HealthResponse struct {
	Status   string `json:"status"` // "ok" or "failing"
	Reason   string `json:"reason,omitempty"`
	Bundle   string `json:"bundle"`
	Sessions int    `json:"sessions"`
}

// ErrorResponse is every error's body.
type ErrorResponse struct {
	Error string    `json:"error"`
	Code  ErrorCode `json:"code"`
}

// ErrorCode classifies an error; each has one HTTP status (Status).
type ErrorCode string

// The error codes.
const (
	BadJSON          ErrorCode = "bad_json"               // 400: the body is not JSON, or not the request's members
	BadCall          ErrorCode = "bad_call"               // 400: the call is not a call of an accepted shape
	CallMismatch     ErrorCode = "call_mismatch"          // 400: the history's unanswered call of the call's id is another call (tool, arguments), or several have the id
	CallIDRequired   ErrorCode = "call_id_required"       // 400: the call has no id and the history's last message requests calls not yet answered
	BadSessionID     ErrorCode = "bad_session_id"         // 400
	BadMessages      ErrorCode = "bad_messages"           // 400: the history does not decode as OpenAI chat messages
	GrantRequired    ErrorCode = "grant_required"         // 400: no grant, and the bundle declares several
	NotFound         ErrorCode = "not_found"              // 404: no such endpoint
	UnknownSession   ErrorCode = "unknown_session"        // 404
	MethodNotAllowed ErrorCode = "method_not_allowed"     // 405
	SessionMismatch  ErrorCode = "session_mismatch"       // 409: offset, grant, task or goal differs from the session's
	SessionBroken    ErrorCode = "session_broken"         // 409: an earlier request's messages were refused (or its decision withheld): the session's history is not the host's until it is deleted
	TooLarge         ErrorCode = "too_large"              // 413: the body is over the limit
	HistoryTooLarge  ErrorCode = "history_too_large"      // 413: the session's history would be over its limits
	WrongContentType ErrorCode = "unsupported_media_type" // 415
	UnknownGrant     ErrorCode = "unknown_grant"          // 422
	UnknownTask      ErrorCode = "unknown_task"           // 422: the session's task or goal is not the bundle's
	TooManySessions  ErrorCode = "too_many_sessions"      // 429
	Internal         ErrorCode = "internal"               // 500: the invariant check failed
	LogFailed        ErrorCode = "log_failed"             // 500: the decision could not be logged, so it is not given
	ShuttingDown     ErrorCode = "shutting_down"          // 503
)

// Codes are every ErrorCode, in the order of their statuses.
func Codes() []ErrorCode {
	return []ErrorCode{BadJSON, BadCall, CallMismatch, CallIDRequired, BadSessionID, BadMessages, GrantRequired, NotFound, UnknownSession, MethodNotAllowed,
		SessionMismatch, SessionBroken, TooLarge, HistoryTooLarge, WrongContentType, UnknownGrant, UnknownTask, TooManySessions, Internal, LogFailed, ShuttingDown}
}

// Status is the HTTP status of code.
func (c ErrorCode) Status() int {
	switch c {
	case BadJSON, BadCall, CallMismatch, CallIDRequired, BadSessionID, BadMessages, GrantRequired:
		return 400
	case NotFound, UnknownSession:
		return 404
	case MethodNotAllowed:
		return 405
	case SessionMismatch, SessionBroken:
		return 409
	case TooLarge, HistoryTooLarge:
		return 413
	case WrongContentType:
		return 415
	case UnknownGrant, UnknownTask:
		return 422
	case TooManySessions:
		return 429
	case ShuttingDown:
		return 503
	}
	return 500
}
