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
// Exit status: 0 the report passed, 1 a gate (or the policy) failed, 2 bad
// usage, a bad contract, bad input (bad records) or a failed pipeline.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tenetlang/tenet"
	beampipe "github.com/tenetlang/tenet/eval/beam"
	"github.com/tenetlang/tenet/eval/report"
)

// Beam's own flags (--runner and each runner's) are on the default flag
// set, so tenet-beam's are too: one command line.
var (
	bundles   pathList
	input     = flag.String("input", "", "glob of the transcript files, on any Beam filesystem: a path, gs://…, s3://… (required)")
	format    = flag.String("transcript-format", "", "transcript format (default: the source's; auto: each file's own)")
	source    = flag.String("source", "", "source block (default: the contract's only one)")
	grant     = flag.String("grant", "", "audit against this grant instead of the source's")
	out       = flag.String("out", "", "prefix of the runs shards, PREFIX-<hash>.jsonl, one per (contract, condition) (required)")
	reportOut = flag.String("report", "", "file the report is written to, as JSON (required)")
	cases     = flag.String("cases", "", "declared (default) or observed, as tenet eval --cases")
	unknown   = flag.String("unknown", "", "refuse (default) or bounds, as tenet eval --unknown")
	maxItems  = flag.Int("report-max-items", report.DefaultMaxListed, "bound on each list of the report (0: none), as tenet eval")
	maxBad    = flag.Int("max-bad-records", 100, "bad records named when the evaluation fails on them (tenet eval names 100)")
)

func init() {
	flag.Var(&bundles, "bundle", "contract: a bundle file (X.tnb) or a contract directory, on the local disk (required; repeat it to judge with several contracts, as tenet eval judges a collection)")
}

// pathList is a repeatable flag.
type pathList []string

func (l *pathList) String() string     { return fmt.Sprint([]string(*l)) }
func (l *pathList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	flag.Parse()
	beam.Init() // a Beam worker process (a non-prism runner) never returns from here
	os.Exit(run(context.Background(), os.Stderr))
}

func run(ctx context.Context, stderr io.Writer) int {
	o, err := options()
	if err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		return 2
	}
	p, s := beam.NewPipelineWithRoot()
	if err := beampipe.Build(s, o); err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		return 2
	}
	if err := beamx.Run(ctx, p); err != nil {
		fmt.Fprintln(stderr, "tenet-beam: the pipeline failed:", cause(err.Error()))
		return 2
	}
	code, err := exitCode(ctx, o.Report)
	if err != nil {
		fmt.Fprintln(stderr, "tenet-beam:", err)
		return 2
	}
	fmt.Fprintf(stderr, "tenet-beam: report %s (exit code %d), runs %s-*.jsonl\n", o.Report, code, o.Out)
	return code
}

// options are the flags checked, with the bundle read.
func options() (beampipe.Options, error) {
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
	o := beampipe.Options{Input: *input, Source: *source, Format: *format, Grant: *grant,
		Out: *out, Report: *reportOut, Cases: *cases, Unknown: *unknown, MaxListed: *maxItems, MaxBadRecords: *maxBad}
	for _, path := range bundles {
		b, err := tenet.Open(path)
		if err != nil {
			return beampipe.Options{}, err
		}
		c := beampipe.Contract{Bundle: b.Bytes()}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			c.Dir = path // the report's sources name it, as tenet eval's
		}
		o.Contracts = append(o.Contracts, c)
	}
	return o, nil
}

// exitCode reads the report's exit code back from where it was written.
func exitCode(ctx context.Context, path string) (int, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return 0, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("the report %s: %w", path, err)
	}
	defer r.Close()
	var d struct {
		ExitCode *int `json:"exit_code"`
	}
	if err := json.NewDecoder(r).Decode(&d); err != nil || d.ExitCode == nil {
		return 0, fmt.Errorf("the report %s has no exit code (%v)", path, err)
	}
	return *d.ExitCode, nil
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
