package anthropic

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/transcript/build"
)

// httpExchange reads a recorded HTTP exchange (the Anthropic SDK's test
// snapshots, an HTTP recorder's output): req is {"method", "url",
// "headers", "body"}, resp {"status_code", "headers", "body"} or null. It
// returns the request body — the Messages API request — and the response
// body, the Message: the record is then read as {"request": body,
// "response": body}. That reading is unambiguous, since a Messages API
// request has no "body" member, but only with the bodies as JSON
// objects: a body that is a string (a streamed response's server-sent
// events, text the recorder did not decode) is refused, as are both
// "body" and "messages".
func httpExchange(req map[string]any, resp any) (map[string]any, any, string) {
	const hint = `an HTTP exchange: give its bodies as {"request": body, "response": body}`
	if _, ok := req["messages"]; ok {
		return nil, nil, `request: both "body" and "messages": which is the conversation is unclear`
	}
	body, ok := req["body"].(map[string]any)
	if !ok {
		return nil, nil, fmt.Sprintf("request.body: want an object (the Messages API request), got %s (%s)", build.Kind(req["body"]), hint)
	}
	read := map[string]bool{"method": true, "url": true, "headers": true, "body": true}
	if msg := scanRest(req, read, "request"); msg != "" {
		return nil, nil, msg
	}
	if resp == nil {
		return body, nil, ""
	}
	r, ok := resp.(map[string]any)
	if !ok {
		return nil, nil, "response: want an object (the HTTP response {status_code, body}), got " + build.Kind(resp)
	}
	rb, present := r["body"]
	if !present {
		return nil, nil, `response: no "body", beside a request with one (` + hint + `)`
	}
	switch rb.(type) {
	case map[string]any:
	case string:
		return nil, nil, "response.body: a string, not a Message object (a streamed response's server-sent events?): this reader reads the Message, not the stream of events that builds it (" + hint + ")"
	default:
		return nil, nil, "response.body: want an object (a Message), got " + build.Kind(rb)
	}
	switch sc := r["status_code"].(type) {
	case nil, float64:
	default:
		return nil, nil, "response.status_code: want a number, got " + build.Kind(sc)
	}
	if msg := scanRest(r, map[string]bool{"status_code": true, "headers": true, "body": true}, "response"); msg != "" {
		return nil, nil, msg
	}
	return body, rb, ""
}
