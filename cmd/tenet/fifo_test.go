//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// makeFIFO makes a named pipe (gen FILE fifo of the hostile cases).
func makeFIFO(path string) error { return syscall.Mkfifo(path, 0o644) }

// pipedRun is what one command printed and wrote.
type pipedRun struct {
	code           int
	stdout, stderr string
	files          map[string]string
}

// runPipedCmd runs tenet in the current directory and reads back outputs.
func runPipedCmd(args []string, outputs []string) pipedRun {
	var stdout, stderr bytes.Buffer
	r := pipedRun{code: Main(args, &stdout, &stderr), stdout: stdout.String(), stderr: stderr.String(), files: map[string]string{}}
	for _, o := range outputs {
		b, err := os.ReadFile(o)
		if err != nil {
			r.files[o] = "[" + err.Error() + "]"
		} else {
			r.files[o] = string(b)
		}
		os.Remove(o)
	}
	return r
}

// feedPipe writes data to the named pipe once a reader opens it, in the
// background; the returned function waits for it (and unblocks the writer
// if nobody ever read, so that a failing test does not leak it).
func feedPipe(t *testing.T, fifo string, data []byte) func() {
	done := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
		if err != nil {
			done <- err
			return
		}
		_, err = w.Write(data)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	return func() {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("feeding %s: %v", fifo, err)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
		// Nobody opened the pipe: open it to release the writer.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer r.Close()
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		t.Errorf("tenet never read %s", fifo)
	}
}

// TestPipedInputs: transcripts (eval, explain) and runs files (report,
// compare) are streamed, so they may be pipes — a named pipe, or what a
// shell's <(zcat runs.jsonl.gz) gives (/dev/fd/N). Each command gives
// byte for byte what it gives with the same data in a regular file of the
// same name. The transcript is larger than a pipe's buffer (64 KiB), so the
// writer really waits for tenet to read.
func TestPipedInputs(t *testing.T) {
	contract, err := os.ReadFile(filepath.Join(hostileDir, "_shared", "tiny", "main.tenet.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	var transcript bytes.Buffer
	for i := range 600 {
		answer := []string{"42", "41"}[i%2]
		fmt.Fprintf(&transcript, `{"messages":[{"role":"user","content":"6*7?"},{"role":"assistant","content":"%s"}],"metadata":{"task":"answer","agent":"agent-%03d"}}`+"\n", answer, i)
	}
	if transcript.Len() < 64<<10 {
		t.Fatalf("the transcript has %d bytes, want more than a pipe holds", transcript.Len())
	}
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("tiny", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("tiny/main.tenet.hcl", contract, 0o644); err != nil {
		t.Fatal(err)
	}
	// The runs file that report and compare read.
	if err := os.WriteFile("in.jsonl", transcript.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := runPipedCmd([]string{"eval", "tiny", "in.jsonl", "--out", "runs.jsonl"}, []string{"runs.jsonl"})
	runsData := ref.files["runs.jsonl"]
	if ref.code != 0 || strings.Count(runsData, "\n") != 600 {
		t.Fatalf("eval: exit %d, %d runs\n%s", ref.code, strings.Count(runsData, "\n"), ref.stderr)
	}
	os.Remove("in.jsonl")

	for _, c := range []struct {
		name    string
		args    []string
		input   string
		data    string
		outputs []string
		code    int
	}{
		{"eval", []string{"eval", "tiny", "in.jsonl", "--out", "runs.jsonl", "--format", "json", "--report-out", "report.json"},
			"in.jsonl", transcript.String(), []string{"runs.jsonl", "report.json"}, 0},
		{"explain", []string{"explain", "tiny", "--run", "agent-598/answer", "in.jsonl"},
			"in.jsonl", transcript.String(), nil, 0},
		{"report", []string{"report", "--contract", "tiny", "saved.jsonl", "--format", "markdown"},
			"saved.jsonl", runsData, nil, 0},
		{"compare", []string{"compare", "--reference", "agent-000", "--defended", "agent-001", "saved.jsonl", "--format", "json"},
			"saved.jsonl", runsData, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(c.input, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			want := runPipedCmd(c.args, c.outputs)
			os.Remove(c.input)
			if want.code != c.code || want.stdout == "" && len(c.outputs) == 0 {
				t.Fatalf("from a regular file: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", want.code, c.code, want.stdout, want.stderr)
			}

			if err := makeFIFO(c.input); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(c.input)
			wait := feedPipe(t, c.input, []byte(c.data))
			got := runPipedCmd(c.args, c.outputs)
			wait()
			comparePiped(t, "a named pipe", got, want)

			// /dev/fd/N, as <(cmd) gives: the input's name differs, so it
			// is put back before comparing.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			name := fmt.Sprintf("/dev/fd/%d", r.Fd())
			go func() {
				w.Write([]byte(c.data))
				w.Close()
			}()
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, c.input, name)
			}
			got = runPipedCmd(args, c.outputs)
			got.stdout = strings.ReplaceAll(got.stdout, name, c.input)
			for o, data := range got.files {
				got.files[o] = strings.ReplaceAll(data, name, c.input)
			}
			comparePiped(t, name, got, want)
		})
	}
}

func comparePiped(t *testing.T, what string, got, want pipedRun) {
	t.Helper()
	if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
		t.Errorf("from %s: exit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s",
			what, got.code, want.code, head([]byte(got.stdout)), head([]byte(want.stdout)), got.stderr, want.stderr)
	}
	for o, data := range want.files {
		if got.files[o] != data {
			t.Errorf("from %s: %s differs:\n%s\nwant:\n%s", what, o, head([]byte(got.files[o])), head([]byte(data)))
		}
	}
}
