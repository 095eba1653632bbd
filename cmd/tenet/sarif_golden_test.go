package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestGoldenSARIFValid validates every SARIF log of the script goldens
// (the *.sarif files of testdata/*.txtar, as check and eval wrote them)
// against the official SARIF 2.1.0 schema (internal/sarif/testdata), formats
// asserted: what the goldens hold is what tenet writes, so tenet writes
// valid SARIF.
func TestGoldenSARIFValid(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile("../../internal/sarif/testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Glob("../../testdata/*.txtar")
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
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(f.Data))
			if err != nil {
				t.Errorf("%s: %s: %v", filepath.Base(script), f.Name, err)
				continue
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s: %s is not valid SARIF 2.1.0: %v", filepath.Base(script), f.Name, err)
			}
		}
	}
	// check_syntax_alone, check_formats and eval_sarif hold 6:
	// fewer means the goldens moved and this test checks nothing.
	if n < 6 {
		t.Errorf("%d SARIF goldens found, want at least 6", n)
	}
}
