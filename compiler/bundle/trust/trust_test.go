package main

import (
	"os"
	"strings"
	"testing"
)

// TENET_VERIFY_KEY: unset adds no key; set, every entry must name a file
// (review finding 3: ":" and "" turned verification off).
func TestEnvKeyFiles(t *testing.T) {
	if os.PathListSeparator != ':' {
		t.Skip("the cases separate entries with ':'")
	}
	for _, tc := range []struct {
		value string
		files []string
		err   string
	}{
		{"a.pub", []string{"a.pub"}, ""},
		{"a.pub:b.pub", []string{"a.pub", "b.pub"}, ""},
		{"", nil, `TENET_VERIFY_KEY is set but empty ("")`},
		{"  ", nil, `TENET_VERIFY_KEY is set but empty ("  ")`},
		{":", nil, `TENET_VERIFY_KEY=":": entry 1 of 2 is empty`},
		{"a.pub::b.pub", nil, `TENET_VERIFY_KEY="a.pub::b.pub": entry 2 of 3 is empty`},
		{"a.pub: ", nil, `TENET_VERIFY_KEY="a.pub: ": entry 2 of 2 is empty`},
		{strings.Repeat("x", 300) + ":", nil, `… (101 more bytes): entry 2 of 2 is empty`},
	} {
		t.Setenv(verifyKeyEnv, tc.value)
		files, err := envKeyFiles()
		if tc.err == "" {
			if err != nil || strings.Join(files, "|") != strings.Join(tc.files, "|") {
				t.Errorf("%q: got %q, %v; want %q", tc.value, files, err, tc.files)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) || files != nil {
			t.Errorf("%q: got %q, %v; want an error containing %q", tc.value, files, err, tc.err)
		}
	}
}
