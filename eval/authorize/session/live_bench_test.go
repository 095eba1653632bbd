package session_test

import (
	"fmt"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// BenchmarkSessionCheck is one request of a session whose history holds
// n to n+100 messages: two more appended (a read and its result), the
// whole history decoded again, a send decided and the forbid invariant
// checked by eval's live check (session.NewEngine).
func BenchmarkSessionCheck(b *testing.B) {
	eng := session.NewEngine(evaltest.ProgramFrom(b, contract), session.Closed)
	send := call(b, sendBob)
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			tab := session.NewTable(session.Limits{MaxMessages: 1 << 30, MaxHistoryBytes: 1 << 30}, nil)
			hist := [][]byte{[]byte(userMsg)}
			for len(hist) < n {
				hist = append(hist, []byte(`{"role":"user","content":"more"}`))
			}
			if _, err := tab.Check("s", func() *session.Engine { return eng }, session.Request{Grant: "assistant", Task: "t", Messages: hist, Call: send}); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				id := fmt.Sprintf("r%d", i)
				m := msgs(`{"role":"assistant","content":null,"tool_calls":[{"id":"`+id+`","type":"function","function":{"name":"read_inbox","arguments":"{}"}}]}`, `{"role":"tool","tool_call_id":"`+id+`","content":"x"}`)
				if _, err := tab.Check("s", func() *session.Engine { return eng }, session.Request{Messages: m, Call: send}); err != nil {
					b.Fatal(err)
				}
				if i%50 == 0 { // keep the history near n
					b.StopTimer()
					tab.Delete("s")
					if _, err := tab.Check("s", func() *session.Engine { return eng }, session.Request{Grant: "assistant", Task: "t", Messages: hist, Call: send}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			}
		})
	}
}
