package errwriter

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// failAfter accepts n bytes, then fails.
type failAfter struct {
	n   int
	got strings.Builder
}

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		f.got.Write(p[:f.n])
		n := f.n
		f.n = 0
		if n > 0 {
			return n, nil // a short write without an error
		}
		return 0, errFull
	}
	f.n -= len(p)
	f.got.Write(p)
	return len(p), nil
}

// TestWriterKeepsFirstError: a short write is io.ErrShortWrite, and once a
// write failed nothing more reaches the underlying writer.
func TestWriterKeepsFirstError(t *testing.T) {
	f := &failAfter{n: 5}
	w := New(f)
	if _, err := w.Write([]byte("abc")); err != nil || w.Err() != nil {
		t.Fatalf("first write: %v, Err %v", err, w.Err())
	}
	if n, err := w.Write([]byte("defg")); n != 2 || err != io.ErrShortWrite {
		t.Fatalf("short write: %d, %v; want 2, io.ErrShortWrite", n, err)
	}
	if n, err := w.Write([]byte("h")); n != 0 || err != io.ErrShortWrite {
		t.Fatalf("after the failure: %d, %v; want 0, io.ErrShortWrite", n, err)
	}
	if f.got.String() != "abcde" || w.Err() != io.ErrShortWrite {
		t.Fatalf("wrote %q, Err %v; want \"abcde\", io.ErrShortWrite", f.got.String(), w.Err())
	}
}

// TestUnderlying: a command asks the writer under its checked stdout
// whether it is a terminal, so Underlying must give that writer itself.
func TestUnderlying(t *testing.T) {
	var b strings.Builder
	if got := New(&b).Unwrap(); got != io.Writer(&b) {
		t.Errorf("Underlying() = %v, want the writer given to New", got)
	}
}
