// Package shared locates the shared data folder that tests read real inputs
// from (docs/architecture.md): ../shared next to the module root, holding e.g. the
// AgentDojo transcripts under agentdojo/. The data is never copied into the
// repository.
package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of the shared data folder: $TENET_SHARED when
// set, else ../shared relative to the module root (the nearest directory
// above the working directory that holds go.mod). When the folder does not
// exist the test is skipped with a message, or fails when
// TENET_REQUIRE_SHARED=1.
func Dir(t testing.TB) string {
	t.Helper()
	dir, how := os.Getenv("TENET_SHARED"), "$TENET_SHARED"
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			missing(t, "cannot locate the module root: "+err.Error())
			return ""
		}
		dir, how = filepath.Join(root, "..", "shared"), "../shared from the module root"
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		dir = abs
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		missing(t, "shared data folder "+dir+" ("+how+") not found; set TENET_SHARED to its path")
		return ""
	}
	return dir
}

func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("TENET_REQUIRE_SHARED") == "1" {
		t.Fatal(msg + " (TENET_REQUIRE_SHARED=1)")
	}
	t.Skip(msg)
}

func moduleRoot() (string, error) {
	start, err := os.Getwd()
	if err != nil {
		return "", err
	}
	dir := start
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod in %s or above", start)
		}
		dir = parent
	}
}
