// Command tenet-beam runs tenet eval's evaluation as an Apache Beam
// pipeline (package beampipe): a contract bundle over the transcript
// files a glob matches on any Beam filesystem, the judged runs written as
// runs shards and the report as JSON. The runner is Beam's --runner flag
// (prism, the default, runs in this process; dataflow, flink, spark and
// the others take Beam's flags of their own); docs/scale-out.md.
//
//	tenet-beam --bundle banking.tnb --input 'gs://bucket/traces/*.jsonl' \
//	    --out gs://bucket/out/runs --report gs://bucket/out/report.json --cases observed
//
// A run is all or nothing: the shards and the report are written under
// temporary names and published only after the pipeline succeeded
// (beampipe.Commit), with the manifest PREFIX.shards; a failed run leaves
// nothing changed (beampipe.Abort).
//
// Exit status: 0 the report passed, 1 a gate (or the policy) failed, 2 bad
// usage, a bad or untrusted contract, bad input (bad records) or a failed
// pipeline.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
	beampipe "github.com/tenetlang/tenet/eval/beam"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/lang"
)

// own are tenet-beam's flags. Beam's (--runner and each runner's) are on
// the default flag set, so tenet-beam's are copied there too: one command
// line; but the usage shows tenet-beam's alone (Beam's: --help-beam).
var own = flag.NewFlagSet("tenet-beam", flag.ContinueOnError)

var (
	bundles, verifyKeys, bundleIDs pathList

	input     = own.String("input", "", "glob of the transcript files, on any Beam filesystem: a path, gs://…, s3://… (required)")
	format    = own.String("transcript-format", "", "transcript format (default: the source's; auto: each file's own)")
	source    = own.String("source", "", "source block (default: the contract's only one)")
	grant     = own.String("grant", "", "audit against this grant instead of the source's")
	out       = own.String("out", "", "prefix of the runs shards, PREFIX-<16 hex>.jsonl, one per (contract, condition), listed in PREFIX.shards; a run that succeeds removes the shards of an earlier run at PREFIX (required)")
	reportOut = own.String("report", "", "file the report is written to, as JSON, last (required)")
	cases     = own.String("cases", "", "declared (default) or observed, as tenet eval --cases")
	unknown   = own.String("unknown", "", "refuse (default) or bounds, as tenet eval --unknown")
	maxItems  = own.Int("report-max-items", report.DefaultMaxListed, "bound on each list of the report (0: none), as tenet eval")
	maxBad    = own.Int("max-bad-records", 100, "bad records named when the evaluation fails on them (tenet eval names 100)")
	helpBeam  = own.Bool("help-beam", false, "print Beam's pipeline flags (--runner and each runner's) and exit")
	verbose   = own.Bool("verbose", false, "print the in-process runner's (Prism's) log on stderr; without it a failed pipeline is said once, by its cause")
)

func init() {
	own.Var(&bundles, "bundle", "contract: a bundle file (X.tnb), a contract directory or a directory of contracts, on the local disk (required; repeat it to judge with several contracts, as tenet eval judges a collection)")
	own.Var(&verifyKeys, "verify-key", "accept only a bundle signed by the key in this public key file (repeatable: any of them; also "+verifyKeyEnv+"), as tenet eval")
	own.Var(&bundleIDs, "expect-bundle-id", "accept only the bundle with this id, sha256:<hex> (repeatable: any of them), as tenet eval")
	own.VisitAll(func(f *flag.Flag) { flag.Var(f.Value, f.Name, f.Usage) })
	flag.Usage = func() { usage(flag.CommandLine.Output()) }
}

// usage is tenet-beam's usage: its own flags, and where Beam's are.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tenet-beam --bundle X.tnb --input GLOB --out PREFIX --report FILE [flags] [--runner R [Beam's flags]]")
	own.SetOutput(w)
	own.PrintDefaults()
	fmt.Fprintln(w, "\nBeam's pipeline flags (--runner "+strings.Join(runners, ", ")+" and each runner's): tenet-beam --help-beam")
}

// runners are the runners tenet-beam's build registers (beamx), by the
// names --runner takes; "" is Beam's default, prism.
var runners = []string{"prism", "direct", "dataflow", "flink", "spark", "universal", "portable"}

// runnerAliases are the other names Beam registers the same runners under.
var runnerAliases = []string{"PrismRunner", "DirectRunner", "DataflowRunner", "FlinkRunner", "SparkRunner", "PortableRunner"}

// pathList is a repeatable flag.
type pathList []string

func (l *pathList) String() string     { return fmt.Sprint([]string(*l)) }
func (l *pathList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	flag.Parse()
	if *helpBeam {
		flag.CommandLine.SetOutput(os.Stdout)
		flag.PrintDefaults()
		return
	}
	beam.Init() // a Beam worker process (a non-prism runner) never returns from here
	os.Exit(run(context.Background(), os.Stderr))
}

func run(ctx context.Context, stderr io.Writer) int {
	o, err := options(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		return 2
	}
	p, s := beam.NewPipelineWithRoot()
	if err := beampipe.Build(s, o); err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		return 2
	}
	quiet := inProcess()
	runnerLog(stderr, quiet && !*verbose)
	if err := beamx.Run(ctx, p); err != nil {
		hint := ""
		if quiet && !*verbose {
			hint = " (Prism's log: --verbose)"
		}
		fmt.Fprintf(stderr, "tenet-beam: the pipeline failed%s: %s\n", hint, cause(err.Error()))
		abort(ctx, stderr, o)
		return 2
	}
	d, err := readReport(ctx, beampipe.TempPath(o.Report, o.RunID))
	if err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		abort(ctx, stderr, o)
		return 2
	}
	c, err := beampipe.Commit(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "tenet-beam: publishing the run:", err)
		abort(ctx, stderr, o)
		return 2
	}
	// What the report says on stderr, as tenet eval with --report-out
	// says it (cmd/tenet's reportout): warnings, failures, the failures
	// --fail-on leaves out, and the errors behind exit code 2.
	for _, line := range d.Warnings {
		fmt.Fprintln(stderr, "warning: "+line)
	}
	for _, line := range append(d.Failures, d.NotFailing...) {
		fmt.Fprintln(stderr, line)
	}
	if len(d.Errors) > 0 {
		fmt.Fprintln(stderr, "tenet-beam: "+strings.Join(d.Errors, "\n"))
	}
	if len(c.Removed) > 0 {
		fmt.Fprintf(stderr, "tenet-beam: removed %s of an earlier run at %s\n", report.Count(len(c.Removed), "runs shard"), o.Out)
	}
	fmt.Fprintf(stderr, "tenet-beam: report %s (exit code %d), runs: %s listed in %s\n", o.Report, *d.ExitCode, report.Count(len(c.Shards), "shard"), c.Manifest)
	return *d.ExitCode
}

// inProcess reports whether --runner is Prism, which runs the pipeline
// in this process: its log (every stage, worker and job state, a failed
// bundle's error three times over, plan and all) is then this command's
// stderr, where it buries the one line that says why a run failed. A
// remote runner's log is the job's progress (its id, where to watch it):
// it is left as Beam writes it.
func inProcess() bool {
	f := flag.Lookup("runner")
	if f == nil {
		return true
	}
	switch f.Value.String() {
	case "", "prism", "PrismRunner":
		return true
	}
	return false
}

// runnerLog sends Beam's log (log/slog's default logger, which Beam's
// own log package and Prism write to) nowhere when quiet, else to stderr
// at Beam's level (info). The cause of a failure is in the pipeline's
// error, which run prints. It is not restored: Prism's workers may still
// log after the pipeline has returned, until the process exits.
func runnerLog(stderr io.Writer, quiet bool) {
	h := slog.DiscardHandler
	if !quiet {
		h = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})
	}
	slog.SetDefault(slog.New(h))
}

// abort removes the failed run's temporary files: nothing was written.
func abort(ctx context.Context, stderr io.Writer, o beampipe.Options) {
	if err := beampipe.Abort(ctx, o); err != nil {
		fmt.Fprintf(stderr, "tenet-beam: removing the run's temporary files (%s*.tmp-%s): %v\n", o.Out, o.RunID, err)
		return
	}
	fmt.Fprintln(stderr, "tenet-beam: nothing written")
}

// options are the flags checked, the contracts opened under the trust
// policy and the input glob matched, before any pipeline is built.
func options(ctx context.Context) (beampipe.Options, error) {
	switch {
	case flag.NArg() > 0:
		return beampipe.Options{}, fmt.Errorf("unexpected argument %q: the inputs are --input GLOB", flag.Arg(0))
	case len(bundles) == 0:
		return beampipe.Options{}, errors.New("--bundle is required (a bundle file or a contract directory)")
	case *input == "", *out == "", *reportOut == "":
		return beampipe.Options{}, errors.New("--input, --out and --report are required")
	case *maxItems < 0, *maxBad < 0:
		return beampipe.Options{}, errors.New("--report-max-items and --max-bad-records must be 0 or more")
	}
	if f := flag.Lookup("runner"); f != nil {
		if r := f.Value.String(); r != "" && !slices.Contains(runners, r) && !slices.Contains(runnerAliases, r) {
			return beampipe.Options{}, fmt.Errorf("unknown runner %s: want %s (docs/scale-out.md)", r, strings.Join(runners, ", "))
		}
	}
	for _, name := range []string{"async", "execute_async"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() == "true" {
			// The run is published after the pipeline ends: a job left
			// running would write temporaries no one publishes.
			return beampipe.Options{}, fmt.Errorf("--%s: tenet-beam publishes the run when the pipeline has ended; run without it", name)
		}
	}
	o := beampipe.Options{Input: *input, Source: *source, Format: *format, Grant: *grant,
		Out: *out, Report: *reportOut, Cases: *cases, Unknown: *unknown, MaxListed: *maxItems, MaxBadRecords: *maxBad,
		RunID: beampipe.NewRunID()}
	pol, err := policy()
	if err != nil {
		return o, err
	}
	paths, err := contractPaths(bundles)
	if err != nil {
		return o, err
	}
	for _, path := range paths {
		b, err := tenet.Open(path, tenet.WithPolicy(pol))
		if ude := (*tenet.UnsignedDirError)(nil); errors.As(err, &ude) {
			return o, fmt.Errorf("%s is a contract directory, compiled here, and carries no signature: --verify-key (or %s) accepts only bundles signed with tenet build --sign KEY", ude.Dir, verifyKeyEnv)
		} else if err != nil {
			return o, err
		}
		c := beampipe.Contract{Bundle: b.Bytes(), ID: b.ID()}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			c.Dir = path // the report's sources name it, as tenet eval's
		}
		o.Contracts = append(o.Contracts, c)
	}
	return o, matchInput(ctx, o.Input)
}

// verifyKeyEnv is tenet's TENET_VERIFY_KEY (verifyKeyEnv; a
// test holds them equal): tenet-beam does not import cliflags, which
// would link the results history's SQLite into every Beam worker.
const verifyKeyEnv = "TENET_VERIFY_KEY"

// policy is the trust policy of --verify-key, TENET_VERIFY_KEY and
// --expect-bundle-id, read as tenet eval reads it (cliflags.Trust.Policy,
// with the same calls of compiler/bundle/trust).
func policy() (bundle.Policy, error) {
	keys := trust.KeyFiles("--verify-key", verifyKeys...)
	if v, set := os.LookupEnv(verifyKeyEnv); set {
		files, err := trust.SplitKeyList(verifyKeyEnv, v)
		if err != nil {
			return bundle.Policy{}, err
		}
		keys = append(keys, trust.KeyFiles(verifyKeyEnv, files...)...)
	}
	return trust.NewPolicy(keys, bundleIDs)
}

// contractPaths are the contracts --bundle names: a directory of
// contracts (contracts/agentdojo) stands for each contract directory in
// it, or each bundle file, in name order, as tenet eval takes it.
func contractPaths(args []string) ([]string, error) {
	var paths []string
	for _, path := range args {
		st, err := os.Stat(path)
		if err != nil || !st.IsDir() || len(lang.SourceFiles(path)) > 0 {
			paths = append(paths, path) // tenet.Open says what is wrong
			continue
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		var dirs, tnbs []string
		for _, e := range entries {
			sub := filepath.Join(path, e.Name())
			switch st, err := os.Stat(sub); {
			case err != nil:
			case st.IsDir() && len(lang.SourceFiles(sub)) > 0:
				dirs = append(dirs, sub)
			case !st.IsDir() && strings.HasSuffix(e.Name(), ".tnb"):
				tnbs = append(tnbs, sub)
			}
		}
		switch {
		case len(dirs) > 0 && len(tnbs) > 0:
			return nil, fmt.Errorf("%s holds both contract directories and bundles: give --bundle once per contract", path)
		case len(dirs)+len(tnbs) == 0:
			return nil, fmt.Errorf("%s holds no *.tenet.hcl files, no contract directories and no *.tnb bundles", path)
		}
		paths = append(append(paths, dirs...), tnbs...)
	}
	return paths, nil
}

// matchInput refuses a glob that matches no file, before the pipeline
// runs (the pipeline's own match would fail it later, after Beam's logs).
func matchInput(ctx context.Context, glob string) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return fmt.Errorf("--input %s: %w", glob, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	switch {
	case err != nil:
		return fmt.Errorf("--input %s: %w", glob, err)
	case len(files) == 0:
		return fmt.Errorf("no files match %s (--input)", glob)
	}
	return nil
}

// reportFields are what the driver reads back from the report: its exit
// code and what tenet eval prints of it on stderr.
type reportFields struct {
	ExitCode   *int     `json:"exit_code"`
	Errors     []string `json:"errors"`
	Warnings   []string `json:"warnings"`
	Failures   []string `json:"failures"`
	NotFailing []string `json:"not_failing"`
}

// readReport reads the report back from where the pipeline wrote it.
func readReport(ctx context.Context, path string) (reportFields, error) {
	var d reportFields
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return d, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return d, fmt.Errorf("the report %s: %w", path, err)
	}
	defer r.Close()
	if err := json.NewDecoder(r).Decode(&d); err != nil || d.ExitCode == nil {
		return d, fmt.Errorf("the report %s has no exit code (%v)", path, err)
	}
	return d, nil
}

// cause is what a failed pipeline's error says went wrong: a runner
// reports a DoFn's error after the stage's plan ("caused by:" then the
// DoFn's name), which names Beam's internals rather than the input; the
// whole text when it has no such part.
func cause(msg string) string {
	const mark = "caused by:\n"
	i := strings.LastIndex(msg, mark)
	if i < 0 {
		return msg
	}
	rest := msg[i+len(mark):]
	if first, after, ok := strings.Cut(rest, "\n"); ok && strings.HasPrefix(first, "DoFn[") {
		rest = after
	}
	return rest
}
