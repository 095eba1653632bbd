package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/server"
	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// loadRate and loadFor are the load BenchmarkServerLoad offers: issue
// 18's target is p99 ≤ 1 ms at 2,000 requests/s over loopback.
const (
	loadRate = 2000
	loadFor  = 3 * time.Second
)

// bankingCalls are calls of the AgentDojo banking bundle, every layer's
// decision among them.
var bankingCalls = []string{
	`{"name":"get_balance","arguments":"{}"}`,
	`{"id":"c1","type":"function","function":{"name":"send_money","arguments":"{\"recipient\":\"GB29NWBK60161331926819\",\"amount\":100.0,\"subject\":\"rent\",\"date\":\"2022-04-01\"}"}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"file_path":"bill-december-2023.txt"}}}`,
	`{"type":"tool_use","id":"t1","name":"update_password","input":{"password":"hunter2","extra":1}}`,
	`{"name":"transfer_all","arguments":{}}`,
}

// BenchmarkServerLoad offers loadRate requests/s for loadFor to a real
// listener on loopback (sub-benchmark authorize: stateless calls;
// session: 40 sessions at a time, each call decided and checked against
// the bundle's three invariants by eval's live check), open loop (each request is sent at its scheduled
// time by a pool of clients, whatever the earlier ones did), and reports
// the latency from each request's send to its whole response: p50, p99
// and max in µs, with the p99 of how late the client sent requests after
// their scheduled time (the load generator shares the machine). It stops
// by itself; it asserts no timing.
//
//	go test ./eval/authorize/server -run '^$' -bench ServerLoad -benchtime 1x
func BenchmarkServerLoad(b *testing.B) {
	p := evaltest.Program(b, "../../../contracts/agentdojo/banking")
	for _, mode := range []string{"authorize", "session"} {
		b.Run(mode, func(b *testing.B) {
			srv := server.New(session.NewEngine(p, session.Closed), server.Config{Log: decisionlog.NewWriter(io.Discard, nil), Limits: session.Limits{MaxMessages: 100000, MaxHistoryBytes: 1 << 26}})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, ln, server.Limits{}) }()
			defer func() {
				cancel()
				if err := <-served; err != nil {
					b.Error(err)
				}
			}()
			lat, lag, failed := offer(b, "http://"+ln.Addr().String(), mode)
			if len(lat) == 0 {
				b.Fatal("no request answered")
			}
			slices.Sort(lat)
			slices.Sort(lag)
			q := func(d []time.Duration, f float64) float64 { return float64(d[int(f*float64(len(d)-1))].Microseconds()) }
			b.ReportMetric(q(lat, 0.50), "p50-µs")
			b.ReportMetric(q(lat, 0.99), "p99-µs")
			b.ReportMetric(q(lat, 1), "max-µs")
			b.ReportMetric(q(lag, 0.99), "p99-send-lag-µs")
			b.ReportMetric(float64(len(lat))/loadFor.Seconds(), "req/s")
			b.ReportMetric(float64(failed), "failed")
		})
	}
}

// offer sends the load and returns, for each answered request, its
// latency (from its send to its whole response) and how late it was sent
// after its scheduled time (the client's own delay: timer resolution, a
// busy machine), and the number of requests that failed.
func offer(b *testing.B, url, mode string) (lat, lag []time.Duration, failed int) {
	n := int(loadRate * loadFor.Seconds())
	interval := time.Second / loadRate
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}, Timeout: 10 * time.Second}
	type job struct {
		i  int
		at time.Time
	}
	jobs := make(chan job, n)
	lat, lag = make([]time.Duration, n), make([]time.Duration, n)
	ok := make([]bool, n)
	var wg sync.WaitGroup
	// Sessions: 40 at a time, each request appending the previous call and
	// its result, so that histories grow as a run's does, up to runCalls
	// calls (an AgentDojo run's size: 39 messages); then the next run
	// starts.
	const sessions, runCalls = 40, 20
	var smu [sessions]sync.Mutex
	var sseq [sessions]int
	for w := 0; w < 128; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if d := time.Until(j.at); d > 0 {
					time.Sleep(d)
				}
				call := bankingCalls[j.i%len(bankingCalls)]
				path, body := "/v1/authorize", `{"grant":"default","call":`+call+`}`
				if mode == "session" {
					k := j.i % sessions
					smu[k].Lock()                             // one run's calls come one after another
					if sseq[k] > 0 && sseq[k]%runCalls == 0 { // the last run is over
						req, _ := http.NewRequest("DELETE", fmt.Sprintf("%s/v1/sessions/s%d-%d", url, k, sseq[k]/runCalls-1), nil)
						if resp, err := client.Do(req); err == nil {
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
					}
					msgs := `{"role":"user","content":"pay my bills"}`
					if sseq[k]%runCalls > 0 {
						id := fmt.Sprintf("c%d", sseq[k])
						msgs = `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"get_balance","arguments":"{}"}}]},{"role":"tool","tool_call_id":"` + id + `","content":"1810.0"}`
					}
					path, body = fmt.Sprintf("/v1/sessions/s%d-%d/calls", k, sseq[k]/runCalls), `{"grant":"default","messages":[`+msgs+`],"call":`+call+`}`
				}
				sent := time.Now()
				resp, err := client.Post(url+path, "application/json", strings.NewReader(body))
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode == 200 {
						lat[j.i], lag[j.i], ok[j.i] = time.Since(sent), sent.Sub(j.at), true
					}
				}
				if mode == "session" {
					sseq[j.i%sessions]++
					smu[j.i%sessions].Unlock()
				}
			}
		}()
	}
	// Warm up: the pool's connections opened, the handler's code paths
	// run once, before the clock starts.
	var warm sync.WaitGroup
	for w := 0; w < 128; w++ {
		warm.Add(1)
		go func() {
			defer warm.Done()
			if resp, err := client.Get(url + "/health"); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	warm.Wait()
	start := time.Now().Add(10 * time.Millisecond)
	b.ResetTimer()
	for i := 0; i < n; i++ {
		jobs <- job{i, start.Add(time.Duration(i) * interval)}
	}
	close(jobs)
	wg.Wait()
	b.StopTimer()
	var out, late []time.Duration
	for i := range lat {
		if ok[i] {
			out, late = append(out, lat[i]), append(late, lag[i])
		}
	}
	return out, late, n - len(out)
}

// BenchmarkHandler is one request's cost in the handler alone (no
// network, no client): what the server spends per decision.
func BenchmarkHandler(b *testing.B) {
	p := evaltest.Program(b, "../../../contracts/agentdojo/banking")
	srv := server.New(session.NewEngine(p, session.Closed), server.Config{Log: decisionlog.NewWriter(io.Discard, nil)})
	body := `{"grant":"default","call":` + bankingCalls[1] + `}`
	b.ReportAllocs()
	for b.Loop() {
		r, _ := http.NewRequest("POST", "/v1/authorize", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := discardWriter{h: http.Header{}}
		srv.ServeHTTP(&w, r)
		if w.status != 200 {
			b.Fatal(w.status)
		}
	}
}

type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(s int)           { w.status = s }
