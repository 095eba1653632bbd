package report_test

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: the Document package and the renderers other than
// HTML depend on neither CEL nor gonum, so a program that builds or
// renders a report as JSON does not pull in either; only the HTML
// renderer (and the format table, through it) depends on gonum/plot, and
// no report package depends on CEL. It asks the go command, as a reader
// would check it: go list -deps -json.
func TestDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/tenetlang/tenet/eval/report"
	for _, c := range []struct {
		pkg        string
		cel, gonum bool // allowed
	}{
		{mod, false, false},
		{mod + "/jsonreport", false, false},
		{mod + "/markdown", false, false},
		{mod + "/junit", false, false},
		{mod + "/html", false, true},
		{mod + "/formats", false, true},
	} {
		deps := listDeps(t, c.pkg)
		var cel, gonum []string
		for _, d := range deps {
			switch {
			case strings.HasPrefix(d, "cel.dev/") || strings.HasPrefix(d, "github.com/google/cel-go"):
				cel = append(cel, d)
			case strings.HasPrefix(d, "gonum.org/"):
				gonum = append(gonum, d)
			}
		}
		if len(cel) > 0 && !c.cel {
			t.Errorf("%s depends on CEL: %s", c.pkg, strings.Join(cel, ", "))
		}
		if len(gonum) > 0 && !c.gonum {
			t.Errorf("%s depends on gonum: %s", c.pkg, strings.Join(gonum, ", "))
		}
		if c.pkg == mod+"/html" && len(gonum) == 0 {
			t.Errorf("%s does not depend on gonum/plot: is the list of dependencies right?", c.pkg)
		}
	}
}

// listDeps returns the import paths of pkg and everything it depends on.
func listDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-json", pkg).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list %s: %v\n%s", pkg, err, ee.Stderr)
		}
		t.Fatalf("go list %s: %v", pkg, err)
	}
	var paths []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct{ ImportPath string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		paths = append(paths, p.ImportPath)
	}
	if len(paths) < 2 {
		t.Fatalf("go list %s: %d packages", pkg, len(paths))
	}
	return paths
}
