package transcript

import (
	"strings"
	"testing"
)

// TestErrorIsCut: an error quoting 100,000 digits of a record reads
// file:line and about 1 KiB of its message.
func TestErrorIsCut(t *testing.T) {
	rec := `{"messages":[],"metadata":{"n":` + strings.Repeat("9", 100000) + "}}\n"
	r, err := Open("openai-messages", "f.jsonl", strings.NewReader(rec), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	if err == nil {
		t.Fatal("a number beyond float64 was accepted")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "f.jsonl:1: invalid JSON") || len(msg) > maxErrorMsg+50 || !strings.HasSuffix(msg, "more bytes)") {
		t.Errorf("error of %d bytes: %.100s … %s", len(msg), msg, msg[max(0, len(msg)-40):])
	}
	short := (&Error{File: "f", Line: 2, Msg: "é" + strings.Repeat("x", maxErrorMsg-2)}).Error()
	if short != "f:2: é"+strings.Repeat("x", maxErrorMsg-2) {
		t.Errorf("a message of the limit's length was cut: %q", short[len(short)-20:])
	}
}
