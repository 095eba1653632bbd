// Package tenet is the library entry to tenet for Go programs: build a
// contract directory into a bundle (or load a bundle file, verified), judge
// transcript files with it, and get the report document `tenet eval`
// renders.
//
//	b, err := tenet.Build("examples/quickstart")
//	if err != nil {
//		log.Fatal(err) // a *tenet.BuildError: each error at file:line:col
//	}
//	ev, err := b.Evaluate([]string{"examples/quickstart/transcripts.jsonl"}, tenet.EvalOptions{})
//	if err != nil {
//		log.Fatal(err) // bad options, a missing file, bad records
//	}
//	for _, c := range ev.Document.Conditions { // none when no file held a run
//		fmt.Println(c.Condition, c.TargetedASR)
//	}
//	fmt.Println(ev.Document.Errors, ev.Document.ExitCode) // 2: the report is in error
//
// Evaluate takes transcript files (what the agent did), not a runs file
// (what tenet eval --out writes). It only wraps the packages that do the
// work — lang and compiler (sources to bundle), compiler/bundle and
// compiler/bundle/trust (the file format, its signatures and trust
// policy), eval (judging), eval/assemble and eval/pipeline (files to
// judged runs to the document), eval/metrics and eval/report,
// eval/consistency (Inspect) and eval/tester (Test) —
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
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
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
	// consistent: the bundle was compiled from its sources by this process
	// or taken from the compile cache, so Program skips the text checks
	// (eval.PlanConsistent).
	consistent bool
	cached     bool         // Open took it from the compile cache: no tests
	cache      *cache.Cache // WithCache's, for Program's verified record
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
	b, _, err := build(dir, opts)
	return b, err
}

// build is Build; it also returns the module compiled.
func build(dir string, opts []LoadOption) (*Bundle, *lang.Module, error) {
	c := configOf(opts)
	if c.err != nil {
		return nil, nil, c.err
	}
	built, diags := compiler.BuildDir(dir, compiler.Options{Formats: transcript.Formats()})
	var files map[string]*hcl.File
	if built.Module != nil {
		files = built.Module.FileMap()
	}
	if c.diags != nil {
		c.diags(dir, files, diags)
	}
	if diags.HasErrors() {
		return nil, built.Module, &BuildError{Dir: dir, Files: files, Diagnostics: diags}
	}
	b, err := LoadBundle(built.Data, opts...)
	if err != nil {
		return nil, built.Module, fmt.Errorf("%s: %w", dir, err)
	}
	b.warnings, b.dir, b.tests = diags, dir, compiler.Tests(built.Module)
	b.consistent = true
	return b, built.Module, nil
}

// A LoadOption adds to the trust policy LoadBundle and OpenBundle apply
// (with none, every bundle that decodes is accepted), or asks Build and
// Open for the compiler's diagnostics.
type LoadOption func(*loadConfig)

// loadConfig is what the LoadOptions of one call set.
type loadConfig struct {
	pol bundle.Policy
	// fromFlags: WithPolicy set the policy, from the CLI's flags, so its
	// refusals name the flags (bundle.Policy.Check's words); else they
	// name the options (TrustKeys, ExpectIDs).
	fromFlags bool
	err       error // the first malformed option: every call refuses it
	diags     func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics)
	cache     *cache.Cache // WithCache's; nil: none
}

// checkIDs records in c an error for the first id that is not a bundle id
// (trust.NewPolicy's check, worded for the option): such an id can match
// no bundle, so a typo would refuse every bundle with a misleading reason.
func (c *loadConfig) checkIDs(option string, ids []string) {
	for _, id := range ids {
		if _, err := trust.NewPolicy(nil, []string{id}); err != nil && c.err == nil {
			c.err = fmt.Errorf("%s %q: a bundle id is sha256: and 64 lowercase hex digits, as Bundle.ID gives it", option, id)
		}
	}
}

// policyError is why pol refused the bundle id with signers, worded for
// the options TrustKeys and ExpectIDs (the checks are pol.Check's).
func policyError(pol bundle.Policy, id string, signers []bundle.Signer) error {
	if len(pol.IDs) > 0 && !slices.Contains(pol.IDs, id) {
		return fmt.Errorf("bundle %s is not the expected bundle %s (ExpectIDs)", id, strings.Join(pol.IDs, " or "))
	}
	trusted := make([]string, len(pol.Keys))
	for i, k := range pol.Keys {
		trusted[i] = bundle.Fingerprint(k)
	}
	if len(signers) == 0 {
		return fmt.Errorf("bundle %s is not signed, and a signature by %s is required (TrustKeys): sign it with tenet build --sign KEY", id, strings.Join(trusted, ", "))
	}
	by := make([]string, len(signers))
	for i, s := range signers {
		by[i] = s.Fingerprint()
	}
	return fmt.Errorf("bundle %s is signed only by %s, not by a trusted key (TrustKeys: %s)", id, strings.Join(by, ", "), strings.Join(trusted, ", "))
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

// ExpectIDs accepts only the bundles with one of ids ("sha256:" and 64
// lowercase hex digits, as ID gives it). An id of any other form is an
// error of the call the option is given to.
func ExpectIDs(ids ...string) LoadOption {
	return func(c *loadConfig) {
		c.checkIDs("ExpectIDs", ids)
		c.pol.IDs = append(c.pol.IDs, ids...)
	}
}

// WithPolicy applies pol as a whole (what cmd/tenet builds from
// --verify-key and --expect-bundle-id with trust.NewPolicy); its
// refusals name those flags. Its ids are checked as ExpectIDs's.
func WithPolicy(pol bundle.Policy) LoadOption {
	return func(c *loadConfig) {
		c.checkIDs("WithPolicy: bundle id", pol.IDs)
		c.pol.Keys = append(c.pol.Keys, pol.Keys...)
		c.pol.IDs = append(c.pol.IDs, pol.IDs...)
		c.fromFlags = true
	}
}

// WithDiagnostics has Build (and Open, for a directory) hand fn every
// diagnostic of the contract, warnings included, with the parsed files
// they point into (what diag.WriteText takes), as soon as it is compiled:
// before a *BuildError, and before the bundle is held to the trust policy.
func WithDiagnostics(fn func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics)) LoadOption {
	return func(c *loadConfig) { c.diags = fn }
}

// WithCache has Open take a contract directory's bundle from c when its
// sources are those it was compiled from (and store it there after
// compiling it without diagnostics: warnings are printed on every compile),
// and Program record in c the bundles whose load checks it made, to skip
// them for the same bundle next time (eval.PlanConsistent). A bundle taken
// from c is verified (its sha256) and held to the trust policy as any.
// See docs/performance.md, "Cold start (issue 17)".
func WithCache(c *cache.Cache) LoadOption {
	return func(lc *loadConfig) { lc.cache = c }
}

// LoadBundle verifies and decodes bundle file bytes (bundle.DecodeSigned)
// and applies the trust policy of opts. Each failure is an error saying
// which check refused the bundle: a malformed id given to ExpectIDs, a
// bundle that does not decode or verify (bundle.DecodeSigned's error), an
// id not among ExpectIDs's, or no signature by a key of TrustKeys.
func LoadBundle(data []byte, opts ...LoadOption) (*Bundle, error) {
	c := configOf(opts)
	if c.err != nil {
		return nil, c.err
	}
	b, id, signers, err := bundle.DecodeSigned(data)
	if err != nil {
		return nil, err
	}
	if err := c.check(id, signers); err != nil {
		return nil, err
	}
	return &Bundle{contract: b, data: data, id: id, signers: signers, cache: c.cache}, nil
}

// check holds a decoded bundle to the trust policy (LoadBundle's last step).
func (c *loadConfig) check(id string, signers []bundle.Signer) error {
	if err := c.pol.Check(id, signers); err != nil {
		if !c.fromFlags {
			err = policyError(c.pol, id, signers)
		}
		return err
	}
	return nil
}

// OpenBundle is LoadBundle for a bundle file. The file must be a regular
// file of at most bundle.MaxFileBytes (a named pipe or a device is refused
// before it is opened: it could block or never end; the error is then a
// *readlimit.FileTypeError; a missing file is an *fs.PathError). Errors
// about the bundle name the file.
func OpenBundle(path string, opts ...LoadOption) (*Bundle, error) {
	if c := configOf(opts); c.err != nil {
		return nil, c.err
	}
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
// Each call returns a new Program, whose limits the caller may set. A
// bundle Build compiled, or one whose checks this binary recorded in the
// cache (WithCache), is planned by eval.PlanConsistent instead: the same
// judging, without the checks, each expression planned on first use.
func (b *Bundle) Program() (*eval.Program, error) {
	p, err := b.program()
	if err == nil {
		p.Dir = b.dir
	}
	return p, err
}

func (b *Bundle) program() (*eval.Program, error) {
	if b.consistent || (b.cache != nil && b.cache.Verified(b.id)) {
		return eval.PlanConsistent(b.contract, b.id)
	}
	p, err := eval.Plan(b.contract, b.id)
	if err == nil && b.cache != nil {
		b.cache.MarkVerified(b.id) // a failed write only costs the checks again
	}
	return p, err
}

// EvalOptions configure Evaluate. The zero value judges with the source
// the contract declares, one worker per CPU, the default pattern thread
// budget, no time limit per run, unknown labels refused and every run
// listed in the document.
type EvalOptions struct {
	Source string // source block; "" when the contract has exactly one
	Format string // transcript format; "" means the source's
	Grant  string // audit against this grant; "" means the source's
	// Include selects the files read in a directory given as a file
	// (globs, as tenet eval's --include; none: every non-hidden file).
	Include []string
	// Workers decode and judge records; 0: one per CPU. The results do
	// not depend on it.
	Workers int
	// MaxPatternThreads and RunTimeout are eval.Program's limits
	// (0: eval.MaxThreads, and no time limit).
	MaxPatternThreads int
	RunTimeout        time.Duration
	// Unknown is metrics.UnknownRefuse ("" too) or metrics.UnknownBounds.
	Unknown string
	// Cases is metrics.CasesDeclared ("" too: a declared task or case with
	// no run is a metric error) or metrics.CasesObserved (the denominators
	// are the declared tasks and cases that ran; the Document says how many
	// were left out per condition, docs/metrics.md "Observed cases"), as
	// tenet eval's --cases.
	Cases string
	// MaxListed bounds the entries of each kind of list the document holds
	// (report.Input.MaxListed; 0: no bound; the CLI's default is
	// report.DefaultMaxListed).
	MaxListed int
	// Context, when set, stops the evaluation once it is cancelled.
	Context context.Context
	// Profiles are profile blocks of the contract to judge every run under
	// too, as tenet eval's --profile: their runs are condition
	// "<condition>+<profile>" and Document.Profiles counts the labels each
	// flips. A name the contract does not declare is an error naming those
	// it declares.
	Profiles []string
}

// Evaluation is what Evaluate gives: the judged runs in key order and the
// report document `tenet eval` renders from them (formats.Write renders it
// in any of formats.Names(); Document.ExitCode is the CLI's exit status).
type Evaluation struct {
	Runs     []runs.Record
	Document *report.Document
}

// check refuses the options tenet eval refuses as flags, naming the
// field, before anything is read.
func (o EvalOptions) check() error {
	switch o.Unknown {
	case "", metrics.UnknownRefuse, metrics.UnknownBounds:
	default:
		return fmt.Errorf("EvalOptions.Unknown %q: want %q (or \"\") or %q", o.Unknown, metrics.UnknownRefuse, metrics.UnknownBounds)
	}
	switch o.Cases {
	case "", metrics.CasesDeclared, metrics.CasesObserved:
	default:
		return fmt.Errorf("EvalOptions.Cases %q: want %q (or \"\") or %q", o.Cases, metrics.CasesDeclared, metrics.CasesObserved)
	}
	if o.Workers < 0 || o.Workers > assemble.MaxWorkers {
		return fmt.Errorf("EvalOptions.Workers %d: want 0 (one per CPU) to %d", o.Workers, assemble.MaxWorkers)
	}
	if o.MaxPatternThreads < 0 {
		return fmt.Errorf("EvalOptions.MaxPatternThreads %d: want 0 (eval.MaxThreads) or more", o.MaxPatternThreads)
	}
	if o.RunTimeout < 0 {
		return fmt.Errorf("EvalOptions.RunTimeout %s: want 0 (no limit) or more", o.RunTimeout)
	}
	if o.MaxListed < 0 {
		return fmt.Errorf("EvalOptions.MaxListed %d: want 0 (no bound) or more", o.MaxListed)
	}
	return nil
}

// Evaluate judges every run of the transcript files (not a runs file) and
// builds the report document, as `tenet eval` does with one contract. It
// is assemble.Evaluate, the flow of `tenet eval`, with the runs held in
// memory: for corpora larger than memory call assemble.Evaluate with
// Options.SortBytes and a runs file, as cmd/tenet does.
//
// Errors, each before anything is read unless said: an option out of
// range (naming the EvalOptions field); the bundle's planning error
// (Program); no files; a missing file (os.Stat's *fs.PathError); a
// directory with nothing to read, "-" twice, or a file given twice (the
// messages of tenet eval; files are expanded as tenet eval expands them,
// docs/transcripts.md "Inputs": directories walked, "-" is os.Stdin,
// gzip and zstd decompressed); a source,
// format or grant the contract does not have; then, once every file was
// read, a *assemble.BadRecordsError naming each record that cannot be read
// or mapped to a run, and each duplicate run (file:line); or the error
// reading a file. Files that hold no run are not an error: the Document
// has no Conditions, Errors ["metrics: no runs"] and ExitCode 2, as tenet
// eval prints it. So read Document.ExitCode (0 passed, 1 a gate failed,
// 2 the report is in error: Errors says why) before the numbers.
func (b *Bundle) Evaluate(files []string, opts EvalOptions) (*Evaluation, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
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
		Input: assemble.Input{Command: report.CommandEval, Version: compiler.Version,
			Programs: []*eval.Program{p}, Metrics: metrics.Options{Unknown: unknown, Cases: opts.Cases}, MaxListed: opts.MaxListed,
			Profiles: opts.Profiles},
		Files: files, Include: opts.Include, Keep: true,
		Options: pipeline.Options{Source: opts.Source, Format: opts.Format, Grant: opts.Grant,
			Workers: opts.Workers, Context: opts.Context},
	})
	if err != nil {
		return nil, err
	}
	return &Evaluation{Runs: ev.Runs, Document: ev.Document}, nil
}

// Authorizer is the bundle's run-time decision point for tool calls
// (docs/authorize.md): Authorize decides a pending call under one of the
// bundle's grants with the offline audit's layers. It reads the bundle
// only, needs no Program, and is safe for concurrent use.
func (b *Bundle) Authorizer() *authorize.Authorizer { return authorize.New(b.contract, b.id) }
