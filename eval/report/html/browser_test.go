//go:build unix

package html_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The browser tests load the HTML report in headless Chromium, offline:
// the page must parse into the DOM we meant (plots present, no script
// element created by a hostile name) and render. They are skipped only
// when no Chromium is installed. Unix only: a hung browser is killed with
// its whole process group.

// browser returns the path of a Chromium binary, or skips the test.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium (chromium, chromium-browser or google-chrome on PATH): the HTML report is not checked in a browser")
	return ""
}

// headless runs Chromium headless, offline, on the page with args and
// returns its standard output; a browser that does not finish within 45
// seconds (it takes 2 to 5; a script calling alert() would hang it) fails
// the test.
func headless(t *testing.T, bin, page string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1400,3000"}
	cmd := exec.CommandContext(ctx, bin, append(append(flags, args...), "file://"+page)...)
	// Chromium forks helpers (zygote, GPU, renderers): on timeout kill
	// them all, not just the launcher.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	return stdout.Bytes()
}

// checkInBrowser loads the page in Chromium: the DOM it builds has the
// plots and no script element (the hostile names stayed text), and a
// screenshot is taken (also to $TENET_REPORT_PNG when set and corpus).
func checkInBrowser(t *testing.T, page string, plots int, png string) {
	bin := browser(t)
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, bin, file, "--dump-dom"))
	if n := strings.Count(dom, "<svg"); n != plots {
		t.Errorf("the browser's DOM has %d svg elements, want %d", n, plots)
	}
	if !strings.Contains(dom, "</html>") {
		t.Errorf("the browser dumped no document:\n%.500s", dom)
	}
	if strings.Contains(dom, "<script") {
		t.Error("the browser's DOM has a script element")
	}
	if png == "" {
		png = filepath.Join(t.TempDir(), "report.png")
	}
	headless(t, bin, file, "--screenshot="+png)
	if fi, err := os.Stat(png); err != nil || fi.Size() < 10000 {
		t.Errorf("screenshot %s: %v", png, err)
	}
}

func TestHTMLInBrowser(t *testing.T) {
	d := unitDocument(t)
	checkInBrowser(t, renderHTML(t, d), 2, "")
}

func TestHTMLAgentDojoCorpusInBrowser(t *testing.T) {
	browser(t)
	d := corpusDocument(t)
	checkInBrowser(t, renderHTML(t, d), 9, os.Getenv("TENET_REPORT_PNG"))
}
