package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree creates files (slash paths relative to dir, "/" suffix for an
// empty directory) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestUseLoads(t *testing.T) {
	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"banking/main.tenet.hcl": `contract "banking" {}
use "../common" {}
use "lib" { as = "local" }
predicate "p" { expr = "pred.common.sent" }
`,
		"banking/lib/a.tenet.hcl": `use "../../common" { as = "shared" }
predicate "q" { expr = "true" }
`,
		"common/send.tenet.hcl": `tool "send_money" { operation = "update" }
predicate "sent" { expr = "calls.exists(c, c.tool == 'send_money')" }
`,
		"common/z.tenet.hcl": `contract "common" { version = "1" }
params {
  iban = "X"
}
`,
	})
	t.Chdir(tmp)
	m, diags := ParseDir("banking")
	checkDiags(t, diags)
	if len(m.Imports) != 2 {
		t.Fatalf("imports = %+v", m.Imports)
	}
	common, local := m.Imports[0], m.Imports[1]
	if common.Namespace != "common" || common.Use != m.Uses[0] || local.Namespace != "local" || local.Use != m.Uses[1] {
		t.Errorf("imports = %+v %+v", common, local)
	}
	c := common.Module
	if c.Dir != "common" || len(c.Files) != 2 || c.Files[0].Path != "../common/send.tenet.hcl" ||
		c.Files[1].Path != "../common/z.tenet.hcl" || c.Contract == nil || c.Contract.Name.Value != "common" ||
		len(c.Tools) != 1 || len(c.Predicates) != 1 || len(c.Params) != 1 {
		t.Errorf("common = %+v", c)
	}
	if got := rng(c.Predicates[0].Expr.Range); got != "../common/send.tenet.hcl:2:27-2:68" {
		t.Errorf("imported criterion range = %s", got)
	}
	if got := rng(c.Predicates[0].Expr.RangeOf(0, 5)); got != "../common/send.tenet.hcl:2:28-2:33" {
		t.Errorf("imported criterion RangeOf = %s", got)
	}
	l := local.Module
	if l.Dir != filepath.Join("banking", "lib") || l.Contract != nil || len(l.Files) != 1 || l.Files[0].Path != "lib/a.tenet.hcl" ||
		len(l.Imports) != 1 || l.Imports[0].Namespace != "shared" || l.Imports[0].Module != c {
		t.Errorf("local = %+v", l)
	}
	if got := rng(l.Uses[0].Path.Range); got != "lib/a.tenet.hcl:1:5-1:19" {
		t.Errorf("use range = %s", got)
	}
	if got := m.Imported(); len(got) != 2 || got[0] != c || got[1] != l {
		t.Errorf("Imported = %v", got)
	}
	fm := m.FileMap()
	var names []string
	for n := range fm {
		names = append(names, n)
	}
	if len(fm) != 4 || fm["../common/z.tenet.hcl"] != c.Files[1].HCL || fm["lib/a.tenet.hcl"] != l.Files[0].HCL || fm["main.tenet.hcl"] == nil {
		t.Errorf("FileMap = %v", names)
	}

	// The same paths from another working directory.
	abs, _ := filepath.Abs("banking")
	t.Chdir(t.TempDir())
	m2, diags := ParseDir(abs)
	checkDiags(t, diags)
	if len(m2.Imports) != 2 || m2.Imports[0].Module.Files[0].Path != "../common/send.tenet.hcl" ||
		m2.Imports[0].Module.Dir != filepath.Join(abs, "..", "common") {
		t.Errorf("from elsewhere: %+v", m2.Imports)
	}
}

func TestUseErrors(t *testing.T) {
	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"a/main.tenet.hcl": `contract "a" {}
use "../b" {}
use "." { as = "self" }
use "../commn" {}
use "../nothing/here" {}
use "../file.txt" { as = "f" }
use "../empty" {}
use "../lib1" {}
use "../b/../b" { as = "again" }
`,
		"b/b.tenet.hcl": `use "../a" {}
tool "t" { operation = 1 }
`,
		"common/x.tenet.hcl": "",
		"file.txt":           "x",
		"empty/":             "",
		"lib1/l.tenet.hcl":   `use "../lib2" {}`,
		"lib2/l.tenet.hcl":   `use "../lib1" {}`,
	})
	_, diags := ParseDir(filepath.Join(tmp, "a"))
	checkDiags(t, diags,
		`[wrong-value-type] ../b/b.tenet.hcl:2:24-2:25: Incorrect attribute value type: Inappropriate value for attribute "operation": a string is required, not number.`,
		`[use-cycle] ../b/b.tenet.hcl:1:5-1:11: Import cycle: Contract directories import each other in a cycle: a → ../b → a. Move what they share into a directory they all import.`,
		`[use-cycle] main.tenet.hcl:3:5-3:8: Import cycle: Contract directories import each other in a cycle: a → a. Move what they share into a directory they all import.`,
		`[use-missing] main.tenet.hcl:4:5-4:15: Imported directory not found: There is no directory "../commn" relative to the directory of this file. Did you mean "../common"?`,
		`[use-missing] main.tenet.hcl:5:5-5:22: Imported directory not found: There is no directory "../nothing/here" relative to the directory of this file.`,
		`[use-missing] main.tenet.hcl:6:5-6:18: Imported directory not found: "../file.txt" is a file; a use block imports a contract directory.`,
		`[use-missing] main.tenet.hcl:7:5-7:15: Imported directory not found: The directory "../empty" holds no *.tenet.hcl file to import.`,
		`[use-cycle] ../lib2/l.tenet.hcl:1:5-1:14: Import cycle: Contract directories import each other in a cycle: ../lib1 → ../lib2 → ../lib1. Move what they share into a directory they all import.`,
		`[use-duplicate] main.tenet.hcl:9:5-9:16: Directory imported twice: This contract already imports "../b" as "b" at main.tenet.hcl:2:1; import a directory once, under one namespace.`,
	)
}

func TestUseTooDeep(t *testing.T) {
	tmp := t.TempDir()
	files := map[string]string{}
	for i := 0; i <= MaxUseDepth+2; i++ {
		files[fmt.Sprintf("d%d/m.tenet.hcl", i)] = fmt.Sprintf("use \"../d%d\" {}\n", i+1)
	}
	files["d0/m.tenet.hcl"] = "contract \"c\" {}\n" + files["d0/m.tenet.hcl"]
	files[fmt.Sprintf("d%d/m.tenet.hcl", MaxUseDepth+2)] = "\n"
	writeTree(t, tmp, files)
	m, diags := ParseDir(filepath.Join(tmp, "d0"))
	checkDiags(t, diags, fmt.Sprintf(
		"[use-too-deep] ../d%d/m.tenet.hcl:1:5-1:13: Imports nest too deep: This use block would import a directory %d levels deep; tenet refuses chains of use blocks deeper than %d.",
		MaxUseDepth, MaxUseDepth+1, MaxUseDepth))
	if got := len(m.Imported()); got != MaxUseDepth {
		t.Errorf("%d modules imported", got)
	}
}
