package tenet_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
)

// TestEvaluateRefusesOptions: each option tenet eval refuses as a flag is
// refused by Evaluate, naming the field, before anything is read (the file
// given does not exist: its error would come first otherwise).
func TestEvaluateRefusesOptions(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	missing := []string{filepath.Join(t.TempDir(), "missing.jsonl")}
	for _, c := range []struct {
		opts tenet.EvalOptions
		want string
	}{
		{tenet.EvalOptions{Unknown: "nope"}, `EvalOptions.Unknown "nope": want "refuse" (or "") or "bounds"`},
		{tenet.EvalOptions{Cases: "all"}, `EvalOptions.Cases "all": want "declared" (or "") or "observed"`},
		{tenet.EvalOptions{Workers: -1}, "EvalOptions.Workers -1: want 0 (one per CPU) to 1024"},
		{tenet.EvalOptions{Workers: 1025}, "EvalOptions.Workers 1025: want 0 (one per CPU) to 1024"},
		{tenet.EvalOptions{MaxPatternThreads: -1}, "EvalOptions.MaxPatternThreads -1: want 0 (eval.MaxThreads) or more"},
		{tenet.EvalOptions{RunTimeout: -time.Second}, "EvalOptions.RunTimeout -1s: want 0 (no limit) or more"},
		{tenet.EvalOptions{MaxListed: -1}, "EvalOptions.MaxListed -1: want 0 (no bound) or more"},
	} {
		ev, err := b.Evaluate(missing, c.opts)
		if ev != nil || err == nil || err.Error() != c.want {
			t.Errorf("%+v: got %v, %v; want the error %q", c.opts, ev, err, c.want)
		}
	}
}

// TestEvaluateChecksInputs: Evaluate refuses what tenet eval refuses
// (internal/inputs, through assemble.Evaluate), with its words, before
// reading: no files, a missing file, a directory with nothing to read, a
// file given twice (also through a directory, which is walked).
func TestEvaluateChecksInputs(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{nil, "no transcript files to evaluate"},
		{[]string{}, "no transcript files to evaluate"},
		{[]string{empty}, empty + ": no file to read in this directory (hidden files and directories are skipped)"},
		{[]string{dir, a}, a + " is given twice (also as " + a + ")"},
		{[]string{a, a}, a + " is given twice (also as " + a + ")"},
		{[]string{missing}, "stat " + missing + ": no such file or directory"},
	} {
		ev, err := b.Evaluate(c.files, tenet.EvalOptions{})
		if ev != nil || err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, %v; want the error %q", c.files, ev, err, c.want)
		}
	}
	var pe *fs.PathError
	if _, err := b.Evaluate([]string{missing}, tenet.EvalOptions{}); !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v (%T); want an *fs.PathError for fs.ErrNotExist", err, err)
	}
}

// TestEvaluateNoRuns: files that hold no run are no error; the Document
// says so as tenet eval prints it: no conditions, exit code 2.
func TestEvaluateNoRuns(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := b.Evaluate([]string{empty}, tenet.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := ev.Document
	if len(ev.Runs) != 0 || d.Runs != 0 || len(d.Conditions) != 0 || !slices.Equal(d.Errors, []string{"metrics: no runs"}) || d.ExitCode != 2 {
		t.Errorf("got %d runs, %d conditions, errors %q, exit %d; want 0, 0, [metrics: no runs], 2", d.Runs, len(d.Conditions), d.Errors, d.ExitCode)
	}
}

// TestBundleFileHasNoTests: Test on a bundle loaded from bytes is an
// error, not a document of zero tests that "passes"; negative limits are
// refused.
func TestBundleFileHasNoTests(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := tenet.LoadBundle(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	d, err := loaded.Test(tenet.TestOptions{})
	if want := "the bundle was loaded from bundle bytes, which carry no test blocks: Build (or Open) the contract directory to run its tests"; d != nil || err == nil || err.Error() != want {
		t.Errorf("loaded bundle: got %v, %v; want the error %q", d, err, want)
	}
	if _, err := b.Test(tenet.TestOptions{RunTimeout: -time.Second}); err == nil || err.Error() != "TestOptions.RunTimeout -1s: want 0 (no limit) or more" {
		t.Errorf("negative RunTimeout: got %v", err)
	}
	if _, err := b.Test(tenet.TestOptions{MaxPatternThreads: -1}); err == nil || err.Error() != "TestOptions.MaxPatternThreads -1: want 0 (eval.MaxThreads) or more" {
		t.Errorf("negative MaxPatternThreads: got %v", err)
	}
}

// TestTrustOptionErrors: a malformed id is refused by every call it is
// given to; the refusals of TrustKeys and ExpectIDs name the options, not
// the CLI's flags, which WithPolicy (cmd/tenet's) keeps.
func TestTrustOptionErrors(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	const malformed = `ExpectIDs "sha256:00": a bundle id is sha256: and 64 lowercase hex digits, as Bundle.ID gives it`
	bad := tenet.ExpectIDs("sha256:00")
	path := filepath.Join(t.TempDir(), "q.tnb")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"LoadBundle": func() error { _, err := tenet.LoadBundle(b.Bytes(), bad); return err },
		"OpenBundle": func() error { _, err := tenet.OpenBundle(path, bad); return err },
		"Open":       func() error { _, err := tenet.Open("examples/quickstart", bad); return err },
		"Build":      func() error { _, err := tenet.Build("examples/quickstart", bad); return err },
	} {
		if err := call(); err == nil || err.Error() != malformed {
			t.Errorf("%s: got %v; want %q", name, err, malformed)
		}
	}
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.ExpectIDs(strings.ToUpper(b.ID()))); err == nil || !strings.HasPrefix(err.Error(), "ExpectIDs \"SHA256:") {
		t.Errorf("upper-case id: got %v", err)
	}
	other := "sha256:" + strings.Repeat("0", 64)
	want := "bundle " + b.ID() + " is not the expected bundle " + other + " (ExpectIDs)"
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.ExpectIDs(other)); err == nil || err.Error() != want {
		t.Errorf("another id: got %v; want %q", err, want)
	}
	seed := sha256.Sum256([]byte("tenet root API test key"))
	pub := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
	want = "bundle " + b.ID() + " is not signed, and a signature by " + bundle.Fingerprint(pub) + " is required (TrustKeys): sign it with tenet build --sign KEY"
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.TrustKeys(pub)); err == nil || err.Error() != want {
		t.Errorf("unsigned: got %v; want %q", err, want)
	}
	other2 := seed
	other2[0] ^= 1
	signed, err := bundle.Sign(b.Bytes(), ed25519.NewKeyFromSeed(other2[:]))
	if err != nil {
		t.Fatal(err)
	}
	by := bundle.Fingerprint(ed25519.NewKeyFromSeed(other2[:]).Public().(ed25519.PublicKey))
	want = "bundle " + b.ID() + " is signed only by " + by + ", not by a trusted key (TrustKeys: " + bundle.Fingerprint(pub) + ")"
	if _, err := tenet.LoadBundle(signed, tenet.TrustKeys(pub)); err == nil || err.Error() != want {
		t.Errorf("signed by another key: got %v; want %q", err, want)
	}
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.WithPolicy(bundle.Policy{IDs: []string{other}})); err == nil || !strings.HasSuffix(err.Error(), "(--expect-bundle-id)") {
		t.Errorf("WithPolicy keeps the CLI's words: got %v", err)
	}
}
