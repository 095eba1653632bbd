// Package beampipe runs unchanged tenet bundles (one contract, or several
// as a collection) over transcript files on Apache Beam: the files a glob
// matches on any Beam filesystem (local, gs://, s3://) are framed into
// records, each record is decoded and judged by a DoFn holding the loaded
// bundles, the judged runs are written as
// runs-file shards (one per contract and condition, sorted by key), and
// the shards are read back in key order into the report document tenet
// eval builds (eval/assemble). docs/scale-out.md describes the stages and
// the proof that the runs and the report are tenet eval's.
//
// It is a Go module of its own (github.com/tenetlang/tenet/eval/beam) so
// that the Beam SDK and its cloud clients stay out of tenet's go.mod.
package beampipe

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/transcript"
)

// Contract is one contract the pipeline judges with.
type Contract struct {
	Bundle []byte // the bundle file's bytes (tenet.Bundle.Bytes)
	// ID is the bundle id the driver accepted it under (tenet.Bundle.ID,
	// after its trust policy: tenet.OpenBundle with tenet.WithPolicy).
	// Every worker that loads Bundle checks that its id is this one, so
	// the bytes judged are the bytes the policy accepted.
	ID string
	// Dir is the contract directory the bundle was compiled from, or ""
	// for a bundle file: the report's sources name it, as tenet eval's do.
	Dir string
}

// Options say what the pipeline judges and where it writes. The bundles
// travel as their bytes, inside the DoFns (serialized with the pipeline),
// and each worker loads them once (Setup).
type Options struct {
	// Contracts are judged with, each record by every one, as tenet eval
	// judges a collection (one contract is the usual case); their report
	// lists them in this order. Their sources must read one transcript
	// format.
	Contracts []Contract
	// Input is the glob of the transcript files, on any registered Beam
	// filesystem (a path, gs://bucket/dir/*.jsonl, s3://bucket/x/*).
	Input  string
	Source string // source block; "" when the contract has exactly one
	Format string // transcript format; "" means the source's, "auto" each file's own
	Grant  string // audit against this grant; "" means the source's
	// Out is the prefix of the runs shards: Out-<16 hex digits>.jsonl, one
	// per (contract, condition) (ShardPath).
	Out string
	// Report is the file the report document is written to, as JSON
	// (the json format of tenet eval --format json).
	Report string
	// RunID names this run's temporary files (NewRunID): the pipeline
	// writes the shards and the report under temporary names
	// (TempPath), and Commit gives them their names only when the
	// pipeline succeeded; Abort removes them.
	RunID string
	// Unknown and Cases are tenet eval's --unknown and --cases
	// (metrics.Options; "" is refuse and declared).
	Unknown string
	Cases   string
	// MaxListed is tenet eval's --report-max-items (0: no bound).
	MaxListed int
	// MaxPatternThreads is eval.Program's (0: eval.MaxThreads).
	MaxPatternThreads int
	// MaxBadRecords bounds the bad records the error names (0: 100,
	// tenet eval's bound).
	MaxBadRecords int
}

// defaultMaxBadRecords is how many bad records an error names by default:
// tenet eval's number.
const defaultMaxBadRecords = 100

// check refuses options that cannot run, before the pipeline is built:
// every bundle must load and have the source, format and grant asked for.
// It returns the transcript format the records are framed in.
func (o Options) check() (string, error) {
	switch {
	case len(o.Contracts) == 0:
		return "", errors.New("no contract: Options.Contracts is empty")
	case o.Input == "":
		return "", errors.New("no input: Options.Input (a glob of transcript files) is empty")
	case o.Out == "":
		return "", errors.New("no runs output: Options.Out (the prefix of the runs shards) is empty")
	case o.Report == "":
		return "", errors.New("no report output: Options.Report is empty")
	case !runIDRE.MatchString(o.RunID):
		return "", fmt.Errorf("Options.RunID %q: want 16 lowercase hex digits (NewRunID)", o.RunID)
	case strings.ContainsAny(o.Out, globChars), strings.ContainsAny(o.Report, globChars):
		return "", fmt.Errorf("the runs prefix %q or the report %q holds one of %s: the run's files are found by glob, so a name may not hold glob characters", o.Out, o.Report, globChars)
	case o.Report == ManifestPath(o.Out) || shardName(o.Out).MatchString(o.Report):
		return "", fmt.Errorf("the report %s is one of the runs' files at prefix %s: name it otherwise", o.Report, o.Out)
	case o.MaxListed < 0, o.MaxPatternThreads < 0, o.MaxBadRecords < 0:
		return "", errors.New("Options.MaxListed, MaxPatternThreads and MaxBadRecords must be 0 or more")
	}
	m := o.metrics()
	if err := m.Check(); err != nil {
		return "", err
	}
	ts, err := o.targets()
	if err != nil {
		return "", err
	}
	return ts[0].format, nil
}

// metrics are the metrics' options.
func (o Options) metrics() metrics.Options {
	u := o.Unknown
	if u == "" {
		u = metrics.UnknownRefuse
	}
	return metrics.Options{Unknown: u, Cases: o.Cases}
}

// target is the loaded bundle with its source plan resolved as tenet
// eval resolves it (eval/pipeline's Target): the format, and the grant
// override applied to a copy of the plan.
type target struct {
	p      *eval.Program
	src    *bundle.SourcePlan
	format string
}

// targets loads the bundles and resolves their sources; every worker
// calls it once, in Setup. Contracts whose sources read different
// transcript formats are refused: tenet eval reads the files once per
// format, and so would the pipeline (run one per format instead).
func (o Options) targets() ([]target, error) {
	var ts []target
	names := map[string]bool{}
	for i, c := range o.Contracts {
		t, err := o.target(c)
		if err != nil {
			if len(o.Contracts) > 1 {
				return nil, fmt.Errorf("contract %d: %w", i+1, err)
			}
			return nil, err
		}
		name := t.p.Bundle.Manifest.Contract
		if names[name] {
			return nil, fmt.Errorf("contract %s is given twice", name)
		}
		names[name] = true
		if len(ts) > 0 && t.format != ts[0].format {
			return nil, fmt.Errorf("contract %s reads format %s, contract %s format %s: one pipeline reads one format (run one per format)",
				ts[0].p.Bundle.Manifest.Contract, ts[0].format, name, t.format)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// target loads one bundle and resolves its source.
func (o Options) target(c Contract) (target, error) {
	b, err := tenet.LoadBundle(c.Bundle)
	if err != nil {
		return target{}, fmt.Errorf("bundle: %w", err)
	}
	if b.ID() != c.ID {
		// The bytes are not those the driver held to the trust policy.
		return target{}, fmt.Errorf("bundle %s is not the bundle the trust policy accepted (%q): refusing to judge with it", b.ID(), c.ID)
	}
	p, err := b.Program()
	if err != nil {
		return target{}, fmt.Errorf("bundle: %w", err)
	}
	p.Dir = c.Dir
	p.MaxPatternThreads = o.MaxPatternThreads
	src, err := p.Source(o.Source)
	if err != nil {
		return target{}, err
	}
	format := o.Format
	if format == "" {
		format = src.Format
	}
	if transcript.IsAuto(format) {
		format = transcript.Auto
	}
	if err := transcript.CheckFormat(format); err != nil {
		return target{}, err
	}
	if o.Grant != "" {
		if !slices.ContainsFunc(p.Bundle.Decls.Grants, func(g bundle.Grant) bool { return g.Name == o.Grant }) {
			return target{}, fmt.Errorf("contract %s has no grant %q", p.Bundle.Manifest.Contract, o.Grant)
		}
		s := *src // the bundle's plan is shared: override a copy
		s.Grant = o.Grant
		src = &s
	}
	return target{p: p, src: src, format: format}, nil
}
