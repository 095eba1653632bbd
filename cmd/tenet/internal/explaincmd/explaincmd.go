// Package explaincmd is tenet explain: flags → eval/explain calls. It
// explains a run from transcripts (tenet explain CONTRACT --run KEY
// FILES...) or from a runs file (tenet explain [--contract CONTRACT]
// RUNSFILE... KEY): what the runs file records, and with the contract the
// run judged again from its origin transcript and compared with the
// record. cmd/tenet registers it (Command) and gives it, through Env, what
// every tenet command shares: loading a contract argument, help, exit codes.
package explaincmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/authorize/decisionlog"
	"github.com/tenetlang/tenet/eval/explain"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/lang"
)

// Exit codes (docs/cli.md).
const (
	exitFailure = 1 // the labels judged again differ from the recorded ones
	exitBad     = 2 // bad contract, bad input or usage
)

// Env is what explain takes from the tenet command.
type Env struct {
	// Help is the long help of the command name (cmd/tenet/help/NAME.txt).
	Help func(name string) string
	// Load opens a contract argument under a trust policy and plans its
	// contracts for judging, printing a directory's diagnostics on stderr
	// (c: the compile cache, nil for none); with dirs, a directory of
	// contracts gives one program per contract.
	Load func(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache, dirs bool) ([]*eval.Program, error)
	// Exit is the error that ends the command with code, its message
	// already printed.
	Exit func(code int) error
}

// Command is tenet explain.
func Command(env Env) *cobra.Command {
	var f flags
	cmd := &cobra.Command{
		Use:   "explain (DIR|X.tnb) --run KEY FILES... | explain [--contract DIR|X.tnb] RUNSFILE... KEY",
		Short: "Show how one run's labels came about",
		Long:  env.Help("explain"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.lim.Check(); err != nil {
				return err
			}
			if IsRunsFile(args[0]) {
				return f.fromRuns(cmd, env, args)
			}
			if f.contract != "" {
				return fmt.Errorf("--contract goes with a runs file (tenet explain --contract C RUNSFILE KEY), but %s is a contract: give it the transcript files (tenet explain %s --run KEY FILES...)", args[0], args[0])
			}
			return f.fromTranscripts(cmd, env, args)
		},
	}
	cmd.Flags().StringVar(&f.key, "run", "", "the run to explain: condition/task[/goal], its full key, or FILE:LINE (of a transcript record, or of a runs file's record)")
	cmd.Flags().StringVar(&f.contract, "contract", "", "with a runs file: judge the run again with this contract (directory, directory of contracts, or bundle), the one whose bundle id the run records")
	cliflags.AddReading(cmd, &f.source, &f.format)
	f.lim.Add(cmd)
	f.inf.Add(cmd)
	f.trust.Add(cmd)
	f.cf.Add(cmd)
	return cmd
}

// bundleSuffix is the name tenet build gives a bundle (docs/bundle.md).
const bundleSuffix = ".tnb"

type flags struct {
	key, source, format, contract string
	lim                           cliflags.Limits
	inf                           cliflags.Inputs
	trust                         cliflags.Trust
	cf                            cliflags.Cache
}

// IsRunsFile says whether explain's first argument is a runs file (or a
// decision log) rather than a contract: it is not a directory, does not
// start with a bundle's magic bytes, and is not named as a contract (a
// *.tenet.hcl source or a *.tnb bundle, which the contract form then opens
// or refuses with the reason: a damaged bundle stays "not a tenet bundle",
// not a runs file's errors). So the content decides whatever the name: a
// bundle named x.jsonl is a bundle, a runs file named runs.out a runs file.
// What cannot be read is left to the contract form, whose error names it.
func IsRunsFile(path string) bool {
	if path == "-" || strings.HasSuffix(path, lang.FileSuffix) || strings.HasSuffix(path, bundleSuffix) {
		return false
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	head := make([]byte, len(bundle.Magic))
	n, _ := io.ReadFull(fh, head)
	return !bytes.Equal(head[:n], []byte(bundle.Magic))
}

// fromTranscripts is explain CONTRACT --run KEY FILES...: the run judged
// from its transcript record. CONTRACT may be a directory of contracts, as
// for tenet eval: the contract that judges the run explains it.
func (f *flags) fromTranscripts(cmd *cobra.Command, env Env, args []string) error {
	if f.key == "" {
		// A runs file that does not exist lands here too (it is not one
		// IsRunsFile can read): say that, not that a flag is missing.
		if _, err := os.Stat(args[0]); err != nil {
			return err
		}
		return errors.New("--run KEY is required")
	}
	if len(args) < 2 {
		return fmt.Errorf("no transcript files: tenet explain %s --run KEY FILES...", args[0])
	}
	list, err := f.inf.Expand(args[0], args[1:])
	if err != nil {
		return err
	}
	defer list.Close()
	pol, err := f.trust.Policy()
	if err != nil {
		return err
	}
	progs, err := env.Load(args[0], cmd.ErrOrStderr(), pol, f.cf.Cache(), true)
	if err != nil {
		return err
	}
	srcs := make([]*bundle.SourcePlan, len(progs))
	for i, p := range progs {
		f.lim.Apply(p)
		if srcs[i], err = cliflags.SourcePlan(p, f.source, f.format); err != nil {
			return err
		}
	}
	ex, p, err := explain.FindAmong(progs, srcs, list.Files, list.Open, f.key)
	if err != nil {
		return err
	}
	explain.Write(cmd.OutOrStdout(), p.Bundle, ex)
	return nil
}

// fromRuns is explain [--contract C] RUNSFILE... KEY (or --run KEY).
func (f *flags) fromRuns(cmd *cobra.Command, env Env, args []string) error {
	files, key := args, f.key
	if key == "" {
		if len(args) < 2 {
			return fmt.Errorf("no run named: tenet explain %s KEY (or --run KEY)", args[0])
		}
		files, key = args[:len(args)-1], args[len(args)-1]
	}
	// Flags that would be taken and ignored are refused.
	if cmd.Flags().Changed("include") {
		return errors.New("--include selects files in transcript directories; a runs file is named itself")
	}
	for _, name := range []string{"source", "transcript-format", "max-pattern-threads", "run-timeout"} {
		if f.contract == "" && cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s shapes how a run is judged, and a runs file read alone judges none: add --contract CONTRACT to judge the run again", name)
		}
	}
	stderr, out := cmd.ErrOrStderr(), cmd.OutOrStdout()
	l, err := explain.FindRecord(runs.ReadOptions{Foreign: decisionlog.Foreign}, files, key)
	if err != nil && !explain.IsKeyError(err) {
		// Each bad line at its file:line, then what explain took the
		// files for: a transcript given first reads as a bad runs file.
		fmt.Fprintln(stderr, err)
		fmt.Fprintf(stderr, "%s: %s is read as a runs file (as tenet eval --out writes it), being neither a contract directory nor a bundle; a run in transcripts is explained by tenet explain CONTRACT --run KEY FILES...\n", cmd.CommandPath(), files[0])
		return env.Exit(exitBad)
	}
	if err != nil {
		return err
	}
	if f.contract == "" {
		pol, err := f.trust.RunsPolicy("To verify them, explain with --contract X.tnb, the signed bundle that judged the run: its id must be the run's bundle field.")
		if err != nil {
			return err
		}
		if len(pol.IDs) > 0 && !containsID(pol.IDs, l.Record.Bundle) {
			return fmt.Errorf("run %s (%s) carries bundle id %q, not one --expect-bundle-id accepts", l.Record.Key, l.At, l.Record.Bundle)
		}
		explain.WriteRecord(out, l)
		fmt.Fprintf(out, "\n%s\n", explain.RecordOnlyNote(l))
		return nil
	}
	pol, err := f.trust.Policy()
	if err != nil {
		return err
	}
	progs, err := env.Load(f.contract, stderr, pol, f.cf.Cache(), true)
	if err != nil {
		return err
	}
	p, err := explain.Pick(progs, f.contract, l)
	if err != nil {
		return err
	}
	f.lim.Apply(p)
	src, err := cliflags.SourcePlan(p, f.source, f.format)
	if err != nil {
		return err
	}
	ex, why := explain.Rejudge(p, src, l)
	if ex == nil {
		fmt.Fprintf(out, "not judged again: %s; what %s records:\n\n", why, l.At.File)
		explain.WriteRecord(out, l)
		return nil
	}
	explain.Write(out, p.Bundle, ex)
	diffs := explain.Differences(l.Record, ex.Record)
	if len(diffs) == 0 {
		fmt.Fprintf(out, "\njudged again, the run has the labels %s records\n", l.At)
		return nil
	}
	msg := fmt.Sprintf("judged again, the run's labels differ from those %s records (the transcript or the judging changed since it was written):\n  %s", l.At, strings.Join(diffs, "\n  "))
	fmt.Fprintf(out, "\n%s\n", msg)
	fmt.Fprintf(stderr, "%s: %s\n", cmd.CommandPath(), msg)
	return env.Exit(exitFailure)
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
