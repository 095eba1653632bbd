package mcp

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// side is who sends a request, as its method tells. JSON-RPC ids belong
// to their sender: a client and a server number their own requests (both
// TypeScript SDK peers count from 0), so a server's sampling/createMessage
// may carry the id of the client's pending tools/call. Requests of the two
// known sides keep separate id spaces; a request whose method either side
// may send (ping, tasks/*, a method the spec does not name) shares its id
// with both.
type side int

const (
	eitherSide side = iota
	fromClient
	fromServer
)

func (s side) String() string {
	switch s {
	case fromClient:
		return "client to server"
	case fromServer:
		return "server to client"
	}
	return "either side"
}

// sideOf is the sender of a request by its method: the ClientRequest and
// ServerRequest unions of the MCP schema (2025-06-18 and 2025-11-25), less
// the methods that are in both (ping, tasks/get, tasks/result, tasks/list,
// tasks/cancel).
func sideOf(method string) side {
	switch method {
	case "initialize", "completion/complete", "logging/setLevel",
		"prompts/get", "prompts/list",
		"resources/list", "resources/templates/list", "resources/read",
		"resources/subscribe", "resources/unsubscribe",
		"tools/call", "tools/list":
		return fromClient
	case "sampling/createMessage", "roots/list", "elicitation/create":
		return fromServer
	}
	return eitherSide
}

// sameSpace says whether requests from a and b number their ids in one
// space (so that one id pending for both makes a response unclear).
func sameSpace(a, b side) bool { return a == eitherSide || b == eitherSide || a == b }

// fits says whether result (a response's result object; nil for an error
// response) has the fields the schema requires of the result of p's
// method: CallToolResult's content list, CreateMessageResult's role and
// model, ListRootsResult's roots, ElicitResult's action, and so on; a
// task-augmented request's CreateTaskResult has task. A method whose result requires nothing
// (ping, logging/setLevel, resources/subscribe, tasks/result, one the
// spec does not name) fits any result; an error response fits every
// request. fits only tells apart two requests pending with one id: a
// result that fits one of them lacks a field the other's result must
// have, so it cannot be the other's.
func fits(p *pending, result map[string]any) bool {
	if result == nil {
		return true
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := result[k]; !ok {
				return false
			}
		}
		return true
	}
	if p.task && has("task") {
		return true
	}
	switch p.method {
	case "tools/call":
		_, list := result["content"].([]any)
		return list
	case "sampling/createMessage":
		return has("role", "model")
	case "roots/list":
		return has("roots")
	case "elicitation/create":
		return has("action")
	case "initialize":
		return has("protocolVersion")
	case "tools/list":
		return has("tools")
	case "prompts/list":
		return has("prompts")
	case "prompts/get":
		return has("messages")
	case "resources/list":
		return has("resources")
	case "resources/templates/list":
		return has("resourceTemplates")
	case "resources/read":
		return has("contents")
	case "completion/complete":
		return has("completion")
	case "tasks/get", "tasks/cancel":
		return has("taskId", "status")
	case "tasks/list":
		return has("tasks")
	}
	return true
}

// answered returns the pending request a response with key answers (and
// removes it), nil when none is pending, or a msg when two are (one of
// each side) and the result's shape does not tell which it answers.
func (d *decoder) answered(key string, idv any, result map[string]any) (*pending, string) {
	ps := d.pending[key]
	var pick []int
	for i, p := range ps {
		if len(ps) == 1 || fits(p, result) {
			pick = append(pick, i)
		}
	}
	switch {
	case len(ps) == 0:
		return nil, ""
	case len(pick) != 1:
		why := "its result's fields fit both"
		if result == nil {
			why = "an error response fits both"
		} else if len(pick) == 0 {
			why = "its result's fields fit neither"
		}
		return nil, fmt.Sprintf("id %s: the %s request of line %d (%s) and the %s request of line %d (%s) both await a response with this id, and %s, so which it answers is unclear",
			jsonText(idv), build.Clip(ps[0].method, 100), ps[0].line, ps[0].side, build.Clip(ps[1].method, 100), ps[1].line, ps[1].side, why)
	}
	p := ps[pick[0]]
	if len(ps) == 1 {
		delete(d.pending, key)
	} else {
		d.pending[key] = append(ps[:pick[0]:pick[0]], ps[pick[0]+1:]...)
	}
	return p, ""
}
