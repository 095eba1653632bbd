// Command tenet checks, builds and evaluates agent-evaluation contracts.
//
// Exit codes: 0 ok; 1 gate, test or invariant failure; 2 bad contract, bad
// input or usage; 130 interrupted. See docs/cli.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tenetlang/tenet/internal/atomicfile"
)

func main() { os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr)) }

// exitInterrupted is the exit code after SIGINT or SIGTERM (128 + SIGINT,
// as shells report a command killed by Ctrl-C).
const exitInterrupted = 130

// interruptGrace is how long an interrupted command may take to stop on
// its own (it sees its context cancelled) before tenet exits anyway.
const interruptGrace = time.Second

// runMain is main without the exit: it runs the command with a context that
// SIGINT and SIGTERM cancel. On a signal nothing more is written
// (atomicfile.Stop removes the temporary files of writes in progress and
// refuses later ones), the command gets interruptGrace to return, and runMain
// says what happened and returns exitInterrupted; a second signal kills
// tenet at once.
func runMain(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	result := make(chan int, 1)
	go func() { result <- MainContext(ctx, args, stdout, stderr) }()
	select {
	case code := <-result:
		return code
	case <-ctx.Done():
	}
	written := atomicfile.Stop()
	stop() // a second signal now kills the process
	select {
	case <-result:
	case <-time.After(interruptGrace):
	}
	fmt.Fprintln(stderr, interruptedMessage(written))
	return exitInterrupted
}

// interruptedMessage says that tenet was interrupted, and which outputs (if
// any) it had written, whole, before the signal.
func interruptedMessage(written []string) string {
	if len(written) == 0 {
		return "tenet: interrupted; nothing written"
	}
	return "tenet: interrupted; nothing written after " + strings.Join(written, ", ")
}
