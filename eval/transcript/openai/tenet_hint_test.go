package openai

import "testing"

// A run in tenet's own format given to this reader is refused naming that
// format (before, it was refused as messages under "events", which does
// not say which format the record is).
func TestTenetRunRefused(t *testing.T) {
	_, skip, msg := Decode([]byte(`{"tenet_run": 1, "metadata": {"task": "t"}, "events": [{"role": "user", "content": "hi"}]}`))
	want := `no "messages" member, but "tenet_run": a run in tenet's own format (format "tenet")`
	if skip || msg != want {
		t.Errorf("Decode = skip %v, %q; want %q", skip, msg, want)
	}
	// Without events it is not a header line either.
	_, skip, msg = Decode([]byte(`{"tenet_run": 1}`))
	if skip || msg != want {
		t.Errorf("Decode(no events) = skip %v, %q; want %q", skip, msg, want)
	}
}
