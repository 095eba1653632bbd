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
	"strings"
	"time"

	"github.com/tenetlang/tenet/internal/interrupt"
	"github.com/tenetlang/tenet/internal/memlimit"
)

func main() { os.Exit(memlimit.Main(runMain)) }

// exitInterrupted is the exit code after SIGINT or SIGTERM (128 + SIGINT,
// as shells report a command killed by Ctrl-C).
const exitInterrupted = 130

// interruptGrace is how long an interrupted command may take to stop on
// its own (it sees its context cancelled) before tenet exits anyway.
const interruptGrace = time.Second

// runMain is main without the exit: it runs the command under
// interrupt.Run (SIGINT and SIGTERM cancel its context, stop every write,
// and give it interruptGrace to return), then says what an interruption
// left written (the command's own words, when it set them:
// interrupt.SetMessage) and returns exitInterrupted.
func runMain(args []string, stdout, stderr io.Writer) int {
	code, interrupted, written, said := interrupt.Run(func(ctx context.Context) int {
		return MainContext(ctx, args, stdout, stderr)
	}, interruptGrace)
	if !interrupted {
		return code
	}
	if said == "" { // a command that says what it leaves (tenet serve) speaks for itself
		said = interruptedMessage(written)
	}
	fmt.Fprintln(stderr, said)
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
