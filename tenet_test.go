package tenet_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/report/formats"
	"github.com/tenetlang/tenet/eval/runs"
)

// TestEvaluateIsTenetEval: Evaluate gives the report and the runs file
// `tenet eval` writes for the quickstart, byte for byte (the golden of
// testdata/eval_quickstart.txtar, which the CLI's script test checks).
func TestEvaluateIsTenetEval(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/eval_quickstart.txtar")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, f := range ar.Files {
		want[f.Name] = f.Data
	}
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("examples/quickstart/transcripts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The golden names the transcripts as the script does.
	t.Chdir(t.TempDir())
	if err := os.WriteFile("transcripts.jsonl", src, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := b.Evaluate([]string{"transcripts.jsonl"}, tenet.EvalOptions{MaxListed: report.DefaultMaxListed})
	if err != nil {
		t.Fatal(err)
	}
	// The script writes its runs with --out runs.jsonl, the file the
	// summary's last line names; the runs are compared below.
	ev.Document.RunsFiles = report.RunsFiles{"runs.jsonl"}
	var table bytes.Buffer
	if err := formats.Write(&table, ev.Document, "table"); err != nil {
		t.Fatal(err)
	}
	if got := table.String(); got != string(want["want.stdout"]) {
		t.Errorf("report:\n%s\nwant (tenet eval):\n%s", got, want["want.stdout"])
	}
	var out bytes.Buffer
	w := runs.NewWriter(&out)
	for _, r := range ev.Runs {
		if err := w.Write(r, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want["want.runs.jsonl"]) {
		t.Errorf("runs:\n%s\nwant (tenet eval --out):\n%s", got, want["want.runs.jsonl"])
	}
}

// TestBuildError: a contract with errors gives a *BuildError listing each
// error at file:line:col, joined to the directory, with its code.
func TestBuildError(t *testing.T) {
	dir := t.TempDir()
	src := "contract \"c\" {}\n\npredicate \"p\" {\n  expr = \"calls.size() + 'x'\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "c.tenet.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := tenet.Build(dir)
	var be *tenet.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a *BuildError", err)
	}
	if be.Files["c.tenet.hcl"] == nil {
		t.Errorf("Files has %d files, want c.tenet.hcl", len(be.Files))
	}
	prefix := filepath.Join(dir, "c.tenet.hcl") + ":4:"
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, prefix) && strings.Contains(line, "] ") {
			return
		}
	}
	t.Fatalf("no error at %s…: [code]:\n%s", prefix, err)
}

// TestLoadBundle: the bytes of a built bundle load back to the same id;
// a trust policy refuses what it does not trust; a changed byte and a
// non-bundle file are refused, naming the file.
func TestLoadBundle(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	again, err := tenet.LoadBundle(b.Bytes(), tenet.ExpectIDs(b.ID()))
	if err != nil || again.ID() != b.ID() || again.Contract().Manifest.Contract != "quickstart-mail" {
		t.Fatalf("LoadBundle(Bytes()): %v", err)
	}
	other := "sha256:" + strings.Repeat("0", 64)
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.ExpectIDs(other)); err == nil || !strings.Contains(err.Error(), "is not the expected bundle "+other) {
		t.Errorf("another id expected: got %v", err)
	}
	seed := sha256.Sum256([]byte("tenet root API test key"))
	key := ed25519.NewKeyFromSeed(seed[:])
	if _, err := tenet.LoadBundle(b.Bytes(), tenet.TrustKeys(key.Public().(ed25519.PublicKey))); err == nil || !strings.Contains(err.Error(), "is not signed") {
		t.Errorf("unsigned bundle, a key trusted: got %v", err)
	}
	signed, err := bundle.Sign(b.Bytes(), key)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := tenet.LoadBundle(signed, tenet.TrustKeys(key.Public().(ed25519.PublicKey)))
	if err != nil || sb.ID() != b.ID() || len(sb.Signers()) != 1 {
		t.Fatalf("signed bundle: %v", err)
	}
	dir := t.TempDir()
	bad := bytes.Clone(b.Bytes())
	bad[len(bad)-1] ^= 0xff
	name := filepath.Join(dir, "bad.tnb")
	if err := os.WriteFile(name, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := tenet.OpenBundle(name); err == nil || !strings.HasPrefix(err.Error(), name+": bundle is corrupt") {
		t.Errorf("flipped byte: got %v", err)
	}
	if _, err := tenet.OpenBundle("examples/quickstart/contract.tenet.hcl"); err == nil || !strings.Contains(err.Error(), "not a tenet bundle") {
		t.Errorf("a contract file: got %v", err)
	}
}

// TestEvaluateBadRecords: a record that is not JSON is an error naming its
// file and line; nothing is returned.
func TestEvaluateBadRecords(t *testing.T) {
	b, err := tenet.Build("examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(name, []byte("{\"metadata\": {}}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := b.Evaluate([]string{name}, tenet.EvalOptions{})
	if ev != nil || err == nil || !strings.HasPrefix(err.Error(), "1 bad record:\n"+name+":2: ") {
		t.Fatalf("got %v, %v", ev, err)
	}
}
