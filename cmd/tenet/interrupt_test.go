//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptBound is how long an interrupted tenet may take to exit: a hang
// detector, generous for a loaded machine (tenet gives a command one
// second to stop, then exits).
const interruptBound = 30 * time.Second

// TestInterrupt sends SIGINT (or SIGTERM) to a tenet process while it
// reads a named pipe the test holds open — a slow input: a transcript for
// eval (with --out, --report-out or both), a runs file for report. Each
// time tenet must exit 130 within interruptBound, say "tenet: interrupted;
// nothing written" on stderr, print no Go panic, and leave the directory
// as it was: no output, no temporary file, an existing output untouched.
func TestInterrupt(t *testing.T) {
	tenet, err := exec.LookPath("tenet") // the test binary, installed by testscript.Main; its tenet runs runMain
	if err != nil {
		t.Fatal(err)
	}
	contract, err := os.ReadFile(filepath.Join(hostileDir, "_shared", "tiny", "main.tenet.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	record := []byte(`{"messages":[{"role":"user","content":"6*7?"},{"role":"assistant","content":"42"}],"metadata":{"task":"answer","agent":"a"}}` + "\n")
	for _, c := range []struct {
		name string
		args []string
		pipe string // the named pipe tenet reads
		sig  syscall.Signal
	}{
		{"eval --out", []string{"eval", "tiny", "slow.jsonl", "--out", "runs.jsonl"}, "slow.jsonl", syscall.SIGINT},
		{"eval --report-out", []string{"eval", "tiny", "slow.jsonl", "--report-out", "report.json", "--format", "json"}, "slow.jsonl", syscall.SIGINT},
		{"eval both, SIGTERM", []string{"eval", "tiny", "slow.jsonl", "--out", "runs.jsonl", "--report-out", "report.md", "--format", "markdown"}, "slow.jsonl", syscall.SIGTERM},
		// A contract file can no longer be slow (a named pipe is refused,
		// see the fifo_ hostile cases); a runs file can.
		{"report --report-out", []string{"report", "slow.runs", "--report-out", "runs.jsonl"}, "slow.runs", syscall.SIGINT},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Each case waits out tenet's second of grace: in parallel.
			t.Parallel()
			dir := t.TempDir()
			for name, data := range map[string][]byte{
				"tiny/main.tenet.hcl": contract,
				"runs.jsonl":          []byte("the previous runs file\n"),
			} {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pipe := filepath.Join(dir, c.pipe)
			os.MkdirAll(filepath.Dir(pipe), 0o755)
			if err := syscall.Mkfifo(pipe, 0o644); err != nil {
				t.Skipf("no named pipes: %v", err)
			}
			before := listFiles(t, dir)

			ctx, cancel := context.WithTimeout(context.Background(), interruptBound)
			defer cancel()
			cmd := exec.CommandContext(ctx, tenet, c.args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Opening the pipe for writing returns once tenet has opened it
			// to read: tenet is then running, its signal handler installed.
			opened := make(chan *os.File, 1)
			go func() {
				w, err := os.OpenFile(pipe, os.O_WRONLY, 0)
				if err != nil {
					t.Error(err)
				}
				opened <- w
			}()
			var w *os.File
			select {
			case w = <-opened:
			case <-ctx.Done():
				t.Fatal("tenet never opened its input")
			}
			defer w.Close()
			if strings.HasSuffix(c.pipe, ".jsonl") {
				w.Write(record) // a first record; the rest is slow to come
			}
			time.Sleep(100 * time.Millisecond)
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if ctx.Err() != nil {
				t.Fatalf("HANG: tenet did not exit within %v of the signal", interruptBound)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Errorf("exit: %v, want code %d", err, exitInterrupted)
			}
			if got := stderr.String(); !strings.HasSuffix(got, "tenet: interrupted; nothing written\n") || crashRE.MatchString(got) {
				t.Errorf("stderr:\n%s\nwant it to end with the line: tenet: interrupted; nothing written", got)
			}
			if after := listFiles(t, dir); !slices.Equal(after, before) {
				t.Errorf("files after the interrupt:\n%q\nbefore:\n%q", after, before)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "runs.jsonl")); string(b) != "the previous runs file\n" {
				t.Errorf("the previous runs.jsonl was changed: %q", b)
			}
		})
	}
}
