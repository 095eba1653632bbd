package session_test

import (
	"fmt"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/session"
)

// BenchmarkHistoryDecode measures what a session pays per request for
// decoding its whole history again (see the package doc): one check that
// appends one message to a history of n messages.
func BenchmarkHistoryDecode(b *testing.B) {
	read := call(b, `{"name":"read_inbox","arguments":{}}`)
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			hist := make([][]byte, 0, n)
			for len(hist) < n-1 {
				hist = append(hist, []byte(readCall), []byte(readReply))
			}
			hist = hist[:n-1]
			eng := engine(b, nil, session.Closed)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				tab := session.NewTable(session.Limits{MaxMessages: n + 1, MaxHistoryBytes: 1 << 30}, nil)
				b.StopTimer()
				if _, err := tab.Check("s", eng, session.Request{Grant: "reader", Messages: hist, Call: read}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := tab.Check("s", eng, session.Request{Messages: msgs(userMsg), Call: read}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1000, "µs/message")
		})
	}
}
