package gateway_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
)

// BenchmarkGatewayOverhead times one tools/call round trip (an allowed
// call, decided and logged) through the gateway and straight to the same
// test server, alternating the two so that both see the same machine
// load, and reports each one's median and 99th percentile and the
// difference of the medians (the gateway's overhead; issue 18's target is
// at most 1 ms).
func BenchmarkGatewayOverhead(b *testing.B) {
	const call = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_fixture","arguments":{"id":"F1"}}}`
	h := start(b, "normal", gateway.Config{Log: decisionlog.NewWriter(io.Discard, nil)})
	h.roundTrip(initialize)

	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	direct := exec.Command(exe, "-test.run=^$")
	direct.Env = append(os.Environ(), serverEnv+"=normal", recordEnv+"="+filepath.Join(b.TempDir(), "direct.jsonl"))
	in, err := direct.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	outPipe, err := direct.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := direct.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); _ = direct.Wait() }()
	out := bufio.NewReader(outPipe)
	straight := func(line string) {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
	}
	straight(initialize)

	via, dir := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		h.roundTrip(call)
		t1 := time.Now()
		straight(call)
		t2 := time.Now()
		via, dir = append(via, t1.Sub(t0)), append(dir, t2.Sub(t1))
	}
	b.StopTimer()
	slices.Sort(via)
	slices.Sort(dir)
	q := func(d []time.Duration, p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Nanoseconds()) }
	b.ReportMetric(q(via, 0.5), "gateway-p50-ns")
	b.ReportMetric(q(via, 0.99), "gateway-p99-ns")
	b.ReportMetric(q(dir, 0.5), "direct-p50-ns")
	b.ReportMetric(q(dir, 0.99), "direct-p99-ns")
	b.ReportMetric(q(via, 0.5)-q(dir, 0.5), "overhead-p50-ns")
	b.ReportMetric(q(via, 0.99)-q(dir, 0.99), "overhead-p99-ns")
}
