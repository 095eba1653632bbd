// Package interrupt runs a command so that SIGINT and SIGTERM stop it
// cleanly: the command sees its context cancelled, nothing more is written
// (atomicfile.Stop removes the temporary files of writes in progress and
// refuses later ones), and a second signal kills the process at once.
//
// It takes the command as a function of a context and gives its result,
// or, after a signal, the outputs written whole before it. A command may
// ask for a longer grace than the caller's (SetGrace). It imports
// internal/atomicfile and no other tenet package.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tenetlang/tenet/internal/atomicfile"
)

// Run runs fn with a context that SIGINT and SIGTERM cancel. When fn
// returns first, Run returns its code. On a signal, atomicfile.Stop ends
// every write, fn gets grace to return on its own, and Run returns
// interrupted with the outputs atomicfile had committed before the signal
// (whatever fn returns is then dropped).
//
// fn may change its grace (SetGrace) before the signal: a command that
// drains work on the way out (a server finishing its requests) needs
// longer than one that only stops. It may also say what it leaves behind
// (SetMessage): Run then returns those words as said, once fn has
// returned or its grace is over; "" when fn set none.
func Run(fn func(context.Context) int, grace time.Duration) (code int, interrupted bool, written []string, said string) {
	g := new(atomic.Int64)
	g.Store(int64(grace))
	msg := new(atomic.Pointer[func() string])
	base := context.WithValue(context.WithValue(context.Background(), graceKey{}, g), messageKey{}, msg)
	ctx, stop := signal.NotifyContext(base, os.Interrupt, syscall.SIGTERM)
	defer stop()
	result := make(chan int, 1)
	go func() { result <- fn(ctx) }()
	select {
	case code := <-result:
		return code, false, nil, ""
	case <-ctx.Done():
	}
	written = atomicfile.Stop()
	stop() // a second signal now kills the process
	select {
	case <-result:
	case <-time.After(time.Duration(g.Load())):
	}
	if f := msg.Load(); f != nil {
		said = (*f)()
	}
	return 0, true, written, said
}

type graceKey struct{}

type messageKey struct{}

// SetMessage sets what the Run whose context ctx is (or derives from)
// says after a signal in place of its caller's words (tenet's
// "interrupted; nothing written", which a server that logged decisions
// would belie): msg is called once the function has stopped. It reports
// false, and does nothing, when ctx is not a Run's.
func SetMessage(ctx context.Context, msg func() string) bool {
	m, ok := ctx.Value(messageKey{}).(*atomic.Pointer[func() string])
	if ok {
		m.Store(&msg)
	}
	return ok
}

// SetGrace sets to d how long the Run whose context ctx is (or derives
// from) lets its function return after a signal. It reports false, and
// does nothing, when ctx is not a Run's (a test calling the command
// directly).
func SetGrace(ctx context.Context, d time.Duration) bool {
	g, ok := ctx.Value(graceKey{}).(*atomic.Int64)
	if ok {
		g.Store(int64(d))
	}
	return ok
}
