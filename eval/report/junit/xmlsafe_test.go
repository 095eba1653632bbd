package junit

import "testing"

func TestXMLSafe(t *testing.T) {
	for in, want := range map[string]string{
		"ok\t\n\r é 😀":           "ok\t\n\r é 😀",
		"\x00\x1b\x7f":           "\uFFFD\uFFFD\x7f",
		"a\xffb":                 "a\uFFFDb",
		"\uFFFE\uFFFF\U0010FFFF": "\uFFFD\uFFFD\U0010FFFF",
		"<&>":                    "<&>",
	} {
		if got := xmlSafe(in); got != want {
			t.Errorf("xmlSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
