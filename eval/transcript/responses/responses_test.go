package responses

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// summary is what a test compares of a run: each event as
// "role|content|callID|tool|failed|error|unknown" and each call as
// "id|tool|args|ok|unknown|result|error|resultEvent|event|depth|mismatch".
func summary(rn *run.Run) (events, calls []string) {
	for _, e := range rn.Events {
		events = append(events, strings.Join([]string{e.Role, e.Content, e.CallID, e.Tool, bstr(e.Failed), e.Error, e.FailedUnknown}, "|"))
	}
	for _, c := range rn.Calls {
		calls = append(calls, strings.Join([]string{c.ID, c.Tool, jsonish(c.Args), bstr(c.Ok), c.OkUnknown, c.Result, c.Error, itoa(c.ResultEvent), itoa(c.Event), itoa(c.Depth), c.Mismatch}, "|"))
	}
	return
}

func decodeOK(t *testing.T, rec string) *run.Run {
	t.Helper()
	rn, skip, msg := Decode([]byte(rec))
	if msg != "" || skip || rn == nil {
		t.Fatalf("Decode: run %v, skip %v, msg %q", rn != nil, skip, msg)
	}
	return rn
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// TestCanonical reads the canonical conversation of
// examples/formats/openai-responses: the system prompt from instructions,
// the failed read from is_error, results matched by call_id, the meta.
func TestCanonical(t *testing.T) {
	data, err := os.ReadFile("../../../examples/formats/openai-responses/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rn := decodeOK(t, strings.TrimSpace(string(data)))
	events, calls := summary(rn)
	check(t, "events", events, []string{
		"system|You are a banking assistant.|||false||",
		"user|Pay my rent of 1100 to the landlord.|||false||",
		"assistant|Checking your balance and notes.|||false||",
		"assistant||||false||",
		"assistant||||false||",
		"tool|{\"balance\": 2500}|call_1|get_balance|false||",
		"tool|file not found|call_2|read_file|true|file not found|",
		"assistant||||false||",
		"tool|ok|call_3|send_money|false||",
		"assistant|Done: sent 1100 to the landlord.|||false||",
	})
	check(t, "calls", calls, []string{
		"call_1|get_balance|map[]|true||{\"balance\": 2500}||5|3|0|",
		"call_2|read_file|map[path:notes.txt]|false||file not found|file not found|6|4|0|",
		"call_3|send_money|map[amount:1100 recipient:landlord]|true||ok||8|7|0|",
	})
	check(t, "output", rn.Output, "Done: sent 1100 to the landlord.")
	check(t, "meta", rn.Meta, map[string]any{"task": "pay_rent", "agent": "demo-agent"})
	check(t, "record model", rn.Record["model"], "demo-agent")
	check(t, "blocks of a call item", rn.Events[3].Blocks[0].(map[string]any)["id"], "fc_1")
}
