//go:build unix

package enforce

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval/authorize/session"
)

// TestServeReloadAndShutdown runs the command's server on a free port:
// it answers, a SIGHUP with a bundle that fails verification keeps the
// old bundle (and says so), and cancelling stops it cleanly with the
// decision log written.
func TestServeReloadAndShutdown(t *testing.T) {
	dir := t.TempDir()
	path, logPath := filepath.Join(dir, "x.tnb"), filepath.Join(dir, "decisions.jsonl")
	id := writeBundle(t, "../../../../examples/seed-fixtures", path)
	pr, pw := io.Pipe()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &serveFlags{addr: "127.0.0.1:0", onUnknown: "closed", condition: "live", logPath: logPath, maxBody: 1 << 20,
		lim: session.Limits{MaxSessions: 8, IdleTTL: time.Minute, MaxMessages: 10, MaxHistoryBytes: 1 << 16}}
	done := make(chan error, 1)
	go func() { done <- serveWith(ctx, path, f, pw, bundle.Policy{IDs: []string{id}}) }()
	wait := func(pattern string) string {
		t.Helper()
		re := regexp.MustCompile(pattern)
		for {
			select {
			case l := <-lines:
				if re.MatchString(l) {
					return l
				}
			case err := <-done:
				t.Fatalf("serve returned %v before %q", err, pattern)
			case <-time.After(20 * time.Second):
				t.Fatalf("no line %q", pattern)
			}
		}
	}
	url := regexp.MustCompile(`url=(\S+)`).FindStringSubmatch(wait(`msg=listening .*bundle=` + id))[1]
	resp, err := http.Post(url+"/v1/authorize", "application/json", strings.NewReader(`{"call":{"name":"read_fixture","arguments":{"id":"F1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"allowed":true,"bundle":"`+id+`"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	// Another bundle at the same path is not the expected one: refused.
	writeBundle(t, "../../../../examples/quickstart", path)
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	wait(`level=ERROR msg="reload refused; the bundle in use is kept" bundle=` + id)
	resp, err = http.Get(url + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"status":"ok","bundle":"` + id + `","sessions":0}` + "\n"; string(body) != want {
		t.Errorf("health after a refused reload: %s", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	log, err := os.ReadFile(logPath)
	if err != nil || strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), `"origin":"serve"`) {
		t.Errorf("decision log %q: %v", log, err)
	}
}
