package lang

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestContractDirs: a contract directory is itself; a collection is its
// contract subdirectories in name order; a directory with neither is an
// error that says so.
func TestContractDirs(t *testing.T) {
	coll := filepath.Join("..", "contracts", "agentdojo")
	got, err := ContractDirs(coll)
	want := []string{filepath.Join(coll, "banking"), filepath.Join(coll, "slack"), filepath.Join(coll, "travel"), filepath.Join(coll, "workspace")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("collection: %v, %v; want %v", got, err, want)
	}
	if got, err := ContractDirs(want[0]); err != nil || !slices.Equal(got, want[:1]) {
		t.Errorf("contract: %v, %v", got, err)
	}
	empty := t.TempDir()
	if _, err := ContractDirs(empty); err == nil || err.Error() != empty+" holds no *.tenet.hcl files and no contract directories" {
		t.Errorf("empty: %v", err)
	}
}
