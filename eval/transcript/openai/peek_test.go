package openai

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/internal/shared"
)

// checkPeek checks Peek's promise on one record (frame.Peeker): when it
// answers, its Check is build.Decodable, and on a record that passes
// Check, Decode either gives the peek's meta and record (with the
// messages) or refuses the record for its messages alone — the record
// with its messages emptied is decoded. It returns whether Peek answered.
func checkPeek(t *testing.T, line []byte) bool {
	t.Helper()
	p, ok := Peek(line)
	if !ok {
		return false
	}
	checkDecodePeeked(t, line)
	if fmt.Sprint(p.Unread) != "[messages]" {
		t.Fatalf("Unread = %v", p.Unread)
	}
	if p.Check() != build.Decodable(line) {
		t.Fatalf("Check %v, Decodable %v", p.Check(), build.Decodable(line))
	}
	if !p.Check() {
		return true
	}
	rn, skip, msg := Decode(line)
	if skip {
		t.Fatalf("Decode skips a peeked record %q", line)
	}
	if msg == "" {
		rec := map[string]any{}
		for k, v := range rn.Record {
			if k != "messages" {
				rec[k] = v
			}
		}
		peeked := map[string]any{}
		for k, v := range p.Record {
			if k != "messages" {
				peeked[k] = v
			}
		}
		if !reflect.DeepEqual(rn.Meta, p.Meta) || !reflect.DeepEqual(rec, peeked) {
			t.Fatalf("peek of %q: meta %v record %v; Decode: %v %v", line, p.Meta, peeked, rn.Meta, rec)
		}
		return true
	}
	var v map[string]any
	if err := jsonv2.Unmarshal(line, &v); err != nil {
		t.Fatal(err)
	}
	v["messages"] = []any{}
	empty, err := jsonv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, m := Decode(empty); m != "" {
		t.Fatalf("Decode refuses %q (%s), and with no messages too (%s): not for its messages", line, msg, m)
	}
	return true
}

// TestPeek: which records Peek answers for — a record with messages, its
// members other than messages readable — and that on each it keeps its
// promise (checkPeek); on the example and every AgentDojo trace file
// (when ../shared is there), every record is peeked.
func TestPeek(t *testing.T) {
	for _, tc := range []struct {
		line   string
		peeked bool
		meta   string
	}{
		{`{"messages":[{"role":"user","content":"hi"}],"metadata":{"suite":"a","n":1}}`, true, `map[n:1 suite:a]`},
		{`{"metadata":{"suite":"a"},"messages":[]}`, true, `map[suite:a]`},
		{`{"messages":[{"content":"no role"}]}`, true, `map[]`},                                        // Decode refuses the message
		{`{"messages":[{"role":"user","role":"user"}],"metadata":{}}`, true, `map[]`},                  // invalid JSON: Check fails
		{`{"metadata":{"suite":"a"}}`, false, ``},                                                      // a header line
		{`{"messages":"none","metadata":{"suite":"a"}}`, false, ``},                                    // not a list
		{`{"messages":null}`, false, ``},                                                               // not a list
		{`{"messages":[],"metadata":[1]}`, false, ``},                                                  // metadata not an object
		{`{"messages":[],"system":"be nice"}`, false, ``},                                              // an Anthropic record
		{`{"messages":[],"tools":[{"type":"function","function":{"name":"f"}}],"x":1}`, true, `map[]`}, // a declaration: read
		{`{"messages":[],"suite_name":"s","pipeline_name":"p","user_task_id":"u"}`, false, ``},         // an AgentDojo run
		{`{"messages":[],"extra":{"tool_calls":[{"function":{"name":"f"}}]}}`, false, ``},              // a call where none is read
		{`[{"messages":[]}]`, false, ``},
		{`{"messages":[],"metadata":{"a":1e400}}`, false, ``},
		{`{"m\u0065ssages":[],"messages":[]}`, false, ``},
		{`{"messages":[{"role":"user","content":"hi"}],"messages":[]}`, false, ``}, // a name twice: not peeked
		{`{"messages":[],"metadata":{},"metadata":{}}`, false, ``},                 // a name twice: not peeked
		{"{\"messages\":[],\"a\x01\":1}", false, ``},                               // a control character in a name
		{"{\"messages\":[],\"\xff\":1}", false, ``},                                // a name not UTF-8
		{`{"messages":[{"role":"user","content":"\ud800"}]}`, true, `map[]`},       // an invalid escape in the messages: DecodePeeked refuses
		{`{"messages":[{"role":"user","content":"x","n":1e400}]}`, true, `map[]`},  // a number out of range in the messages
		{`{"messages":[{"role":"user","content":"x"},]}`, true, `map[]`},           // invalid JSON in the messages
		{`{"messages":[{"role":"user","content":"x"}],"metadata":{"d":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}}`, true, `map[d:` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `]`}, // metadata nested 1,000 deep: skimmed
		{`{"messages":[{"role":"user","content":"x"}],"metadata":{"d":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, false, ``},                                                                // nested deeper than a skim reads
		{`{"messages":[{"role":"user","content":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}]}`, false, ``},                                                                                   // deeper than the decoder reads
	} {
		p, ok := Peek([]byte(tc.line))
		if ok != tc.peeked || (ok && fmt.Sprint(p.Meta) != tc.meta) {
			t.Errorf("Peek(%s) = %v %v, want %v %s", tc.line, p.Meta, ok, tc.peeked, tc.meta)
		}
		checkPeek(t, []byte(tc.line))
	}
	checkFile(t, "../../../examples/formats/openai-messages/transcript.jsonl")
}

// TestPeekAgentDojoTraces: every record of the AgentDojo trace files is
// peeked, and Peek keeps its promise on each (checkPeek); header lines are
// not peeked.
func TestPeekAgentDojoTraces(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no trace files")
	}
	for _, f := range files {
		checkFile(t, f)
	}
}

// checkFile checks Peek on every line of an openai-messages file: every
// record with messages is peeked.
func checkFile(t *testing.T, f string) {
	fh, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	s := bufio.NewScanner(fh)
	s.Buffer(nil, 64<<20)
	n := 0
	for s.Scan() {
		n++
		if _, skip, _ := Decode(s.Bytes()); skip || len(bytes.TrimSpace(s.Bytes())) == 0 {
			continue
		}
		if !checkPeek(t, s.Bytes()) {
			t.Errorf("%s:%d: not peeked", f, n)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

// checkDecodePeeked: DecodePeeked of a record Peek passed gives Decode's
// run, and is not ok exactly when Decode refuses the record (invalid JSON
// anywhere in it included).
func checkDecodePeeked(t *testing.T, data []byte) {
	t.Helper()
	p, _ := Peek(data)
	got, ok := DecodePeeked(p)
	want, _, msg := Decode(data)
	if ok != (msg == "") || (ok && !reflect.DeepEqual(got, want)) {
		t.Fatalf("DecodePeeked(%.200q) = %v, %v; Decode: %v, %q", data, got, ok, want, msg)
	}
}
