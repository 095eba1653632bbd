// Package tenet is the library entry to tenet for Go programs: build a
// contract directory into a bundle (or load a bundle file, verified), judge
// transcript files with it, and get the report document `tenet eval`
// renders.
//
//	b, err := tenet.Build("contracts/agentdojo/banking")
//	ev, err := b.Evaluate([]string{"runs.jsonl"}, tenet.EvalOptions{})
//	fmt.Println(ev.Document.Conditions[0].TargetedASR)
//
// It only wraps the packages that do the work — lang and compiler (sources
// to bundle), compiler/bundle (the file format, its signatures and trust
// policy), eval (judging), eval/assemble (files to judged runs to the
// document), eval/metrics and eval/report, eval/consistency (Inspect) and
// eval/tester (Test) —
// and holds no state of its own: a Bundle is an immutable value, safe to
// share between goroutines. Programs that need more (several contracts at
// once, runs kept on disk, a runs file) call eval/assemble.Evaluate, the
// flow Evaluate runs too, as cmd/tenet does.
package tenet

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang/diag"
)

// Bundle is a compiled contract whose bytes have been verified: magic,
// format version, the sha256 of its payload, every signature it carries,
// and the trust policy it was loaded under.
type Bundle struct {
	contract *bundle.Bundle
	data     []byte
	id       string
	signers  []bundle.Signer
	warnings hcl.Diagnostics
	dir      string              // the contract directory (Build only)
	tests    []compiler.TestSpec // its test blocks (Build only)
}

// BuildError is Build's error when the contract has errors. It holds every
// diagnostic, warnings included, with ranges relative to Dir, and the
// parsed source files they point into (for hcl's snippet writer).
type BuildError struct {
	Dir         string
	Files       map[string]*hcl.File
	Diagnostics hcl.Diagnostics
}

// Error lists the errors one a line, each as file:line:col: [code]
// summary: detail, the file joined to Dir.
func (e *BuildError) Error() string {
	var lines []string
	for _, d := range e.Diagnostics {
		if d.Severity != hcl.DiagError {
			continue
		}
		var b strings.Builder
		if s := d.Subject; s != nil {
			fmt.Fprintf(&b, "%s:%d:%d: ", filepath.Join(e.Dir, s.Filename), s.Start.Line, s.Start.Column)
		}
		if code := diag.Of(d); code != "" {
			fmt.Fprintf(&b, "[%s] ", code)
		}
		b.WriteString(d.Summary)
		if d.Detail != "" {
			b.WriteString(": " + d.Detail)
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

// Build parses and compiles the contract in dir (its *.tenet.hcl files and
// their imports) and encodes its bundle, as `tenet build` does: the bundle
// has the id `tenet build` gives the same sources. A contract with errors
// gives a *BuildError; warnings come with the bundle (Warnings). opts
// apply as to LoadBundle (WithDiagnostics sees every diagnostic first).
func Build(dir string, opts ...LoadOption) (*Bundle, error) {
	c := configOf(opts)
	built, diags := compiler.BuildDir(dir, compiler.Options{Formats: transcript.Formats()})
	var files map[string]*hcl.File
	if built.Module != nil {
		files = built.Module.FileMap()
	}
	if c.diags != nil {
		c.diags(dir, files, diags)
	}
	if diags.HasErrors() {
		return nil, &BuildError{Dir: dir, Files: files, Diagnostics: diags}
	}
	b, err := LoadBundle(built.Data, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	b.warnings, b.dir, b.tests = diags, dir, compiler.Tests(built.Module)
	return b, nil
}

// A LoadOption adds to the trust policy LoadBundle and OpenBundle apply
// (with none, every bundle that decodes is accepted), or asks Build and
// Open for the compiler's diagnostics.
type LoadOption func(*loadConfig)

// loadConfig is what the LoadOptions of one call set.
type loadConfig struct {
	pol   bundle.Policy
	diags func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics)
}

func configOf(opts []LoadOption) loadConfig {
	var c loadConfig
	for _, o := range opts {
		o(&c)
	}
	return c
}

// TrustKeys accepts only bundles signed (tenet build --sign) by at least
// one of keys.
func TrustKeys(keys ...ed25519.PublicKey) LoadOption {
	return func(c *loadConfig) { c.pol.Keys = append(c.pol.Keys, keys...) }
}

// ExpectIDs accepts only the bundles with one of ids ("sha256:<hex>").
func ExpectIDs(ids ...string) LoadOption {
	return func(c *loadConfig) { c.pol.IDs = append(c.pol.IDs, ids...) }
}

// WithPolicy applies pol as a whole (what cmd/tenet builds from
// --verify-key and --expect-bundle-id).
func WithPolicy(pol bundle.Policy) LoadOption {
	return func(c *loadConfig) {
		c.pol.Keys = append(c.pol.Keys, pol.Keys...)
		c.pol.IDs = append(c.pol.IDs, pol.IDs...)
	}
}

// WithDiagnostics has Build (and Open, for a directory) hand fn every
// diagnostic of the contract, warnings included, with the parsed files
// they point into (what diag.WriteText takes), as soon as it is compiled:
// before a *BuildError, and before the bundle is held to the trust policy.
func WithDiagnostics(fn func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics)) LoadOption {
	return func(c *loadConfig) { c.diags = fn }
}

// LoadBundle verifies and decodes bundle file bytes (bundle.DecodeSigned)
// and applies the trust policy of opts. Each failure is an error saying
// which check refused the bundle.
func LoadBundle(data []byte, opts ...LoadOption) (*Bundle, error) {
	pol := configOf(opts).pol
	b, id, signers, err := bundle.DecodeSigned(data)
	if err != nil {
		return nil, err
	}
	if err := pol.Check(id, signers); err != nil {
		return nil, err
	}
	return &Bundle{contract: b, data: data, id: id, signers: signers}, nil
}

// OpenBundle is LoadBundle for a bundle file. The file must be a regular
// file of at most bundle.MaxFileBytes (a named pipe or a device is refused
// before it is opened: it could block or never end; the error is then a
// *readlimit.FileTypeError). Errors about the bundle name the file.
func OpenBundle(path string, opts ...LoadOption) (*Bundle, error) {
	data, err := readlimit.ReadFile(path, bundle.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	b, err := LoadBundle(data, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ID is the bundle id, "sha256:<hex>" of its payload: the same for the
// same sources, whoever compiles them, signed or not.
func (b *Bundle) ID() string { return b.id }

// Bytes is the bundle file (what `tenet build` writes). The caller must not
// change it.
func (b *Bundle) Bytes() []byte { return b.data }

// Contract is the decoded bundle (manifest, declarations, plan). The
// caller must not change it.
func (b *Bundle) Contract() *bundle.Bundle { return b.contract }

// Signers are the keys whose signatures on the bundle verified, in the
// bundle's order; none for an unsigned bundle.
func (b *Bundle) Signers() []bundle.Signer { return b.signers }

// Warnings are the compiler's warnings (Build only).
func (b *Bundle) Warnings() hcl.Diagnostics { return b.warnings }

// Program plans the bundle for judging (eval.Plan): it rebuilds the CEL
// programs and checks that each expression's compiled form is its text's.
// Each call returns a new Program, whose limits the caller may set.
func (b *Bundle) Program() (*eval.Program, error) { return eval.Plan(b.contract, b.id) }

// EvalOptions configure Evaluate. The zero value judges with the source
// the contract declares, one worker per CPU, the default pattern thread
// budget, no time limit per run, unknown labels refused and every run
// listed in the document.
type EvalOptions struct {
	Source string // source block; "" when the contract has exactly one
	Format string // transcript format; "" means the source's
	Grant  string // audit against this grant; "" means the source's
	// Workers decode and judge records; 0: one per CPU. The results do
	// not depend on it.
	Workers int
	// MaxPatternThreads and RunTimeout are eval.Program's limits
	// (0: eval.MaxThreads, and no time limit).
	MaxPatternThreads int
	RunTimeout        time.Duration
	// Unknown is metrics.UnknownRefuse ("" too) or metrics.UnknownBounds.
	Unknown string
	// MaxListed bounds the run references the document lists
	// (report.Input.MaxListed; 0: no bound; the CLI's default is
	// report.DefaultMaxListed).
	MaxListed int
	// Context, when set, stops the evaluation once it is cancelled.
	Context context.Context
}

// Evaluation is what Evaluate gives: the judged runs in key order and the
// report document `tenet eval` renders from them (formats.Write renders it
// in any of formats.Names(); Document.ExitCode is the CLI's exit status).
type Evaluation struct {
	Runs     []runs.Record
	Document *report.Document
}

// Evaluate judges every run of the transcript files and builds the report
// document, as `tenet eval` does with one contract. A record that cannot
// be read or mapped, or a duplicate run, is an error naming each such
// record (file:line): a *assemble.BadRecordsError; so is a file that
// cannot be read. It is assemble.Evaluate, the flow of `tenet eval`, with
// the runs held in memory: for corpora larger than memory call
// assemble.Evaluate with Options.SortBytes and a runs file, as cmd/tenet
// does.
func (b *Bundle) Evaluate(files []string, opts EvalOptions) (*Evaluation, error) {
	p, err := b.Program()
	if err != nil {
		return nil, err
	}
	p.MaxPatternThreads, p.RunTimeout = opts.MaxPatternThreads, opts.RunTimeout
	unknown := opts.Unknown
	if unknown == "" {
		unknown = metrics.UnknownRefuse
	}
	ev, err := assemble.Evaluate(assemble.EvalInput{
		Input: assemble.Input{Command: report.CommandEval, Version: compiler.Version, Inputs: files,
			Programs: []*eval.Program{p}, Metrics: metrics.Options{Unknown: unknown}, MaxListed: opts.MaxListed},
		Files: files, Keep: true,
		Options: pipeline.Options{Source: opts.Source, Format: opts.Format, Grant: opts.Grant,
			Workers: opts.Workers, Context: opts.Context},
	})
	if err != nil {
		return nil, err
	}
	return &Evaluation{Runs: ev.Runs, Document: ev.Document}, nil
}
