package enforce

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

// gatewayCmd is `tenet gateway (X.tnb|DIR) [flags] -- COMMAND [ARGS]`: an
// MCP stdio server run behind the contract (eval/authorize/gateway).
func gatewayCmd(env Env) *cobra.Command {
	var trust cliflags.Trust
	var cf cliflags.Cache
	var grant, logPath, session, condition, task, goal string
	var hide, noInvariants bool
	onUnknown := gateway.UnknownClosed
	var maxMessage int
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "gateway (X.tnb|DIR) [flags] -- COMMAND [ARGS...]",
		Short: "Run an MCP stdio server behind the contract: refuse the tool calls its grant does not allow",
		Long:  env.Help("gateway"),
		Args: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			switch {
			case dash < 0:
				return errors.New("no MCP server command: give it after --, as in tenet gateway X.tnb -- COMMAND [ARGS]")
			case dash != 1:
				return fmt.Errorf("want one contract before --, got %d arg(s)", dash)
			case len(args) == dash:
				return errors.New("no MCP server command after --")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if grace == 0 {
				grace = -1 // the gateway's "wait for ever"
			}
			if maxMessage <= 0 {
				return fmt.Errorf("--max-message %d: want a positive number of bytes", maxMessage)
			}
			pol, err := trust.Policy()
			if err != nil {
				return err
			}
			if logPath != "" {
				if err := paths.CheckOutput(logPath, append([]string{args[0]}, lang.SourceFiles(args[0])...)); err != nil {
					return err
				}
			}
			now, err := clock()
			if err != nil {
				return err
			}
			tb, err := env.open(args[0], cmd.ErrOrStderr(), pol, cf.Cache())
			if err != nil {
				return err
			}
			a := authorize.New(tb.Contract(), tb.ID())
			if grant, err = grantOf(a, grant); err != nil {
				return err
			}
			cfg := gateway.Config{
				Command: args[1:], Authorizer: a, Grant: grant, Session: session, Condition: condition, Instance: instance(now),
				HideUndeclared: hide, MaxMessage: maxMessage, ShutdownGrace: grace,
				Stdin: cmd.InOrStdin(), Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
			}
			if cfg.Decider, err = sessionDecider(tb, a, grant, noInvariants, onUnknown, task, goal); err != nil {
				return err
			}
			if logPath != "" {
				f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("--log: %w", err)
				}
				defer f.Close()
				cfg.Log = decisionlog.NewWriter(f, now)
			}
			// The server gets the signal tenet got (tenet's own handling
			// cancels the command's context, and a second one ends tenet).
			sig := make(chan os.Signal, 2)
			signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sig)
			cfg.Signals = sig
			code, err := gateway.Run(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			if code != 0 {
				return env.Exit(code)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&grant, "grant", "", "decide calls under this grant of the contract (default: its only grant)")
	cmd.Flags().BoolVar(&hide, "hide-undeclared", false, "remove the tools the contract does not declare from tools/list results (they are reported either way)")
	cmd.Flags().IntVar(&maxMessage, "max-message", gateway.DefaultMaxMessage, "refuse a message (one line, either way) longer than this many bytes")
	cmd.Flags().StringVar(&logPath, "log", "", "append the decision log to this file: one JSON line per decided tools/call and per tools/list result that lists an undeclared tool (created if missing)")
	cmd.Flags().StringVar(&session, "session", "", "the session id of this gateway's log lines (default: a random gw-… id)")
	cmd.Flags().StringVar(&condition, "condition", "live", "the condition the decision log's runs are reported under")
	cmd.Flags().DurationVar(&grace, "shutdown-grace", gateway.DefaultShutdownGrace, "after the client's input ends, how long the server may take to exit before SIGTERM, and then before SIGKILL (0: wait for ever)")
	cmd.Flags().Var(&onUnknown, "on-unknown", "a call on which an invariant is unknown: closed refuses it, open allows it (logged either way)")
	cmd.Flags().StringVar(&task, "task", "", "the session's task, which invariants read as task (without it, an invariant reading task is unknown)")
	cmd.Flags().StringVar(&goal, "goal", "", "the session's goal (with --task; without it the session is benign)")
	cmd.Flags().BoolVar(&noInvariants, "no-invariants", false, "decide calls by the grant alone: do not check the contract's invariants")
	trust.Add(cmd)
	cf.Add(cmd)
	return cmd
}

// sessionDecider is the decider of a gateway's session: the grant's, and
// the contract's invariants on the session unless it declares none or
// --no-invariants (nil: the gateway's default, the grant alone).
func sessionDecider(tb *tenet.Bundle, a *authorize.Authorizer, grant string, off bool, policy gateway.OnUnknown, task, goal string) (gateway.Decider, error) {
	if off {
		if task != "" || goal != "" {
			return nil, errors.New("--task and --goal name what invariants read: not with --no-invariants")
		}
		return nil, nil
	}
	if len(tb.Contract().Plan.Invariants) == 0 {
		return nil, nil
	}
	g, err := gateway.NewGrantDecider(a, grant)
	if err != nil {
		return nil, err
	}
	p, err := tb.Program()
	if err != nil {
		return nil, err
	}
	if task != "" && !slices.ContainsFunc(tb.Contract().Plan.Tasks, func(t bundle.TaskPlan) bool { return t.ID == task }) {
		var ids []string
		for _, t := range tb.Contract().Plan.Tasks {
			ids = append(ids, t.ID)
		}
		return nil, fmt.Errorf("--task %q: the contract declares no such task (its tasks: %s)", task, strings.Join(ids, ", "))
	}
	live, err := p.NewLive(eval.LiveOptions{Task: task, Goal: goal})
	if err != nil {
		return nil, fmt.Errorf("--task, --goal: %w", err)
	}
	return gateway.NewSessionDecider(g, live, policy)
}
