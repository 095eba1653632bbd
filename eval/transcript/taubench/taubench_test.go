package taubench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// readAll frames and decodes a whole file, returning the runs and the
// errors (as "file:line: msg"), in order.
func readAll(t *testing.T, name, data string, opt frame.Options) (runs []*run.Run, errs []string) {
	t.Helper()
	rr := Frame(name, strings.NewReader(data), opt)
	for i := 0; i < 10000; i++ {
		rec, err := rr.Next()
		if err == io.EOF {
			return runs, errs
		}
		if err != nil {
			var fe *frame.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *frame.Error", err)
			}
			errs = append(errs, err.Error())
			continue
		}
		rn, skip, msg := Decode(rec.Data)
		if skip {
			t.Fatalf("%s:%d: skipped", rec.Origin.File, rec.Origin.Line)
		}
		if msg != "" {
			// As the registry reports it (eval/transcript.Decode).
			errs = append(errs, frame.RecordError(rec.Origin, rec.Data, msg).Error())
			continue
		}
		rn.Origin = rec.Origin
		runs = append(runs, rn)
	}
	t.Fatal("Next does not end")
	return nil, nil
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// summary renders a run's events and calls in one comparable text.
func summary(rn *run.Run) string {
	var b strings.Builder
	for _, ev := range rn.Events {
		fmt.Fprintf(&b, "e%d %s %q calls=%v", ev.Index, ev.Role, ev.Content, ev.Calls)
		if ev.Role == "tool" {
			fmt.Fprintf(&b, " id=%s tool=%s failed=%v err=%q", ev.CallID, ev.Tool, ev.Failed, ev.Error)
		}
		b.WriteString("\n")
	}
	for _, c := range rn.Calls {
		fmt.Fprintf(&b, "c%d by e%d(%s) %s %s args=%v ok=%v result=%q error=%q re=%d argserr=%q\n",
			c.Index, c.Event, rn.Events[c.Event].Role, c.ID, c.Tool, c.Args, c.Ok, c.Result, c.Error, c.ResultEvent, c.ArgsError)
	}
	fmt.Fprintf(&b, "output %q\n", rn.Output)
	return b.String()
}

func TestTauBenchRetail(t *testing.T) {
	runs, errs := readAll(t, "retail.json", readFile(t, "testdata/retail.json"), frame.Options{})
	if len(errs) != 0 || len(runs) != 2 {
		t.Fatalf("runs %d, errors %q; want 2 runs, no error", len(runs), errs)
	}
	if runs[0].Origin.Line != 2 || runs[1].Origin.Line != 51 {
		t.Errorf("origins %v %v, want lines 2 and 51, where the elements start", runs[0].Origin, runs[1].Origin)
	}
	want := `e0 system "# Retail agent policy\nYou can help users cancel or modify pending orders." calls=[]
e1 user "Cancel order 6390527 please, I don't need it." calls=[]
e2 assistant "" calls=[0]
e3 tool "Error: order not found" calls=[] id=call_Zx9 tool=cancel_pending_order failed=true err="Error: order not found"
e4 assistant "I could not find that order." calls=[]
c0 by e2(assistant) call_Zx9 cancel_pending_order args=map[order_id:6390527 reason:no longer needed] ok=false result="Error: order not found" error="Error: order not found" re=3 argserr=""
output "I could not find that order."
`
	if got := summary(runs[1]); got != want {
		t.Errorf("run 2:\n%s\nwant\n%s", got, want)
	}
	r0 := runs[0]
	if len(r0.Calls) != 2 || !r0.Calls[1].Ok || r0.Calls[1].Tool != "cancel_pending_order" || r0.Calls[1].Args["order_id"] != "#W6390527" {
		t.Errorf("run 1 calls: %s", summary(r0))
	}
	if r0.Meta["reward"] != 1.0 || r0.Meta["trial"] != 0.0 || r0.Meta["task_id"] != 12.0 || r0.Meta["traj"] != nil {
		t.Errorf("run 1 meta: reward %v trial %v task_id %v traj %v", r0.Meta["reward"], r0.Meta["trial"], r0.Meta["task_id"], r0.Meta["traj"] != nil)
	}
	if ri := r0.Meta["info"].(map[string]any)["reward_info"].(map[string]any); ri["reward"] != 1.0 {
		t.Errorf("meta.info.reward_info.reward = %v", ri["reward"])
	}
}

func TestTau2Telecom(t *testing.T) {
	runs, errs := readAll(t, "telecom.json", readFile(t, "testdata/telecom.json"), frame.Options{})
	if len(errs) != 0 || len(runs) != 2 {
		t.Fatalf("runs %d, errors %q; want 2 runs, no error", len(runs), errs)
	}
	want := `e0 assistant "Hi! How can I help you today?" calls=[]
e1 user "My mobile data stopped working. My number is 555-123-2002." calls=[]
e2 assistant "" calls=[0]
e3 tool "{\"customer_id\": \"C1001\", \"full_name\": \"John Smith\"}" calls=[] id=toolu_01Ab tool=get_customer_by_phone failed=false err=""
e4 assistant "Thanks John. Could you check whether airplane mode is on?" calls=[]
e5 user "" calls=[1]
e6 tool "Status Bar: ✈️ Airplane Mode | 🔋 80%" calls=[] id=call_u1 tool=check_status_bar failed=false err=""
e7 user "" calls=[2]
e8 tool "Airplane Mode is now OFF." calls=[] id=call_u2 tool=toggle_airplane_mode failed=false err=""
e9 user "Airplane mode was on; I turned it off and data works now. ###STOP###" calls=[]
c0 by e2(assistant) toolu_01Ab get_customer_by_phone args=map[phone_number:555-123-2002] ok=true result="{\"customer_id\": \"C1001\", \"full_name\": \"John Smith\"}" error="" re=3 argserr=""
c1 by e5(user) call_u1 check_status_bar args=map[] ok=true result="Status Bar: ✈️ Airplane Mode | 🔋 80%" error="" re=6 argserr=""
c2 by e7(user) call_u2 toggle_airplane_mode args=map[] ok=true result="Airplane Mode is now OFF." error="" re=8 argserr=""
output ""
`
	if got := summary(runs[0]); got != want {
		t.Errorf("simulation 1:\n%s\nwant\n%s", got, want)
	}
	m := runs[0].Meta
	if m["reward"] != 1.0 || m["trial"] != 0.0 || m["task_id"] != "[mobile_data_issue]airplane_mode_on" || m["messages"] != nil {
		t.Errorf("meta: reward %v trial %v task_id %v", m["reward"], m["trial"], m["task_id"])
	}
	llm := m["results"].(map[string]any)["info"].(map[string]any)["agent_info"].(map[string]any)["llm"]
	if llm != "claude-3-7-sonnet-20250219" {
		t.Errorf("meta.results.info.agent_info.llm = %v", llm)
	}
	r1 := runs[1]
	if r1.Meta["reward"] != 0.0 || len(r1.Calls) != 2 || r1.Calls[1].Ok || r1.Calls[1].Error != "Error: line not found for customer C1001" || !r1.Calls[0].Ok {
		t.Errorf("simulation 2:\n%s", summary(r1))
	}
}

func TestCanonical(t *testing.T) {
	runs, errs := readAll(t, "transcript.json", readFile(t, "../../../examples/formats/tau-bench/transcript.json"), frame.Options{})
	if len(errs) != 0 || len(runs) != 1 {
		t.Fatalf("runs %d, errors %q", len(runs), errs)
	}
	want := `e0 system "You are a banking assistant." calls=[]
e1 user "Pay my rent of 1100 to the landlord." calls=[]
e2 assistant "Checking your balance and notes." calls=[0 1]
e3 tool "{\"balance\": 2500}" calls=[] id=call_1 tool=get_balance failed=false err=""
e4 tool "file not found" calls=[] id=call_2 tool=read_file failed=true err="file not found"
e5 assistant "" calls=[2]
e6 tool "ok" calls=[] id=call_3 tool=send_money failed=false err=""
e7 assistant "Done: sent 1100 to the landlord." calls=[]
c0 by e2(assistant) call_1 get_balance args=map[] ok=true result="{\"balance\": 2500}" error="" re=3 argserr=""
c1 by e2(assistant) call_2 read_file args=map[path:notes.txt] ok=false result="file not found" error="file not found" re=4 argserr=""
c2 by e5(assistant) call_3 send_money args=map[amount:1100 recipient:landlord] ok=true result="ok" error="" re=6 argserr=""
output "Done: sent 1100 to the landlord."
`
	if got := summary(runs[0]); got != want {
		t.Errorf("canonical:\n%s\nwant\n%s", got, want)
	}
}
