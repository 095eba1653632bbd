package enforce

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/authorize/session"
)

func writeBundle(t *testing.T, dir, out string) string {
	t.Helper()
	b, err := tenet.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.ID()
}

func TestLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{{"127.0.0.1:1", true}, {"[::1]:1", true}, {"localhost:1", true}, {":1", false}, {"0.0.0.0:1", false}, {"10.0.0.1:1", false}, {"example.com:1", false}} {
		if ok, err := loopback(tc.addr); err != nil || ok != tc.ok {
			t.Errorf("loopback(%s) = %v, %v", tc.addr, ok, err)
		}
	}
	f := &serveFlags{addr: "0.0.0.0:7480", onUnknown: "closed"}
	err := serve(context.Background(), "x.tnb", f, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "--addr 0.0.0.0:7480 is not a loopback address: the decision point has no authentication") {
		t.Errorf("remote addr: %v", err)
	}
	f = &serveFlags{addr: DefaultAddr, onUnknown: "sometimes"}
	if err := serve(context.Background(), "x.tnb", f, io.Discard); err == nil || !strings.Contains(err.Error(), `on-unknown policy "sometimes"`) {
		t.Errorf("bad policy: %v", err)
	}
}

// TestLoadEngineVerifies: start-up and reload load through the trust
// policy; a bundle that is not the expected one is refused.
func TestLoadEngineVerifies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tnb")
	id := writeBundle(t, "../../../../examples/seed-fixtures", path)
	e, err := LoadEngine(path, bundle.Policy{IDs: []string{id}}, session.Closed, "host")
	if err != nil || e.Auth.Bundle() != id {
		t.Fatalf("LoadEngine: %v", err)
	}
	if _, err := LoadEngine(path, bundle.Policy{}, session.Closed, "admin"); err == nil || !strings.HasSuffix(err.Error(), `--grant "admin" is not declared (the bundle's grants: host)`) {
		t.Errorf("unknown --grant: %v", err)
	}
	other := writeBundle(t, "../../../../examples/quickstart", path)
	_, err = LoadEngine(path, bundle.Policy{IDs: []string{id}}, session.Closed, "")
	if err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("unexpected bundle accepted: %v", err)
	}
}

// TestLoadEngineRefusesNoGrant: a bundle that declares no grant would
// refuse every call; serve refuses it at start and on reload (a refused
// load keeps the bundle in use: server.Reload), with authorize's words.
func TestLoadEngineRefusesNoGrant(t *testing.T) {
	src := t.TempDir()
	contract := `contract "nogrant" {
  version = "1.0.0"
}
threat_model {}
registry { operations = ["read"] }
tool "read_file" {
  operation = "read"
  params    = {}
}
`
	if err := os.WriteFile(filepath.Join(src, "c.tenet.hcl"), []byte(contract), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.tnb")
	writeBundle(t, src, path)
	_, err := LoadEngine(path, bundle.Policy{}, session.Closed, "")
	if want := path + ": the bundle declares no grant: there is nothing to decide calls under (add a grant block to the contract)"; err == nil || err.Error() != want {
		t.Errorf("LoadEngine: %v\nwant %s", err, want)
	}
}
