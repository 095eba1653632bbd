package jsonl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// records reads every record of in with limit, rendering each as
// "LINE:TEXT", a too-long line as "LINE:too long", a read error as
// "LINE:error: ...".
func records(in io.Reader, limit int) []string {
	r := NewReader(in, limit)
	var out []string
	for {
		line, err := r.Next()
		var tl *TooLongError
		switch {
		case err == io.EOF:
			return out
		case errors.As(err, &tl):
			out = append(out, fmt.Sprintf("%d:too long", r.Line()))
		case err != nil:
			out = append(out, fmt.Sprintf("%d:error: %v", r.Line(), err))
		default:
			out = append(out, fmt.Sprintf("%d:%s", r.Line(), line))
		}
	}
}

func TestReaderFraming(t *testing.T) {
	cases := []struct {
		in    string
		limit int
		want  string
	}{
		// "\r\n" and a final "\r" end a line; another "\r" is content.
		{"a\r\nb\nc\r", 10, "1:a|2:b|3:c"},
		{"a\rb\n", 10, "1:a\rb"},
		// A BOM only on line 1; blank lines are not records but count.
		{"\ufeffx\n\n  \r\n\ufeffy", 10, "1:x|4:\ufeffy"},
		// The limit excludes the line ending, also a final "\r".
		{"abcd\r\nabcde\nabcd\r", 4, "1:abcd|2:too long|3:abcd"},
		// A long line is skipped and reading goes on.
		{strings.Repeat("z", 100) + "\nok\n", 8, "1:too long|2:ok"},
		{"", 4, ""},
	}
	for _, c := range cases {
		if got := strings.Join(records(strings.NewReader(c.in), c.limit), "|"); got != c.want {
			t.Errorf("%q (limit %d): got %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestReaderReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader("a\nbb"), iotest.ErrReader(errors.New("disk gone")))
	got := strings.Join(records(in, 10), "|")
	if want := "1:a|2:error: disk gone"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTooLongError(t *testing.T) {
	want := "record longer than the limit of 5 bytes (raise it with --max-record-bytes)"
	if got := (&TooLongError{Limit: 5}).Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDeeperThan(t *testing.T) {
	for _, c := range []struct {
		data string
		max  int
		want bool
	}{
		{`[]`, 1, false},
		{`[[]]`, 1, true},
		{`{"a":[1]}`, 2, false},
		{`{"a":[[1]]}`, 2, true},
		{`["[[[", "{{{"]`, 1, false},
		{`["\"[[[", "\\", [1]]`, 1, true}, // the string ends after \\: the list counts
		{`["\\\"[[[ ", 1]`, 1, false},     // \\ then \": still inside the string
		{`[1, "\u005b\u005b"]`, 1, false}, // escaped brackets are no brackets
		{`[[]] [[[]]]`, 2, true},          // counting goes on past the first value
		{`"unterminated [[[`, 0, false},   // not validated: the decoder reports it
	} {
		if got := DeeperThan([]byte(c.data), c.max); got != c.want {
			t.Errorf("DeeperThan(%s, %d) = %v, want %v", c.data, c.max, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	short := strings.Repeat("x", MaxMessageBytes)
	if got := Clip(short); got != short {
		t.Errorf("a message of the limit was cut: %d bytes", len(got))
	}
	long := strings.Repeat("x", MaxMessageBytes-1) + "é" + "yz"
	want := strings.Repeat("x", MaxMessageBytes-1) + "… (4 more bytes)"
	if got := Clip(long); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
