package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestEvalContextCancelled: a cancelled Options.Context ends the
// evaluation with its error, at the next record.
func TestEvalContextCancelled(t *testing.T) {
	p := evaltest.Program(t, filepath.Join("..", "..", "testdata", "hostile", "_shared", "tiny"))
	rec := `{"messages":[{"role":"user","content":"6*7?"},{"role":"assistant","content":"42"}],"metadata":{"task":"answer","agent":"a"}}` + "\n"
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(strings.Repeat(rec, 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, workers := range []int{1, 4} {
		_, err := EvalFiles(p, []string{path}, Options{Context: ctx, Workers: workers})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("workers %d: error %v, want context.Canceled", workers, err)
		}
	}
	if _, err := EvalFiles(p, []string{path}, Options{Context: context.Background()}); err != nil {
		t.Errorf("a live context: %v", err)
	}
}
