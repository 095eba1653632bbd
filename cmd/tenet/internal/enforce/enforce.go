// Package enforce holds tenet's run-time commands — authorize, serve and
// gateway — which decide tool calls before they run with a bundle's grant
// (eval/authorize) and log each decision (eval/authorize/decisionlog).
// cmd/tenet registers them (Commands); they take from it, through Env,
// what every tenet command shares, so that they open contracts, print
// help and exit as the others do.
package enforce

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
)

// Exit codes (docs/cli.md): 0 when every call was allowed.
const (
	exitFailure = 1 // some call was refused
	exitBad     = 2 // bad contract, bad input or usage
)

// Env is what the run-time commands take from the tenet command.
type Env struct {
	// Help is the long help of the command name (cmd/tenet/help/NAME.txt).
	Help func(name string) string
	// Open opens a bundle file or one contract directory under a trust
	// policy, printing a directory's diagnostics on stderr (c: the compile
	// cache, nil for none).
	Open func(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache) (*tenet.Bundle, error)
	// Exit is the error that ends the command with code, its message
	// already printed.
	Exit func(code int) error
}

// Commands are the run-time commands, for the root command.
func Commands(env Env) []*cobra.Command {
	return []*cobra.Command{authorizeCmd(env), serveCmd(env), gatewayCmd(env)}
}

// TimeEnv names the environment variable that, when set, stamps every
// decision with its time (RFC 3339) instead of the clock's: reproducible
// decision logs, for tests and examples.
const TimeEnv = "TENET_TIME"

// clock is the time decisions are stamped with: TENET_TIME's, or the
// clock's (nil).
func clock() (func() time.Time, error) {
	v, set := os.LookupEnv(TimeEnv)
	if !set {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, fmt.Errorf("%s=%q: want a time in RFC 3339 (2026-01-02T15:04:05Z)", TimeEnv, v)
	}
	return func() time.Time { return t }, nil
}

// instance is a decider's start time, the decision log's instance of
// its sessions (decisionlog.Entry.Instance): a session name used again by
// a later run of the command, appending to the same log, is then another
// session to a reader. now is clock's (nil: the clock's own).
func instance(now func() time.Time) string {
	if now == nil {
		now = time.Now
	}
	return now().UTC().Format(time.RFC3339Nano)
}

// open opens the one contract at path: a bundle file, a contract
// directory, or a directory of contracts that holds one (as tenet eval
// accepts them, contractarg). A directory of several contracts is refused,
// naming them: a decision is made with one bundle.
func (env Env) open(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache) (*tenet.Bundle, error) {
	one, err := contractarg.One(path, "a decision is made with one contract")
	if err != nil {
		return nil, err
	}
	return env.Open(one, stderr, pol, c)
}
