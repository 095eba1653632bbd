//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeShutdownGrace runs `tenet serve` as a process and sends it
// SIGTERM while a request is in flight — its handler running, reading a
// body that arrives only 1.5 s later, past the one second tenet's main
// gives other commands to stop. The request must still be answered (200,
// and logged), within --shutdown-grace, before tenet exits 130, saying
// how many decisions the log holds. With the old fixed grace (0.9 s) its
// connection was cut and tenet had exited.
func TestServeShutdownGrace(t *testing.T) {
	tenet, err := exec.LookPath("tenet") // the test binary as tenet (testscript.Main)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bundle, logPath := filepath.Join(dir, "x.tnb"), filepath.Join(dir, "decisions.jsonl")
	if out, err := exec.Command(tenet, "build", "../../examples/seed-fixtures", "-o", bundle).CombinedOutput(); err != nil {
		t.Fatalf("tenet build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), interruptBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, tenet, "serve", bundle, "--addr", "127.0.0.1:0", "--log", logPath, "--shutdown-grace", "20s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	var all strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	wait := func(pattern string) string {
		t.Helper()
		re := regexp.MustCompile(pattern)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("tenet serve ended before %q; stderr:\n%s", pattern, all.String())
				}
				all.WriteString(l + "\n")
				if re.MatchString(l) {
					return l
				}
			case <-ctx.Done():
				t.Fatalf("HANG: no line %q; stderr:\n%s", pattern, all.String())
			}
		}
	}
	addr := regexp.MustCompile(`url=http://(\S+)`).FindStringSubmatch(wait(`msg=listening`))[1]
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"call":{"name":"read_fixture","arguments":{"id":"F1"}}}`
	if _, err := io.WriteString(conn, "POST /v1/authorize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// The server says 100 Continue when the handler starts reading the
	// body: the request is then in flight.
	r := bufio.NewReader(conn)
	if l, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(l, "HTTP/1.1 100 Continue") {
		t.Fatalf("want 100 Continue, got %q %v", l, err)
	}
	r.ReadString('\n') // the blank line ending the interim response
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wait(`msg="shutting down" deadline=20s`)
	time.Sleep(1500 * time.Millisecond) // past main's default grace of one second
	if _, err := io.WriteString(conn, body); err != nil {
		t.Fatalf("the connection of the request in flight was cut: %v", err)
	}
	status, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200 ") {
		t.Fatalf("the request in flight: %q %v, want 200; stderr:\n%s", status, err, all.String())
	}
	for l := range lines {
		all.WriteString(l + "\n")
	}
	err = cmd.Wait()
	// tenet says what serve left, not the other commands' "interrupted;
	// nothing written", which the log belies.
	if want := "tenet serve: stopped; 1 decision logged to " + logPath + "\n"; !strings.HasSuffix(all.String(), want) {
		t.Errorf("stderr ends\n%s\nwant it to end %q", all.String(), want)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want code %d", err, exitInterrupted)
	}
	log, err := os.ReadFile(logPath)
	if err != nil || strings.Count(string(log), "\n") != 1 || !strings.Contains(string(log), `"tool":"read_fixture"`) {
		t.Errorf("decision log %q %v: want the request's one entry", log, err)
	}
}
