package tenet_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tenetlang/tenet"

// Size limits of docs/architecture.md, in non-test lines of Go.
const (
	maxPackageLines = 2500
	maxEvalLines    = 1500
	maxCLILines     = 1300
)

// TestArchitecture keeps docs/architecture.md and the code in step: every
// package of the module has a row in its package table, imports only the
// tenet packages its row allows, and stays within its size limit.
func TestArchitecture(t *testing.T) {
	rows := readPackageTable(t, filepath.Join("docs", "architecture.md"))
	pkgs := listPackages(t)
	for _, p := range pkgs {
		rel := relPath(p.ImportPath)
		allowed, ok := rows[rel]
		if !ok {
			t.Errorf("package %s has no row in docs/architecture.md's package table", rel)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") && imp != module {
				continue
			}
			if allowed != nil && !slices.Contains(allowed, relPath(imp)) {
				t.Errorf("%s imports %s, which its row in docs/architecture.md does not allow", rel, relPath(imp))
			}
		}
		n := lines(t, p.Dir, p.GoFiles)
		limit := maxPackageLines
		switch rel {
		case "eval":
			limit = maxEvalLines
		case "cmd/tenet":
			limit = maxCLILines
		}
		if n > limit {
			t.Errorf("%s has %d non-test lines, over its limit of %d (docs/architecture.md)", rel, n, limit)
		}
		delete(rows, rel)
	}
	for rel := range rows {
		t.Errorf("docs/architecture.md has a row for %s, which is not a package of the module", rel)
	}
}

type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// listPackages lists the module's packages with go list.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,Imports", "./...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

func relPath(importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

var tableRow = regexp.MustCompile("^\\| `([^`]+)`(?: \\(package `[a-z]+`\\))? \\| [^|]+ \\| ([^|]+) \\|$")

// readPackageTable reads the package table: package → the tenet packages
// it may import (nil: any).
func readPackageTable(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := tableRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		pkg, may := m[1], strings.TrimSpace(m[2])
		if _, dup := rows[pkg]; dup {
			t.Errorf("%s: two rows for %s", path, pkg)
		}
		switch {
		case may == "any package above":
			rows[pkg] = nil
		case may == "—":
			rows[pkg] = []string{}
		default:
			var allowed []string
			for _, part := range strings.Split(may, ",") {
				part = strings.TrimSpace(part)
				if len(part) < 2 || part[0] != '`' || part[len(part)-1] != '`' {
					t.Fatalf("%s: row %s: %q is not a `package`", path, pkg, part)
				}
				allowed = append(allowed, part[1:len(part)-1])
			}
			rows[pkg] = allowed
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("%s: %d package rows read; the table's shape changed?", path, len(rows))
	}
	return rows
}

// lines counts the lines of the package's non-test Go files.
func lines(t *testing.T, dir string, files []string) int {
	t.Helper()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n
}

// TestCmdTenetTestBinaryStartsCheap: the script and hostile tests start
// cmd/tenet's test binary as tenet about 1,200 times, and each start runs
// the init of every package linked in. A JSON Schema validator's init
// (compiling its meta-schemas) once doubled the CPU of each start (docs/
// performance.md, "The default test tier's time"): schema checks belong in
// the tests of the packages that own the schemas (eval/report,
// internal/sarif), not in cmd/tenet's.
func TestCmdTenetTestBinaryStartsCheap(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{.ImportPath}}", "./cmd/tenet").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	costly := []string{"github.com/santhosh-tekuri/jsonschema"}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list named %d packages: not the dependencies of cmd/tenet's tests", len(deps))
	}
	for _, p := range deps {
		for _, c := range costly {
			if strings.HasPrefix(p, c) {
				t.Errorf("cmd/tenet's test binary links %s: move the check that needs it out of cmd/tenet", p)
			}
		}
	}
}
