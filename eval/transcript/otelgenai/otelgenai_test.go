package otelgenai

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// readAll frames and decodes a file, summarising each run (or error).
func readAll(t *testing.T, file string, data string, opt frame.Options) string {
	t.Helper()
	var sb strings.Builder
	rr := Frame(file, strings.NewReader(data), opt)
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		var fe *frame.Error
		if errors.As(err, &fe) {
			fmt.Fprintf(&sb, "error %v\n", err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rn, skip, msg := Decode(rec.Data)
		if msg != "" || skip {
			fmt.Fprintf(&sb, "%s:%d: decode: %s (skip %v)\n", file, rec.Origin.Line, msg, skip)
			continue
		}
		fmt.Fprintf(&sb, "run at line %d\n%s", rec.Origin.Line, summary(rn))
	}
	return sb.String()
}

func summary(rn *run.Run) string {
	var sb strings.Builder
	meta, _ := json.Marshal(rn.Meta)
	fmt.Fprintf(&sb, "meta %s\n", meta)
	for _, ev := range rn.Events {
		fmt.Fprintf(&sb, "event %d %s %q calls=%v", ev.Index, ev.Role, ev.Content, ev.Calls)
		if ev.CallID != "" || ev.Tool != "" {
			fmt.Fprintf(&sb, " result(id=%s tool=%s failed=%v err=%q)", ev.CallID, ev.Tool, ev.Failed, ev.Error)
		}
		sb.WriteByte('\n')
	}
	for _, c := range rn.Calls {
		args, _ := json.Marshal(c.Args)
		fmt.Fprintf(&sb, "call %d ev=%d id=%s %s %s ok=%v result=%q err=%q resultEvent=%d", c.Index, c.Event, c.ID, c.Tool, args, c.Ok, c.Result, c.Error, c.ResultEvent)
		if c.Mismatch != "" || c.ArgsError != "" || c.OkUnknown != "" {
			fmt.Fprintf(&sb, " mismatch=%q argsError=%q okUnknown=%q", c.Mismatch, c.ArgsError, c.OkUnknown)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "output %q\n", rn.Output)
	return sb.String()
}

func TestCanonical(t *testing.T) {
	data, err := os.ReadFile("../../../examples/formats/otel-genai/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, "transcript.jsonl", string(data), frame.Options{})
	want := `run at line 1
meta {"agent_name":"demo-agent","conversation_id":"conv_pay_rent","model":"demo-agent","provider":"openai","resource":{"service.name":"demo-agent","tenet.task":"pay_rent"},"service_name":"demo-agent","trace_ids":["4bf92f3577b34da6a3ce929d0e0e4736"]}
event 0 system "You are a banking assistant." calls=[]
event 1 user "Pay my rent of 1100 to the landlord." calls=[]
event 2 assistant "Checking your balance and notes." calls=[0 1]
event 3 tool "{\"balance\": 2500}" calls=[] result(id=call_1 tool=get_balance failed=false err="")
event 4 tool "file not found" calls=[] result(id=call_2 tool=read_file failed=true err="file not found")
event 5 assistant "" calls=[2]
event 6 tool "ok" calls=[] result(id=call_3 tool=send_money failed=false err="")
event 7 assistant "Done: sent 1100 to the landlord." calls=[]
call 0 ev=2 id=call_1 get_balance {} ok=true result="{\"balance\": 2500}" err="" resultEvent=3
call 1 ev=2 id=call_2 read_file {"path":"notes.txt"} ok=false result="file not found" err="file not found" resultEvent=4
call 2 ev=5 id=call_3 send_money {"amount":1100,"recipient":"landlord"} ok=true result="ok" err="" resultEvent=6
output "Done: sent 1100 to the landlord."
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return readAll(t, name, string(data), frame.Options{})
}

// TestNoContent: instrumentation with content capture off (the
// conventions' default): execute_tool spans alone give the calls, and two
// traces interleaved over three lines are two runs, each at its first line.
// A span with neither a result nor a status ran without error (OTel's
// instrumentations leave the status unset unless there is an error); one
// with status ERROR failed.
func TestNoContent(t *testing.T) {
	got := readSample(t, "no_content.jsonl")
	want := `run at line 1
meta {"agent_name":"planner","model":"gpt-4o","provider":"openai","resource":{"service.name":"travel-agent","telemetry.sdk.language":"python"},"service_name":"travel-agent","trace_ids":["0af7651916cd43dd8448eb211c80319c"]}
event 0 tool "" calls=[] result(id=call_a1 tool=search_flights failed=false err="")
call 0 ev=0 id=call_a1 search_flights {} ok=true result="" err="" resultEvent=0
output ""
run at line 1
meta {"agent_name":"planner","model":"gpt-4o","provider":"openai","resource":{"service.name":"travel-agent","telemetry.sdk.language":"python"},"service_name":"travel-agent","trace_ids":["b7ad6b7169203331a1c3e7f3b1a0f6d2"]}
event 0 tool "" calls=[] result(id=call_b1 tool=book_flight failed=true err="payment declined")
call 0 ev=0 id=call_b1 book_flight {} ok=false result="" err="payment declined" resultEvent=0
output ""
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestConversation: one gen_ai.conversation.id over two traces is one run;
// each chat span's input repeats the conversation so far, which is read
// once; tool results come back in the input only.
func TestConversation(t *testing.T) {
	got := readSample(t, "conversation.jsonl")
	want := `run at line 1
meta {"conversation_id":"thread_42","model":"claude-sonnet-4","provider":"anthropic","resource":{"service.name":"weather-bot"},"service_name":"weather-bot","trace_ids":["5b8efff798038103d269b633813fc60c","6e0c63257de34c92bf9efcd03927272e"]}
event 0 user "What's the weather in Paris?" calls=[]
event 1 assistant "" calls=[0]
event 2 tool "{\"sky\":\"cloudy\",\"temp_c\":18}" calls=[] result(id=toolu_01 tool=get_weather failed=false err="")
event 3 assistant "18°C and cloudy." calls=[]
event 4 user "Email that to Ana." calls=[]
event 5 assistant "" calls=[1]
call 0 ev=1 id=toolu_01 get_weather {"city":"Paris"} ok=true result="{\"sky\":\"cloudy\",\"temp_c\":18}" err="" resultEvent=2
call 1 ev=5 id=toolu_02 send_email {"body":"18°C and cloudy.","to":"ana@example.com"} ok=false result="" err="" resultEvent=-1
output ""
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
