package format

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// TestFormatDiagnosticsHaveCodes: every diagnostic Format gives a file it
// refuses carries a code registered in lang/diag (HCL's own included), as
// lang's TestEveryDiagnosticHasACode requires of check.
func TestFormatDiagnosticsHaveCodes(t *testing.T) {
	for src, want := range map[string]diag.Code{
		`contract "c" {`:                                         diag.HCLSyntax,
		`task "t" { utility = "x }`:                              diag.HCLSyntax,
		"task \"t\" { utility = \"\\q\" }":                       diag.HCLSyntax,
		`task "t" { utility = "a" utility = "b" }`:               diag.HCLSyntax,
		"task \"t\" {\n  a = 1\n  a = 2\n}\n":                    diag.DuplicateAttribute,
		"\x00\xff":                                               diag.HCLSyntax,
		"params {\n  x = " + nested(129) + "\n}\n":               diag.NestingTooDeep,
		"a = <<-EOT\n" + strings.Repeat("x\n", 10_001) + "EOT\n": diag.StringTooLarge,
		"a = null.x\n":                                           diag.InvalidValue,
	} {
		out, diags := Format([]byte(src), "a.tenet.hcl")
		if out != nil || len(diags) == 0 || diag.Of(diags[0]) != want {
			t.Errorf("%.40q: output %d bytes, diagnostics %q; want the first with code %s", src, len(out), diags, want)
		}
		for _, d := range diags {
			if info, ok := diag.Lookup(diag.Of(d)); !ok || info.Severity != d.Severity {
				t.Errorf("%.40q: diagnostic %q has no registered code of its severity", src, render(d))
			}
		}
	}
}

// TestRun: Run lists what is not formatted and rewrites it only when told
// to, leaves a file that does not parse alone and reports it, and Files
// refuses paths that hold no contract file.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o640); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ugly := write("a.tenet.hcl", "contract  \"c\" {}\n")
	write("b.tenet.hcl", "contract \"c\" {}\n")
	bad := write("c.tenet.hcl", "contract \"c\" {\n")
	write("d.txt", "not a contract\n")

	for _, w := range []bool{false, true} {
		res, err := Run([]string{dir, ugly}, w) // ugly is listed once
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Changed, []string{ugly}) {
			t.Errorf("write=%v: changed %q, want %q", w, res.Changed, ugly)
		}
		if len(res.Failed) != 1 || res.Failed[0].Name != filepath.ToSlash(bad) || diag.Of(res.Failed[0].Diags[0]) != diag.HCLSyntax || res.Failed[0].File.Body == nil {
			t.Errorf("write=%v: failed %+v, want %s with hcl-syntax and its parsed file", w, res.Failed, bad)
		}
		got, _ := os.ReadFile(ugly)
		if want := map[bool]string{false: "contract  \"c\" {}\n", true: "contract \"c\" {}\n"}[w]; string(got) != want {
			t.Errorf("write=%v: %s holds %q, want %q", w, ugly, got, want)
		}
	}
	if st, err := os.Stat(ugly); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("rewritten file: %v, %v; want mode 0640 kept", st.Mode(), err)
	}
	if _, err := Files([]string{filepath.Join(dir, "d.txt")}); err == nil || !strings.Contains(err.Error(), "is not a contract file (*"+lang.FileSuffix+")") {
		t.Errorf("Files(d.txt) = %v", err)
	}
	if _, err := Files([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "holds no *"+lang.FileSuffix+" file") {
		t.Errorf("Files(empty dir) = %v", err)
	}
}
