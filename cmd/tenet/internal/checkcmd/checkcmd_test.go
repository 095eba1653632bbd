package checkcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/termstyle"
)

type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// run runs check with args, its text coloured by style, in an environment
// of env, and returns stdout, stderr and the error.
func run(t *testing.T, style termstyle.Style, env map[string]string, args ...string) (string, string, error) {
	t.Helper()
	cmd := Command(Env{
		Exit:   func(code int) error { return exitCode(code) },
		Getenv: func(k string) string { return env[k] },
		Style:  func(io.Writer) termstyle.Style { return style },
	})
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs(append([]string{"--no-cache"}, args...))
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return stdout.String(), stderr.String(), err
}

func contract(t *testing.T, src string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.tenet.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTextColour: on a terminal (a Style that colours) the severity and
// the code are coloured; elsewhere (the zero Style: a pipe, a file,
// NO_COLOR) the text is plain, byte for byte.
func TestTextColour(t *testing.T) {
	dir := contract(t, "contract \"c\" {\n  verison = \"1\"\n}\n")
	_, plain, err := run(t, termstyle.Style{}, nil, dir)
	if err != exitCode(exitBad) {
		t.Fatalf("err %v, want exit 2", err)
	}
	_, coloured, _ := run(t, termstyle.On(), nil, dir)
	for _, want := range []string{"\x1b[2m[unknown-attribute]\x1b[0m ", "\x1b[1;31mError\x1b[0m: Unsupported argument", "\x1b[33mWarning\x1b[0m: No source block"} {
		if !strings.Contains(coloured, want) {
			t.Errorf("coloured output lacks %q:\n%q", want, coloured)
		}
	}
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("plain output has escapes: %q", plain)
	}
	stripped := strings.NewReplacer("\x1b[1m", "", "\x1b[2m", "", "\x1b[1;31m", "", "\x1b[33m", "", "\x1b[0m", "").Replace(coloured)
	if stripped != plain {
		t.Errorf("coloured output is not the plain one coloured:\n%s\n---\n%s", stripped, plain)
	}
}

// TestGitHubActionsAnnotatesAfterText: GITHUB_ACTIONS=true adds the
// workflow commands on stderr after the text, and nothing on stdout.
func TestGitHubActionsAnnotatesAfterText(t *testing.T) {
	dir := contract(t, "contract \"c\" {\n  verison = \"1\"\n}\n")
	stdout, stderr, _ := run(t, termstyle.Style{}, map[string]string{"GITHUB_ACTIONS": "true"}, dir)
	if stdout != "" {
		t.Errorf("stdout %q", stdout)
	}
	want := fmt.Sprintf("::error file=%s,line=2,col=3,title=[unknown-attribute] Unsupported argument::", filepath.ToSlash(filepath.Join(dir, "c.tenet.hcl")))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, want) {
		t.Errorf("last stderr line %q, want the annotation %s…", last, want)
	}
}
