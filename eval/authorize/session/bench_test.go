package session_test

import (
	"fmt"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize/session"
)

// BenchmarkHistoryDecode measures what a session pays per request that
// appends messages: its whole history of n messages decoded again (see
// the package doc).
func BenchmarkHistoryDecode(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			hist := [][]byte{[]byte(userMsg)}
			for len(hist) < n {
				hist = append(hist, []byte(readCall), []byte(readReply))
			}
			hist = hist[:n]
			b.ReportAllocs()
			for b.Loop() {
				if _, err := session.DecodeHistory(hist, "t", "", n-1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1000, "µs/message")
		})
	}
}
