package transcript

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/run"
)

// TestRecordsThenDecode frames records without decoding them, then decodes
// each one: origins, the byte-order mark, blank lines, an overlong line, a
// header, a malformed record and a run.
func TestRecordsThenDecode(t *testing.T) {
	input := "\ufeff" + `{"metadata": {}}` + "\r\n\n  \n" +
		`{"messages": [{"role": "user", "content": "a"}]}` + "\n" +
		strings.Repeat("x", 100) + "\n" +
		`{"messages": 1}`
	rr, err := OpenRecords("openai-messages", "t.jsonl", strings.NewReader(input), Options{MaxRecordBytes: 60})
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		line int
		data string
		err  string
	}
	var recs []got
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		g := got{line: rec.Origin.Line, data: string(rec.Data)}
		if err != nil {
			g.err = err.Error()
		}
		recs = append(recs, g)
	}
	check(t, "records", recs, []got{
		{line: 1, data: `{"metadata": {}}`},
		{line: 4, data: `{"messages": [{"role": "user", "content": "a"}]}`},
		{err: "t.jsonl:5: record longer than the limit of 60 bytes (raise it with --max-record-bytes)"},
		{line: 6, data: `{"messages": 1}`},
	})

	origin := func(line int) run.Origin { return run.Origin{File: "t.jsonl", Line: line} }
	rn, skip, err := Decode("openai-messages", origin(1), []byte(recs[0].data))
	if rn != nil || !skip || err != nil {
		t.Errorf("header: %v, %v, %v; want skipped", rn, skip, err)
	}
	rn, skip, err = Decode("openai-messages", origin(4), []byte(recs[1].data))
	if err != nil || skip || rn.Origin != origin(4) || rn.Events[0].Content != "a" {
		t.Errorf("run: %+v, %v, %v", rn, skip, err)
	}
	_, _, err = Decode("openai-messages", origin(6), []byte(recs[3].data))
	var e *Error
	if !errors.As(err, &e) || err.Error() != "t.jsonl:6: messages: want a list, got a number" {
		t.Errorf("malformed: %v (%T)", err, err)
	}
	if _, _, err := Decode("nope", origin(1), nil); err == nil || CheckFormat("nope") == nil || err.Error() != CheckFormat("nope").Error() {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := OpenRecords("nope", "t.jsonl", strings.NewReader(""), Options{}); err == nil {
		t.Error("OpenRecords accepted an unknown format")
	}
	if err := CheckFormat("openai-messages"); err != nil {
		t.Error(err)
	}
}

func TestFormats(t *testing.T) {
	// One name per line: each reader adds its own.
	want := slices.Sorted(slices.Values([]string{
		"anthropic-messages",
		"mcp",
		"openai-messages",
		"inspect",
		"openai-responses",
		"otel-genai",
		"tenet",
		"tau-bench",
		"agentdojo-run",
	}))
	if got := Formats(); !slices.Equal(got, want) {
		t.Errorf("Formats() = %q, want %q", got, want)
	}
	_, err := Open("anthropic", "f", strings.NewReader(""), Options{})
	if err == nil || err.Error() != `unknown transcript format "anthropic" (known: `+strings.Join(want, ", ")+`)` {
		t.Errorf("Open(unknown) error = %v", err)
	}
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}
