package openai

import "testing"

// A line of an MCP session log is refused naming the mcp format; before,
// a notification was skipped as a header line and a tools/call request was
// refused without the hint.
func TestMCPLineRefused(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_money","arguments":{"amount":1}}}`,
	} {
		rn, skip, msg := Decode([]byte(line))
		if want := `a JSON-RPC message, not an openai-messages record: an MCP session log? (format "mcp", --transcript-format mcp)`; rn != nil || skip || msg != want {
			t.Errorf("%s: run %v skip %v msg %q, want %q", line, rn != nil, skip, msg, want)
		}
	}
}
