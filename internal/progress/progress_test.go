package progress

import (
	"bytes"
	"testing"
	"time"
)

// TestProgressLine checks the line's text, its redraw throttle and that
// clearing erases it, with a fake clock.
func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := NewTo(&buf, 1000, func() time.Time { return now })

	now = t0.Add(2 * time.Second)
	p.Update(100, 250) // 25% in 2 s: 6 s to go
	want := "\rjudging: 100 runs read, 50 runs/s, 25%, ETA 0:06\x1b[K"
	if got := buf.String(); got != want {
		t.Fatalf("first line:\n got %q\nwant %q", got, want)
	}
	buf.Reset()
	now = now.Add(Every / 2)
	p.Update(101, 260) // too soon: not redrawn
	if buf.Len() != 0 {
		t.Fatalf("redrawn within %v: %q", Every, buf.String())
	}
	p.Next() // a second contract starts from the first one's counts
	now = t0.Add(4 * time.Second)
	p.Update(99, 490) // 200 runs, 750 bytes of 1000 in 4 s
	want = "\rjudging: 200 runs read, 50 runs/s, 75%, ETA 0:01\x1b[K"
	if got := buf.String(); got != want {
		t.Fatalf("after next:\n got %q\nwant %q", got, want)
	}
	buf.Reset()
	p.Done()
	if got := buf.String(); got != "\r\x1b[K" {
		t.Fatalf("done wrote %q, want the line erased", got)
	}
	buf.Reset()
	p.Done()
	if buf.Len() != 0 {
		t.Fatalf("a second done wrote %q", buf.String())
	}
}

// TestProgressSilent checks that progress stays silent when stderr is
// not a terminal (a buffer, a pipe, a file).
func TestProgressSilent(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, nil, 1, nil)
	p.Update(1, 10)
	p.Next()
	p.Done()
	if buf.Len() != 0 {
		t.Fatalf("wrote %q to a non-terminal", buf.String())
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 59 * time.Second: "0:59", 61*time.Second + 600*time.Millisecond: "1:02",
		3*time.Hour + 5*time.Minute + 7*time.Second: "3:05:07",
	} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}
