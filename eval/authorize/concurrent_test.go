package authorize_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/tenetlang/tenet/eval/authorize"
)

// concurrentCalls are calls of every kind a decision takes a path for:
// each layer, absent arguments, nested calls (several, deep, too deep) and
// an unreadable nested call shape, so that decisions sharing an
// Authorizer's buffers (its pool) meet every size of run.
func concurrentCalls() []string {
	deep := `{"id":"F1"}`
	for range 18 {
		deep = `{"id":"F1","x":{"name":"read_fixture","arguments":` + deep + `}}`
	}
	return []string{
		`{"name":"read_fixture","arguments":{"id":"F1"}}`,
		`{"name":"read_fixture","arguments":{"id":"F2"}}`,
		`{"name":"read_fixture"}`,
		`{"name":"read_fixture","arguments":"{not json"}`,
		`{"name":"read_fixture","arguments":{"id":7}}`,
		`{"name":"drop_tables","arguments":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"update_fixture","arguments":{"id":"F1","value":"v"}}}`,
		`{"name":"update_fixture","arguments":{"id":"F1","a":{"name":"read_fixture","arguments":{"id":"F1","b":{"name":"x","arguments":{}}}},"c":{"name":"read_fixture","arguments":{"id":"F2"}}}}`,
		`{"type":"tool_use","id":"t","name":"read_fixture","input":` + deep + `}`,
		`{"name":"read_fixture","arguments":{"id":"F1","x":{"type":"tool_use"}}}`,
	}
}

// TestAuthorizeConcurrent: goroutines deciding the same calls at once,
// each in its own order, get exactly the decisions (and errors) one
// goroutine gets. Run under -race it also shows the decisions share no
// written state.
func TestAuthorizeConcurrent(t *testing.T) {
	a := seed(t)
	var calls []authorize.Call
	for _, text := range concurrentCalls() {
		c, _, err := authorize.ReadCall([]byte(text))
		if err != nil {
			t.Fatalf("ReadCall(%s): %v", text, err)
		}
		calls = append(calls, c)
	}
	answer := func(c authorize.Call) string {
		d, err := a.Authorize(c, "host")
		if err != nil {
			return "error: " + err.Error()
		}
		b, _ := json.Marshal(d)
		return string(b)
	}
	want := make([]string, len(calls))
	for i, c := range calls {
		want[i] = answer(c)
	}
	const goroutines, rounds = 8, 200
	var wg sync.WaitGroup
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (g*7 + r*(g+1)) % len(calls) // each goroutine its own order
				if got := answer(calls[i]); got != want[i] {
					errs <- fmt.Sprintf("goroutine %d, call %d:\n got %s\nwant %s", g, i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
