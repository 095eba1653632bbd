package enforce

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/authorize/server"
	"github.com/tenetlang/tenet/eval/authorize/session"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/interrupt"
)

// DefaultAddr is where tenet serve listens unless told otherwise: the
// loopback interface only.
const DefaultAddr = "127.0.0.1:7480"

// DefaultShutdownGrace is how long in-flight requests may finish after
// SIGINT or SIGTERM unless --shutdown-grace says otherwise: the server's
// own default (server.Limits.Shutdown). A decision takes well under a
// millisecond, but a request whose body is still arriving, or a session
// check on a long history, takes what it takes.
const DefaultShutdownGrace = 10 * time.Second

// stopMargin is what tenet's main waits past the shutdown grace before it
// exits: for the server to cut the connections still open and for the
// decision log to be synced and closed.
const stopMargin = time.Second

// serveFlags are tenet serve's settings.
type serveFlags struct {
	addr        string
	allowRemote bool
	grant       string
	logPath     string
	onUnknown   string
	condition   string
	maxBody     int64
	grace       time.Duration
	lim         session.Limits
	trust       cliflags.Trust
}

// serveCmd is `tenet serve`.
func serveCmd(env Env) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve X.tnb",
		Short: "Serve a bundle's authorization decisions over HTTP (a decision point for agent hosts)",
		Long:  env.Help("serve"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return serve(cmd.Context(), args[0], &f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", DefaultAddr, "listen on this host:port (port 0: any free port, printed at start)")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow an --addr that is not a loopback address (the API has no authentication: put an authenticating proxy in front)")
	fl.StringVar(&f.grant, "grant", "", "decide every call under this grant; a request naming another is refused (default: the grant each request names, or the bundle's only grant)")
	fl.StringVar(&f.logPath, "log", "", "append one JSON line per decision to this file (docs/authorize.md, \"Decision logs\")")
	fl.StringVar(&f.onUnknown, "on-unknown", "closed", "a session's call on which an invariant is unknown: closed (refuse) or open (allow)")
	fl.StringVar(&f.condition, "condition", "live", "the condition the decision log names (the runs tenet report reads it as)")
	fl.Int64Var(&f.maxBody, "max-body", server.DefaultMaxBody, "refuse a request body over this many bytes (413)")
	fl.DurationVar(&f.grace, "shutdown-grace", DefaultShutdownGrace, "after SIGINT or SIGTERM, how long requests in flight may finish before their connections are cut")
	fl.IntVar(&f.lim.MaxSessions, "max-sessions", session.DefaultMaxSessions, "sessions held at once; past it a new session is refused (429)")
	fl.DurationVar(&f.lim.IdleTTL, "session-idle", session.DefaultIdleTTL, "evict a session unused this long")
	fl.IntVar(&f.lim.MaxMessages, "max-messages", session.DefaultMaxMessages, "messages a session's history may hold (413 past it)")
	fl.IntVar(&f.lim.MaxHistoryBytes, "max-history-bytes", session.DefaultMaxHistoryBytes, "bytes of message text a session's history may hold (413 past it)")
	f.trust.Add(cmd)
	return cmd
}

// loopback reports whether addr's host is a loopback address or
// "localhost"; an empty host (every interface) is not.
func loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--addr %q: want host:port, such as %s: %w", addr, DefaultAddr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

func serve(ctx context.Context, path string, f *serveFlags, stderr io.Writer) error {
	if _, err := session.ParseOnUnknown(f.onUnknown); err != nil {
		return fmt.Errorf("--on-unknown: %w", err)
	}
	local, err := loopback(f.addr)
	if err != nil {
		return err
	}
	if !local && !f.allowRemote {
		return fmt.Errorf("--addr %s is not a loopback address: the decision point has no authentication, so anyone who can reach it could query the policy and learn its grants and tools; listen on 127.0.0.1 behind an authenticating proxy, or pass --allow-remote if the network is already restricted", f.addr)
	}
	if f.maxBody <= 0 || f.lim.MaxSessions <= 0 || f.lim.IdleTTL <= 0 || f.lim.MaxMessages <= 0 || f.lim.MaxHistoryBytes <= 0 || f.grace <= 0 {
		return errors.New("--max-body, --max-sessions, --session-idle, --max-messages, --max-history-bytes and --shutdown-grace must be positive")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return serveDir(path)
	}
	trust, err := f.trust.Policy()
	if err != nil {
		return err
	}
	return serveWith(ctx, path, f, stderr, trust)
}

// serveWith is serve once the flags are checked and the trust policy read.
func serveWith(ctx context.Context, path string, f *serveFlags, stderr io.Writer, trust bundle.Policy) error {
	pol, _ := session.ParseOnUnknown(f.onUnknown) // checked by serve
	load := func() (*session.Engine, error) { return LoadEngine(path, trust, pol, f.grant) }
	e, err := load()
	if err != nil {
		return err
	}
	events := slog.New(slog.NewTextHandler(stderr, nil))
	cfg := server.Config{Grant: f.grant, Condition: f.condition, Limits: f.lim, MaxBody: f.maxBody, Events: events}
	if f.logPath != "" {
		lf, err := os.OpenFile(f.logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		defer func() {
			lf.Sync() // every line was written whole; make them durable
			lf.Close()
		}()
		now, err := clock()
		if err != nil {
			return err
		}
		cfg.Log = decisionlog.NewWriter(lf, now)
		cfg.Instance = instance(now)
	}
	// After SIGINT or SIGTERM tenet says what serve leaves behind, not
	// its generic "interrupted; nothing written": the log holds decisions.
	interrupt.SetMessage(ctx, func() string { return stoppedMessage(cfg.Log, f.logPath) })
	srv := server.New(e, cfg)
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	// SIGHUP reloads the bundle from the same path, verified as at start.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				srv.Reload(load) // logged by the server either way
			}
		}
	}()
	events.Info("listening", "url", "http://"+ln.Addr().String(), "bundle", e.Auth.Bundle(), "contract", e.Auth.Contract(),
		"grants", strings.Join(e.Auth.Grants(), ","), "on_unknown", pol.String(), "invariants_checked", e.NewChecker != nil)
	// tenet's main lets an interrupted command stop for a second; the
	// server's drain takes its own grace, so it asks main for that much.
	interrupt.SetGrace(ctx, f.grace+stopMargin)
	return srv.Serve(ctx, ln, server.Limits{Shutdown: f.grace})
}

// stoppedMessage is what tenet serve says once a signal stopped it: the
// decisions its log holds from this run, or that it kept none.
func stoppedMessage(log *decisionlog.Writer, path string) string {
	if log == nil {
		return "tenet serve: stopped; no decision log was kept (no --log)"
	}
	n := log.Written()
	msg := fmt.Sprintf("tenet serve: stopped; %s logged to %s", plural(n, "decision"), path)
	if err := log.Err(); err != nil {
		msg += fmt.Sprintf(", then the log failed (%v) and later decisions were withheld", err)
	}
	return msg
}

// LoadEngine opens the bundle file at path, holds it to the trust policy
// (tenet.OpenBundle: sha256 id, signatures, expected ids), plans it, and
// makes its engine. It must declare a grant, and grant, when set, must be
// one of its grants. Start-up
// and every reload go through it, so a reloaded bundle is verified as the
// first one was.
func LoadEngine(path string, trust bundle.Policy, pol session.OnUnknown, grant string) (*session.Engine, error) {
	b, err := tenet.OpenBundle(path, tenet.WithPolicy(trust))
	if err != nil {
		return nil, err
	}
	p, err := b.Program()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	e := session.NewEngine(p, pol)
	if len(e.Auth.Grants()) == 0 {
		return nil, fmt.Errorf("%s: %w", path, errNoGrant)
	}
	if grant != "" && !slices.Contains(e.Auth.Grants(), grant) {
		return nil, fmt.Errorf("%s: --grant %q is not declared (the bundle's grants: %s)", path, grant, strings.Join(e.Auth.Grants(), ", "))
	}
	return e, nil
}

// serveDir is the refusal of a directory: serve decides with one bundle
// file, which SIGHUP reloads from the same path.
func serveDir(path string) error {
	const why = "serve decides with one bundle file, which SIGHUP reloads from the same path"
	a, err := contractarg.Resolve(path)
	switch {
	case err != nil:
		return err
	case a.Kind == contractarg.Bundles:
		return fmt.Errorf("%s is a %s holding %d bundles (%s): %s; name one, e.g. %s", path, a.Kind, len(a.Paths), strings.Join(a.Names(), ", "), why, a.Paths[0])
	case a.Kind == contractarg.Collection:
		return fmt.Errorf("%s is a %s holding %d contracts (%s): %s; build one with tenet build %s -o X.tnb", path, a.Kind, len(a.Paths), strings.Join(a.Names(), ", "), why, a.Paths[0])
	}
	return fmt.Errorf("%s is a contract directory: %s (build one with tenet build %s -o X.tnb)", path, why, path)
}
