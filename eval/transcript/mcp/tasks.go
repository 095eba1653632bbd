package mcp

import (
	"fmt"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
)

// Tasks (MCP 2025-11-25, "Tasks"). A tools/call whose params hold a task
// (TaskMetadata) may be answered by a CreateTaskResult, {"task": Task},
// instead of a CallToolResult: the server runs the tool in the background
// under the task's taskId, reports its status (working, input_required,
// completed, failed, cancelled) in tasks/get and tasks/cancel responses
// and notifications/tasks/status, and gives the tool's result, exactly as
// tools/call would have, in the response to tasks/result.

// relatedTask is the _meta key by which a message names its task.
const relatedTask = "io.modelcontextprotocol/related-task"

// task is one task id's state as the log reports it.
type task struct {
	id      string
	call    *run.Call // the tools/call whose CreateTaskResult created it, or nil
	line    int       // the line of that CreateTaskResult
	status  string    // the latest status reported, "" before any
	message string    // its statusMessage
	event   int       // the event that reported status
	sline   int       // and its line
	// result: a tasks/result response answered the call; resultErr: it
	// was a JSON-RPC error.
	result, resultErr bool
	rline             int // the line of that response
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// taskOf returns the state of task id, made on first sight.
func (d *decoder) taskOf(id string) *task {
	t := d.tasks[id]
	if t == nil {
		t = &task{id: id}
		d.tasks[id] = t
	}
	return t
}

// taskStatus reads a Task object (a CreateTaskResult's task, a tasks/get
// or tasks/cancel result, notifications/tasks/status params) reported by
// event ev, at path where. A non-terminal status reported after a
// terminal one is stale (a terminal status is final, and a server may log
// a CreateTaskResult after the notifications it sent meanwhile): the
// terminal one stays. Two different terminal statuses contradict each
// other: refused.
func (d *decoder) taskStatus(obj map[string]any, ev int, where string) (*task, string) {
	id, ok := obj["taskId"].(string)
	if !ok {
		return nil, where + ".taskId: want a string, got " + build.KindOrMissing(obj, "taskId")
	}
	status, ok := obj["status"].(string)
	if !ok {
		return nil, where + ".status: want a string, got " + build.KindOrMissing(obj, "status")
	}
	switch status {
	case "working", "input_required", "completed", "failed", "cancelled":
	default:
		return nil, fmt.Sprintf("%s.status: want working, input_required, completed, failed or cancelled, got %q", where, build.Clip(status, 100))
	}
	t := d.taskOf(id)
	if terminal(t.status) {
		if terminal(status) && status != t.status {
			return nil, fmt.Sprintf("%s.status: task %q is %s, but line %d said %s, and a task keeps its terminal status, so its outcome is unclear", where, build.Clip(id, 100), status, t.sline, t.status)
		}
		return t, ""
	}
	t.status, t.event, t.sline = status, ev, d.line
	t.message, _ = obj["statusMessage"].(string)
	return t, ""
}

// createTask reads the CreateTaskResult r answering the task-augmented
// tools/call p: the task's id now stands for the call.
func (d *decoder) createTask(p *pending, r map[string]any, ev *run.Event) string {
	obj, ok := r["task"].(map[string]any)
	if !ok {
		return "result.task: want an object (a CreateTaskResult's Task), got " + build.Kind(r["task"])
	}
	if _, ok := r["content"]; ok {
		return "result: both a task (a CreateTaskResult) and content (a CallToolResult), so whether the result is to come is unclear"
	}
	if msg := scanRest(r, map[string]bool{"task": true, "_meta": true}, "result"); msg != "" {
		return msg
	}
	t, msg := d.taskStatus(obj, ev.Index, "result.task")
	if msg != "" {
		return msg
	}
	if t.call != nil {
		return fmt.Sprintf("result.task.taskId %q: the task id of the tools/call of line %d too, so which call a tasks/result answers is unclear", build.Clip(t.id, 100), t.line)
	}
	t.call, t.line = p.call, d.line
	d.taskCalls[p.call] = t
	return ""
}

// taskParam reads a tasks/* request's params.taskId.
func taskParam(params map[string]any) (string, string) {
	id, ok := params["taskId"].(string)
	if !ok {
		return "", "params.taskId: want a string, got " + build.KindOrMissing(params, "taskId")
	}
	return id, ""
}

// taskResult says whether the response to the tasks/result request p is
// a call's result, and which call's: the task's, when a CreateTaskResult
// in the log created it. A result of a task no tools/call created that is
// shaped as a tool result is refused: the CreateTaskResult that would say
// whose it is is missing. A result naming another task in its _meta is
// refused.
func (d *decoder) taskResult(p *pending, obj map[string]any) (*task, string) {
	r, _ := obj["result"].(map[string]any)
	if meta, ok := r["_meta"].(map[string]any); ok {
		if rel, ok := meta[relatedTask].(map[string]any); ok {
			if id, ok := rel["taskId"].(string); ok && id != p.taskID {
				return nil, fmt.Sprintf("result._meta[%q].taskId is %q, but the tasks/result request of line %d asked for the task %q", relatedTask, build.Clip(id, 100), p.line, build.Clip(p.taskID, 100))
			}
		}
	}
	t := d.tasks[p.taskID]
	if t == nil || t.call == nil {
		if content, ok := r["content"].([]any); ok && content != nil && r["role"] == nil && r["model"] == nil {
			return nil, fmt.Sprintf("a tasks/result response shaped as a tool result for the task %q, which no CreateTaskResult in this log created: which tools/call it answers is unknown (is the response to the task-augmented tools/call missing?)", build.Clip(p.taskID, 100))
		}
		return nil, ""
	}
	if t.result {
		// A second result would reach the matcher as one of an answered
		// call, which may give it to a later pending call by its place.
		return nil, fmt.Sprintf("a second tasks/result response for the task %q, whose result line %d gave already, so which is the tools/call's result is unclear", build.Clip(p.taskID, 100), t.rline)
	}
	t.result, t.rline = true, d.line
	_, t.resultErr = obj["error"]
	return t, ""
}

// finishTasks answers, before build.Finish, each task-augmented call whose
// task failed and whose result no tasks/result response gave: the event
// that reported the failure is its result, failed with the task's
// statusMessage.
func (d *decoder) finishTasks() {
	for _, c := range d.rn.Calls {
		t := d.taskCalls[c]
		if t == nil || t.result || t.status != "failed" || c.ResultEvent >= 0 {
			continue
		}
		ev := d.rn.Events[t.event]
		if ev.Role == roleResult {
			continue // it already answers another call: left unknown
		}
		text := fmt.Sprintf("the task %q of this tools/call failed", build.Clip(t.id, 100))
		if t.message != "" {
			text += ": " + t.message
		}
		ev.Role = roleResult
		a := build.Result{CallID: c.ID, Content: text, Failed: true, Err: text}
		d.m.Answer(d.rn, ev.Index, a)
		ev.CallID, ev.Tool, ev.Failed, ev.Error, ev.Content = c.ID, c.Tool, true, text, text
	}
}

// taskUnknown is why the outcome of call c, of task t, is unknown, or "":
// a task still working or completed with no tasks/result response in the
// log, or cancelled (the tool may have run before it stopped) with no
// result or an error, or failed while its result reports no error.
func taskUnknown(c *run.Call, t *task) string {
	id := build.Clip(t.id, 100)
	if c.ResultEvent < 0 {
		switch t.status {
		case "completed":
			return fmt.Sprintf("the task %q of this tools/call completed, but the log holds no tasks/result response: its result, and whether it reported an error, are unknown", id)
		case "cancelled":
			return fmt.Sprintf("the task %q of this tools/call was cancelled: whether the tool ran before it stopped is unknown", id)
		case "failed":
			// finishTasks answered it at the event that said so, unless
			// that event already answers another call.
			return fmt.Sprintf("the task %q of this tools/call failed, and the log holds no tasks/result response: whether the tool ran before it failed is unknown", id)
		}
		status := t.status
		if status == "" {
			status = "working"
		}
		return fmt.Sprintf("the task %q of this tools/call was still %s at the end of the log, which holds no tasks/result response: whether the tool ran is unknown", id, status)
	}
	switch {
	case t.status == "cancelled" && t.resultErr:
		return fmt.Sprintf("the task %q of this tools/call was cancelled, and tasks/result answered with an error: whether the tool ran before it stopped is unknown", id)
	case t.status == "failed" && c.Ok:
		return fmt.Sprintf("the task %q of this tools/call failed, yet its tasks/result response reports no error: whether the tool succeeded is unknown", id)
	}
	return ""
}
