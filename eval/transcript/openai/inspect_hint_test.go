package openai

import "testing"

// TestInspectLogHint: an Inspect AI log given to openai-messages is
// refused with a hint naming the inspect format (a minified .json log
// was refused as "a transcript nested under samples", a .eval as bad
// JSON with no word of what the file is).
func TestInspectLogHint(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"version": 2, "eval": {"task": "t"}, "samples": [{"id": 1, "epoch": 1, "messages": []}]}`,
			`an Inspect AI log (members "eval" and "samples"): read it with format "inspect"`},
		{"PK\x03\x04\x14\x00\x08\x00",
			`invalid JSON (offset 1): invalid character 'P' looking for beginning of value (a ZIP archive: an Inspect AI .eval log? read it with format "inspect")`},
	} {
		if _, _, msg := Decode([]byte(c.in)); msg != c.want {
			t.Errorf("Decode(%q) = %q, want %q", c.in, msg, c.want)
		}
	}
}
