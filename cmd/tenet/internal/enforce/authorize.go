package enforce

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/inputs"
	"github.com/tenetlang/tenet/internal/jsonl"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

// authorizeFlags are tenet authorize's flags.
type authorizeFlags struct {
	grant, condition, session, log string
	maxLine                        int
	trust                          cliflags.Trust
	cache                          cliflags.Cache
}

func authorizeCmd(env Env) *cobra.Command {
	var f authorizeFlags
	cmd := &cobra.Command{
		Use:   "authorize (DIR|X.tnb) [--grant G] [--condition C] [--session S] [--log FILE]",
		Short: "Decide tool calls read on stdin under a grant, one decision-log line per call",
		Long:  env.Help("authorize"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return env.authorize(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.grant, "grant", "", "decide under this grant (default: the bundle's only grant)")
	fl.StringVar(&f.condition, "condition", "live", "the condition the decisions are logged under (the runs' condition when a report reads the log)")
	fl.StringVar(&f.session, "session", "", "the session every call belongs to: its calls numbered 1, 2, … (seq) and read back as one run")
	fl.StringVar(&f.log, "log", "", "also append every decision to this file (created if missing)")
	fl.IntVar(&f.maxLine, "max-record-bytes", transcript.DefaultMaxRecordBytes, "longest call (line) accepted, in bytes")
	f.trust.Add(cmd)
	f.cache.Add(cmd)
	return cmd
}

// authorize runs tenet authorize: the contract at path, calls on stdin.
func (env Env) authorize(cmd *cobra.Command, path string, f *authorizeFlags) error {
	if f.maxLine < 1 {
		return fmt.Errorf("--max-record-bytes %d: want at least 1", f.maxLine)
	}
	if f.condition == "" {
		return errors.New(`--condition "": want the name of the system whose calls are decided`)
	}
	now, err := clock()
	if err != nil {
		return err
	}
	pol, err := f.trust.Policy()
	if err != nil {
		return err
	}
	if f.log != "" {
		if err := paths.CheckOutput(f.log, append([]string{path}, lang.SourceFiles(path)...)); err != nil {
			return err
		}
	}
	b, err := env.open(path, cmd.ErrOrStderr(), pol, f.cache.Cache())
	if err != nil {
		return err
	}
	a := authorize.New(b.Contract(), b.ID())
	grant, err := grantOf(a, f.grant)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	var lf *os.File
	if f.log != "" {
		if lf, err = os.OpenFile(f.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err != nil {
			return err
		}
		defer lf.Close() // a no-op after the checked Close below
		// The log first: a closed stdout must not cost the log its line.
		out = io.MultiWriter(lf, out)
	}
	d := decider{a: a, grant: grant, session: f.session, w: decisionlog.NewWriter(out, now),
		base: decisionlog.Entry{Origin: decisionlog.FromAuthorize, Bundle: a.Bundle(), Contract: a.Contract(), Condition: f.condition, Grant: grant, Session: f.session}}
	if f.session != "" {
		d.base.Instance = instance(now) // another run's session of this name is another session
	}
	n, err := d.run(cmd.InOrStdin(), f.maxLine)
	if lf != nil {
		if cerr := lf.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("decision log: %w", cerr)
		}
	}
	stderr := cmd.ErrOrStderr()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
		return env.Exit(exitBad)
	}
	switch {
	case n.bad > 0:
		fmt.Fprintf(stderr, "%s: %d of %s not decided (each entry's error says why)\n", cmd.CommandPath(), n.bad, plural(n.lines, "line"))
		return env.Exit(exitBad)
	case n.refused > 0:
		fmt.Fprintf(stderr, "%s: %d of %s refused\n", cmd.CommandPath(), n.refused, plural(n.lines, "call"))
		return env.Exit(exitFailure)
	}
	return nil
}

// errNoGrant refuses a bundle without grants, in tenet authorize and in
// tenet serve (at start and on reload): every call would be refused.
var errNoGrant = errors.New("the bundle declares no grant: there is nothing to decide calls under (add a grant block to the contract)")

// grantOf is the grant decisions are made under: the one named, or the
// bundle's only grant.
func grantOf(a *authorize.Authorizer, name string) (string, error) {
	grants := a.Grants()
	if name == "" {
		switch len(grants) {
		case 1:
			return grants[0], nil
		case 0:
			return "", errNoGrant
		}
		return "", fmt.Errorf("the bundle declares %d grants (%s): name one with --grant", len(grants), strings.Join(grants, ", "))
	}
	if !slices.Contains(grants, name) {
		return "", fmt.Errorf("--grant: %w", &authorize.UnknownGrantError{Grant: name, Grants: grants})
	}
	return name, nil
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// decider decides the calls of one input, in order.
type decider struct {
	a       *authorize.Authorizer
	grant   string
	session string
	w       *decisionlog.Writer
	base    decisionlog.Entry // what every entry says
}

// counts are what a decider met.
type counts struct{ lines, refused, bad int }

// run decides every line of r, writing one entry per line; its error is
// a failed read or write, after which nothing more is decided.
func (d *decider) run(r io.Reader, maxLine int) (counts, error) {
	var n counts
	lines := jsonl.NewReader(r, maxLine)
	for {
		line, err := lines.Next()
		var tooLong *jsonl.TooLongError
		if err == io.EOF {
			return n, nil
		}
		if err != nil && !errors.As(err, &tooLong) {
			return n, fmt.Errorf("%s:%d: %w", inputs.StdinName, lines.Line(), err)
		}
		n.lines++
		e := d.base
		e.Seq = 1 // each call decided alone
		if d.session != "" {
			e.Seq = n.lines // the session's calls in input order
		}
		if err == nil {
			err = d.decide(&e, line)
		}
		if err != nil {
			e.Error = fmt.Sprintf("%s:%d: %s", inputs.StdinName, lines.Line(), jsonl.Clip(err.Error()))
			n.bad++
		} else if !e.Allowed {
			n.refused++
		}
		if err := d.w.Write(e); err != nil {
			return n, err
		}
	}
}

// decide fills e with the call line holds and its decision; an error
// means the line holds no call that can be decided.
func (d *decider) decide(e *decisionlog.Entry, line []byte) error {
	c, _, err := authorize.ReadCall(line)
	if err != nil {
		return err
	}
	e.Call = decisionlog.CallOf(c)
	dec, err := d.a.Authorize(c, d.grant)
	if err != nil {
		return err
	}
	e.Decision, e.Allowed = &dec, dec.Allowed
	return nil
}
