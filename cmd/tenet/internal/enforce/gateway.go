// Package enforce holds tenet's run-time commands, those that enforce a
// bundle while an agent runs rather than judge its transcripts afterwards
// (cmd/tenet registers them; its own package is at its size limit).
package enforce

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/gateway"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/lang/diag"
)

// Hooks are what a run-time command takes from cmd/tenet: its long help
// (help/NAME.txt, which cmd/tenet's help test checks) and the error that
// makes tenet exit with a code, its message already printed.
type Hooks struct {
	Help func(name string) string
	Exit func(code int) error
}

// GatewayCmd is `tenet gateway (X.tnb|DIR) [flags] -- COMMAND [ARGS]`.
func GatewayCmd(h Hooks) *cobra.Command {
	var trust cliflags.Trust
	var cf cliflags.Cache
	var grant, logPath, session, condition string
	var hide bool
	var maxMessage int
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "gateway (X.tnb|DIR) [flags] -- COMMAND [ARGS...]",
		Short: "Run an MCP stdio server behind the contract: refuse the tool calls its grant does not allow",
		Long:  h.Help("gateway"),
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
			if cmd.Flags().Changed("decision-log") && logPath == "" {
				return errors.New(`--decision-log "": want a path (the flag is given, but empty: an unset variable?)`)
			}
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
			tb, err := tenet.Open(args[0], tenet.WithPolicy(pol), tenet.WithCache(cf.Cache()), tenet.WithDiagnostics(func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics) {
				diag.WriteText(cmd.ErrOrStderr(), dir, files, diags)
			}))
			if be := (*tenet.BuildError)(nil); errors.As(err, &be) {
				return h.Exit(2) // its diagnostics are printed
			} else if err != nil {
				return err
			}
			a := authorize.New(tb.Contract(), tb.ID())
			if grant == "" {
				switch gs := a.Grants(); len(gs) {
				case 1:
					grant = gs[0]
				case 0:
					return fmt.Errorf("%s declares no grant: a gateway decides calls under one (add a grant block to the contract)", args[0])
				default:
					return fmt.Errorf("%s declares %d grants (%v): choose one with --grant", args[0], len(gs), gs)
				}
			}
			cfg := gateway.Config{
				Command: args[1:], Authorizer: a, Grant: grant, Session: session, Condition: condition,
				HideUndeclared: hide, MaxMessage: maxMessage, ShutdownGrace: grace,
				Stdin: cmd.InOrStdin(), Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
			}
			if logPath != "" {
				f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("--decision-log: %w", err)
				}
				defer f.Close()
				cfg.Log = decisionlog.NewWriter(f, nil)
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
				return h.Exit(code)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&grant, "grant", "", "decide calls under this grant of the contract (default: its only grant)")
	cmd.Flags().BoolVar(&hide, "hide-undeclared", false, "remove the tools the contract does not declare from tools/list results (they are reported either way)")
	cmd.Flags().IntVar(&maxMessage, "max-message", gateway.DefaultMaxMessage, "refuse a message (one line, either way) longer than this many bytes")
	cmd.Flags().StringVar(&logPath, "decision-log", "", "append one JSON line per decided tools/call to this file (docs/authorize.md)")
	cmd.Flags().StringVar(&session, "session", "", "the session id of this gateway's log lines (default: a random gw-… id)")
	cmd.Flags().StringVar(&condition, "condition", "live", "the condition the decision log's runs are reported under")
	cmd.Flags().DurationVar(&grace, "shutdown-grace", gateway.DefaultShutdownGrace, "after the client's input ends, how long the server may take to exit before SIGTERM, and then before SIGKILL (0: wait for ever)")
	trust.Add(cmd)
	cf.Add(cmd)
	return cmd
}
