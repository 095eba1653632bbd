package termstyle

import (
	"bytes"
	"os"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestForIsOffWhereColourDoesNotBelong(t *testing.T) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for name, s := range map[string]Style{
		"buffer":     For(&bytes.Buffer{}, env(nil)),
		"not a tty":  For(devnull, env(nil)),
		"NO_COLOR":   For(devnull, env(map[string]string{"NO_COLOR": "1"})),
		"TERM dumb":  For(devnull, env(map[string]string{"TERM": "dumb"})),
		"zero Style": {},
	} {
		if s.Enabled() {
			t.Errorf("%s: colour on", name)
		}
		if got := s.Error("x"); got != "x" {
			t.Errorf("%s: Error(x) = %q, want plain x", name, got)
		}
	}
}

func TestOnColours(t *testing.T) {
	s := On()
	for _, c := range []struct{ got, want string }{
		{s.Error("fail"), "\x1b[1;31mfail\x1b[0m"},
		{s.Warning("w"), "\x1b[33mw\x1b[0m"},
		{s.OK("ok"), "\x1b[32mok\x1b[0m"},
		{s.Bold("h"), "\x1b[1mh\x1b[0m"},
		{s.Dim("d"), "\x1b[2md\x1b[0m"},
		{s.Note("n"), "\x1b[36mn\x1b[0m"},
		{s.Error(""), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
