package openai

import "testing"

// TestOTLPLineRefused: a line of OpenTelemetry spans has no "messages";
// it was skipped as a header line (its calls unread). It is refused,
// naming otel-genai.
func TestOTLPLineRefused(t *testing.T) {
	rn, skip, msg := Decode([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","name":"execute_tool send_money"}]}]}]}`))
	want := `no "messages" member, but "resourceSpans": an OpenTelemetry trace export (OTLP/JSON), likely format otel-genai`
	if rn != nil || skip || msg != want {
		t.Errorf("Decode = %v, %v, %q; want nil, false, %q", rn, skip, msg, want)
	}
}
