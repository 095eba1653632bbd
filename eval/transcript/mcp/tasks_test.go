package mcp

import (
	"reflect"
	"strings"
	"testing"
)

// A task-augmented tools/call (MCP 2025-11-25) is followed by its task id:
// its outcome is the tasks/result response; a task still working,
// completed with no result in the log, or cancelled leaves it unknown; a
// failed one with no tasks/result fails it at the event that said so.
func TestTaskAugmented(t *testing.T) {
	rn, msg := read(t, strings.Join([]string{
		/* 0 */ `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_money","arguments":{"amount":5},"task":{"ttl":60000}}}`,
		/* 1 */ `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":60000}}`,
		/* 2 */ `{"jsonrpc":"2.0","id":2,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":60000}}}`,
		/* 3 */ `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t1"}}`,
		/* 4 */ `{"jsonrpc":"2.0","id":3,"result":{"taskId":"t1","status":"completed","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:02Z","ttl":60000}}`,
		/* 5 */ `{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"t1"}}`,
		/* 6 */ `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"sent"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}}`,
		/* 7 */ `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","task":{}}}`,
		/* 8 */ `{"jsonrpc":"2.0","id":5,"result":{"task":{"taskId":"t2","status":"input_required","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		/* 9 */ `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"send_money","arguments":{"amount":6},"task":{}}}`,
		/* 10 */ `{"jsonrpc":"2.0","id":6,"result":{"task":{"taskId":"t3","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		/* 11 */ `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"t3"}}`,
		/* 12 */ `{"jsonrpc":"2.0","id":7,"result":{"taskId":"t3","status":"failed","statusMessage":"quota exceeded","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`,
		/* 13 */ `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"send_money","arguments":{"amount":8},"task":{}}}`,
		/* 14 */ `{"jsonrpc":"2.0","id":8,"result":{"task":{"taskId":"t4","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		/* 15 */ `{"jsonrpc":"2.0","id":9,"method":"tasks/cancel","params":{"taskId":"t4"}}`,
		/* 16 */ `{"jsonrpc":"2.0","id":9,"result":{"taskId":"t4","status":"cancelled","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`,
		/* 17 */ `{"jsonrpc":"2.0","id":10,"method":"tasks/result","params":{"taskId":"t4"}}`,
		/* 18 */ `{"jsonrpc":"2.0","id":10,"error":{"code":-32000,"message":"cancelled"}}`,
		/* 19 */ `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"stats","task":{}}}`,
		/* 20 */ `{"jsonrpc":"2.0","id":11,"result":{"task":{"taskId":"t5","status":"completed","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		/* 21 */ `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","task":{}}}`,
		/* 22 */ `{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"no task made"}]}}`,
		/* 23 */ `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"read_file","task":{}}}`,
		/* 24 */ `{"jsonrpc":"2.0","id":13,"result":{"task":{"taskId":"t6","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		/* 25 */ `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t6","status":"failed","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`,
		/* 26 */ `{"jsonrpc":"2.0","id":14,"method":"tasks/result","params":{"taskId":"t6"}}`,
		/* 27 */ `{"jsonrpc":"2.0","id":14,"result":{"content":[{"type":"text","text":"no such file"}],"isError":true}}`,
		/* 28 */ `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t6","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`,
	}, "\n"))
	if msg != "" {
		t.Fatal(msg)
	}
	want := []callView{
		{"2", "send_money", map[string]any{"amount": 5.0}, true, "sent", "", "", 0, 6},
		{"5", "slow", map[string]any{}, false, "", "", `the task "t2" of this tools/call was still input_required at the end of the log, which holds no tasks/result response: whether the tool ran is unknown`, 7, -1},
		{"6", "send_money", map[string]any{"amount": 6.0}, false, `the task "t3" of this tools/call failed: quota exceeded`, `the task "t3" of this tools/call failed: quota exceeded`, "", 9, 12},
		{"8", "send_money", map[string]any{"amount": 8.0}, false, "cancelled (JSON-RPC error -32000)", "cancelled (JSON-RPC error -32000)", `the task "t4" of this tools/call was cancelled, and tasks/result answered with an error: whether the tool ran before it stopped is unknown`, 13, 18},
		{"11", "stats", map[string]any{}, false, "", "", `the task "t5" of this tools/call completed, but the log holds no tasks/result response: its result, and whether it reported an error, are unknown`, 19, -1},
		{"12", "echo", map[string]any{}, true, "no task made", "", "", 21, 22},
		{"13", "read_file", map[string]any{}, false, "no such file", "no such file", "", 23, 27},
	}
	if got := calls(rn); !reflect.DeepEqual(got, want) {
		t.Errorf("calls =\n%+v\nwant\n%+v", got, want)
	}
	wantRoles := "assistant mcp mcp mcp mcp mcp tool assistant mcp assistant mcp mcp tool assistant mcp mcp mcp mcp tool assistant mcp assistant tool assistant mcp mcp mcp tool mcp"
	if got := roles(rn); got != wantRoles {
		t.Errorf("roles =\n%q\nwant\n%q", got, wantRoles)
	}
	if ev := rn.Events[12]; ev.CallID != "6" || ev.Tool != "send_money" || !ev.Failed || ev.Content != `the task "t3" of this tools/call failed: quota exceeded` {
		t.Errorf("event 12 = %+v", ev)
	}
	if ev := rn.Events[6]; ev.CallID != "2" || ev.Tool != "send_money" || ev.Failed || ev.Content != "sent" || len(ev.Blocks) != 1 {
		t.Errorf("event 6 = %+v", ev)
	}
}

// A task whose status is cancelled with no result, and one the log never
// shows a status for after its CreateTaskResult was lost, stay unknown.
func TestTaskCancelledNoResult(t *testing.T) {
	rn, msg := read(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_money","task":{"ttl":1}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"cancelled","statusMessage":"by request","createdAt":"x","lastUpdatedAt":"x","ttl":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_money","task":{"ttl":1}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f","task":{"ttl":1}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"task":{"taskId":"b","status":"failed","createdAt":"x","lastUpdatedAt":"x","ttl":1}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tasks/result","params":{"taskId":"b"}}`,
		`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"fine"}]}}`,
	}, "\n"))
	if msg != "" {
		t.Fatal(msg)
	}
	want := []callView{
		{"1", "send_money", map[string]any{}, false, "", "", `the task "a" of this tools/call was cancelled: whether the tool ran before it stopped is unknown`, 0, -1},
		{"2", "send_money", map[string]any{}, false, "", "", noResponse, 3, -1},
		{"3", "f", map[string]any{}, false, "fine", "", `the task "b" of this tools/call failed, yet its tasks/result response reports no error: whether the tool succeeded is unknown`, 4, 7},
	}
	if got := calls(rn); !reflect.DeepEqual(got, want) {
		t.Errorf("calls =\n%+v\nwant\n%+v", got, want)
	}
}

// What the reader cannot tie to a call, or that contradicts itself, is
// refused naming the line.
func TestTaskRefused(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","task":{}}}` + "\n"
	created := func(id, status string) string {
		return `{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"` + id + `","status":"` + status + `","createdAt":"x","lastUpdatedAt":"x","ttl":1}}}` + "\n"
	}
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","task":true}}`, `params.task: want an object (TaskMetadata), got a boolean`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}` + "\n" + created("a", "working"), `line 2: result.task: a CreateTaskResult (MCP 2025-11-25) answers a tools/call that asked for no task (no params.task), so whether a result is to come is unclear`},
		{call + created("a", "done"), `line 2: result.task.status: want working, input_required, completed, failed or cancelled, got "done"`},
		{call + `{"jsonrpc":"2.0","id":1,"result":{"task":{"status":"working"}}}`, `line 2: result.task.taskId: want a string, got nothing (missing)`},
		{call + created("a", "working") + strings.Replace(call, `"id":1`, `"id":2`, 1) + strings.Replace(created("a", "working"), `"id":1`, `"id":2`, 1), `line 4: result.task.taskId "a": the task id of the tools/call of line 2 too, so which call a tasks/result answers is unclear`},
		{call + created("a", "completed") + `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"failed"}}`, `line 3: params.status: task "a" is failed, but line 2 said completed, and a task keeps its terminal status, so its outcome is unclear`},
		{`{"jsonrpc":"2.0","id":5,"method":"tasks/result","params":{"taskId":"z"}}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"x"}]}}`, `line 2: a tasks/result response shaped as a tool result for the task "z", which no CreateTaskResult in this log created: which tools/call it answers is unknown (is the response to the task-augmented tools/call missing?)`},
		{call + created("a", "working") + `{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"a"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"b"}}}}`, `line 4: result._meta["io.modelcontextprotocol/related-task"].taskId is "b", but the tasks/result request of line 3 asked for the task "a"`},
		{`{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{}}`, `params.taskId: want a string, got nothing (missing)`},
		{call + `{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working"},"content":[]}}`, `line 2: result: both a task (a CreateTaskResult) and content (a CallToolResult), so whether the result is to come is unclear`},
	} {
		_, msg := read(t, tc.in)
		if msg != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.in, msg, tc.want)
		}
	}
}

// A task that answers no tools/call (a sampling task of the client's) is
// protocol only: its tasks/result response is no call's result. Its
// CreateTaskResult goes to the sampling request, not to the client's
// tools/call pending with the same id (only a task-augmented request's
// result may be a CreateTaskResult).
func TestTaskOfSampling(t *testing.T) {
	rn, msg := read(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"f"}}`,
		`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"task":{}}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"task":{"taskId":"s1","status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"s1"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"content":[{"type":"text","text":"done"}]}}`,
	}, "\n"))
	if msg != "" {
		t.Fatal(msg)
	}
	want := []callView{{"0", "f", map[string]any{}, true, "done", "", "", 0, 5}}
	if got := calls(rn); !reflect.DeepEqual(got, want) || roles(rn) != "assistant mcp mcp mcp mcp tool" {
		t.Errorf("calls %+v, roles %q", got, roles(rn))
	}
}
