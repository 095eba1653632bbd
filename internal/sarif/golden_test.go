package sarif

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestGoldenSARIFValid validates every SARIF log tenet's command goldens
// hold against the official SARIF 2.1.0 schema, formats asserted: the
// *.sarif files of the script goldens (testdata/*.txtar at the repository
// root, as check and eval wrote them) and cmd/tenet's AgentDojo banking
// golden. Those tests prove the goldens are what tenet writes, so tenet
// writes valid SARIF. The check lives here, not in cmd/tenet, so that the
// validator's start-up work is not paid by every tenet process the script
// tests start.
func TestGoldenSARIFValid(t *testing.T) {
	root := filepath.Join("..", "..")
	scripts, err := filepath.Glob(filepath.Join(root, "testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".sarif") {
				continue
			}
			n++
			if err := validate(t, f.Data); err != nil {
				t.Errorf("%s: %s is not valid SARIF 2.1.0: %v", filepath.Base(script), f.Name, err)
			}
		}
	}
	// check_syntax_alone, check_formats and eval_sarif hold 6:
	// fewer means the goldens moved and this test checks nothing.
	if n < 6 {
		t.Errorf("%d SARIF goldens found, want at least 6", n)
	}
	banking := filepath.Join(root, "cmd", "tenet", "testdata", "agentdojo-banking.sarif")
	data, err := os.ReadFile(banking)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(t, data); err != nil {
		t.Errorf("%s is not valid SARIF 2.1.0: %v", banking, err)
	}
}
