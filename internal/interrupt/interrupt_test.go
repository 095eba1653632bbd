package interrupt

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestRunReturnsCode: without a signal, Run is fn.
func TestRunReturnsCode(t *testing.T) {
	code, interrupted, written, _ := Run(func(context.Context) int { return 7 }, time.Second)
	if code != 7 || interrupted || written != nil {
		t.Errorf("Run = %d, %v, %q; want 7, false, nil", code, interrupted, written)
	}
}

// TestSetGrace: a command's grace set through its context is the one
// Run waits; outside Run, SetGrace says it did nothing.
func TestSetGrace(t *testing.T) {
	if SetGrace(context.Background(), time.Minute) {
		t.Error("SetGrace on a context that is not Run's reported true")
	}
	code, _, _, _ := Run(func(ctx context.Context) int {
		g, _ := ctx.Value(graceKey{}).(interface{ Load() int64 })
		if g == nil || time.Duration(g.Load()) != time.Second || !SetGrace(ctx, time.Minute) || time.Duration(g.Load()) != time.Minute {
			return 1
		}
		return 0
	}, time.Second)
	if code != 0 {
		t.Error("SetGrace did not set the grace of the Run's context")
	}
}

// TestRunInterrupted: a SIGTERM cancels fn's context and Run says so,
// whatever fn returns. (atomicfile.Stop is process-wide: this test runs
// last in the package and writes no file.)
func TestRunInterrupted(t *testing.T) {
	cancelled := make(chan bool, 1)
	code, interrupted, written, said := Run(func(ctx context.Context) int {
		if !SetMessage(ctx, func() string { return "stopped; 3 decisions logged" }) {
			t.Error("SetMessage on a Run's context reported false")
		}
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
			t.Error(err)
		}
		select {
		case <-ctx.Done():
			cancelled <- true
		case <-time.After(10 * time.Second):
			cancelled <- false
		}
		return 3
	}, 10*time.Second)
	if !<-cancelled || code != 0 || !interrupted || len(written) != 0 || said != "stopped; 3 decisions logged" {
		t.Errorf("Run = %d, %v, %q, %q; want the context cancelled, then 0, true, none written, the function's message", code, interrupted, written, said)
	}
}
