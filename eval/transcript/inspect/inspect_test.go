package inspect

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

var update = flag.Bool("update", false, "rewrite testdata/*.eval from the samples built here")

// member is one ZIP member of a .eval log built by writeEval.
type member struct {
	name   string
	method uint16 // zip.Store, zip.Deflate or zipMethodZstd
	data   string
}

// writeEval builds a .eval log the way Inspect's recorder lays it out,
// with a fixed modification time so that the bytes are reproducible.
func writeEval(t testing.TB, members []member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zipMethodZstd, func(w io.Writer) (io.WriteCloser, error) {
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	})
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method, Modified: time.Date(2025, 6, 3, 10, 14, 22, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// runs frames and decodes a whole log; errs lists the errors in order
// (a framing or decoding error does not stop the reading).
func runs(file string, data []byte, opt frame.Options) (rs []*run.Run, errs []string) {
	rr := Frame(file, bytes.NewReader(data), opt)
	for {
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return rs, errs
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		rn, skip, msg := Decode(rec.Data)
		switch {
		case msg != "":
			errs = append(errs, (&frame.Error{File: rec.Origin.File, Line: rec.Origin.Line, Msg: msg}).Error())
		case skip:
			errs = append(errs, "skipped")
		default:
			rn.Origin = rec.Origin
			rs = append(rs, rn)
		}
	}
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// callSummary is what a criterion sees of a call, for exact comparison.
type callSummary struct {
	ID, Tool    string
	Args        string
	Ok          bool
	Result, Err string
	Event, Res  int
}

func calls(rn *run.Run) []callSummary {
	var out []callSummary
	for _, c := range rn.Calls {
		a, _ := json.Marshal(c.Args)
		out = append(out, callSummary{c.ID, c.Tool, string(a), c.Ok, c.Result, c.Error, c.Event, c.ResultEvent})
	}
	return out
}

func roles(rn *run.Run) string {
	var rs []string
	for _, ev := range rn.Events {
		rs = append(rs, ev.Role)
	}
	return strings.Join(rs, " ")
}

var canonicalCalls = []callSummary{
	{"call_1", "get_balance", `{}`, true, `{"balance": 2500}`, "", 2, 3},
	{"call_2", "read_file", `{"path":"notes.txt"}`, false, "", "file not found", 2, 4},
	{"call_3", "send_money", `{"amount":1100,"recipient":"landlord"}`, true, "ok", "", 5, 6},
}

func TestCanonicalJSONLog(t *testing.T) {
	data, err := os.ReadFile("../../../examples/formats/inspect/transcript.json")
	if err != nil {
		t.Fatal(err)
	}
	rs, errs := runs("transcript.json", data, frame.Options{})
	check(t, "errors", errs, []string(nil))
	if len(rs) != 1 {
		t.Fatalf("%d runs, want 1", len(rs))
	}
	rn := rs[0]
	check(t, "origin", rn.Origin, run.Origin{File: "transcript.json", Line: 37})
	check(t, "roles", roles(rn), "system user assistant tool tool assistant tool assistant")
	check(t, "calls", calls(rn), canonicalCalls)
	check(t, "output", rn.Output, "Done: sent 1100 to the landlord.")
	check(t, "event 2 content", rn.Events[2].Content, "Checking your balance and notes.")
	check(t, "event 4", []any{rn.Events[4].CallID, rn.Events[4].Tool, rn.Events[4].Failed, rn.Events[4].Error}, []any{"call_2", "read_file", true, "file not found"})
	check(t, "meta.task", rn.Meta["task"], "pay_rent")
	check(t, "meta.model", rn.Meta["model"], "demo-agent")
	check(t, "meta.id", rn.Meta["id"], 1.0)
	check(t, "meta.epoch", rn.Meta["epoch"], 1.0)
	check(t, "meta.scores", rn.Meta["scores"], map[string]any{"includes": map[string]any{"value": "C", "answer": "Done: sent 1100 to the landlord.", "explanation": "sent 1100"}})
	check(t, "meta.metadata", rn.Meta["metadata"], map[string]any{"suite": "banking", "injection": nil})
	check(t, "meta.target", rn.Meta["target"], "sent 1100")
	check(t, "meta.error", rn.Meta["error"], nil)
}

// jsonLogSample extracts the canonical sample and eval spec, to build a
// .eval log of the same conversation.
func canonicalParts(t testing.TB) (header, sample string) {
	data, err := os.ReadFile("../../../examples/formats/inspect/transcript.json")
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]json.RawMessage
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var samples []json.RawMessage
	if err := json.Unmarshal(log["samples"], &samples); err != nil {
		t.Fatal(err)
	}
	delete(log, "samples")
	h, _ := json.Marshal(log)
	return string(h), string(samples[0])
}

// bankingEval is testdata/banking.eval: the canonical sample (epoch 1,
// deflated), a second epoch whose long tool output is an attachment
// (zstd), a second sample whose metadata names an injection (an
// attacked run, zstd), summaries.json and the journal, as Inspect writes them.
func bankingEval(t testing.TB) []byte {
	header, sample := canonicalParts(t)
	epoch2 := strings.Replace(sample, `"epoch": 1`, `"epoch": 2`, 1)
	epoch2 = strings.Replace(epoch2, `"content": "{\"balance\": 2500}"`, `"content": "attachment://5d1c3bbd40c1a1e9f2e3d4c5b6a79801"`, 1)
	epoch2 = strings.Replace(epoch2, `"attachments": {}`, `"attachments": {"5d1c3bbd40c1a1e9f2e3d4c5b6a79801": "{\"balance\": 2500}"}`, 1)
	epoch2 = strings.Replace(epoch2, `"value": "C"`, `"value": "I"`, 1)
	attacked := strings.Replace(sample, `"id": 1,`, `"id": 2,`, 1)
	attacked = strings.Replace(attacked, `"injection": null`, `"injection": "steal"`, 1)
	return writeEval(t, []member{
		{"_journal/start.json", zip.Deflate, `{"version": 2, "eval": {"task": "pay_rent", "model": "demo-agent"}, "plan": {}}`},
		{"samples/1_epoch_1.json", zip.Deflate, sample},
		{"samples/1_epoch_2.json", zipMethodZstd, epoch2},
		{"samples/2_epoch_1.json", zipMethodZstd, attacked},
		{"_journal/summaries/1.json", zip.Deflate, `[{"id": 1, "epoch": 1}, {"id": 1, "epoch": 2}, {"id": 2, "epoch": 1}]`},
		{"summaries.json", zip.Deflate, `[{"id": 1, "epoch": 1}, {"id": 1, "epoch": 2}, {"id": 2, "epoch": 1}]`},
		{"reductions.json", zip.Deflate, `[]`},
		{"header.json", zip.Deflate, header},
	})
}

func TestEvalLog(t *testing.T) {
	data := bankingEval(t)
	if *update {
		if err := os.WriteFile("testdata/banking.eval", data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile("testdata/banking.eval")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, data) {
		t.Errorf("testdata/banking.eval is not what bankingEval builds (rerun with -update)")
	}
	rs, errs := runs("banking.eval", committed, frame.Options{})
	check(t, "errors", errs, []string(nil))
	if len(rs) != 3 {
		t.Fatalf("%d runs, want 3", len(rs))
	}
	check(t, "origin 0", rs[0].Origin, run.Origin{File: "banking.eval:samples/1_epoch_1.json", Line: 1})
	check(t, "origin 1", rs[1].Origin, run.Origin{File: "banking.eval:samples/1_epoch_2.json", Line: 1})
	check(t, "origin 2", rs[2].Origin, run.Origin{File: "banking.eval:samples/2_epoch_1.json", Line: 1})
	check(t, "injection", rs[2].Meta["metadata"].(map[string]any)["injection"], "steal")
	for i, rn := range rs {
		check(t, "calls", calls(rn), canonicalCalls)
		check(t, "id, epoch", []any{rn.Meta["id"], rn.Meta["epoch"]}, [][]any{{1.0, 1.0}, {1.0, 2.0}, {2.0, 1.0}}[i])
		check(t, "task", rn.Meta["task"], "pay_rent")
	}
	// The attachment is resolved in the result the call carries.
	check(t, "attachment resolved", rs[1].Events[3].Content, `{"balance": 2500}`)
	check(t, "epoch 2 score", rs[1].Meta["scores"].(map[string]any)["includes"].(map[string]any)["value"], "I")
}

// TestJournalOnly: a log still being written has no header.json; the
// journal's start gives the eval spec.
func TestJournalOnly(t *testing.T) {
	_, sample := canonicalParts(t)
	data := writeEval(t, []member{
		{"_journal/start.json", zip.Deflate, `{"version": 2, "eval": {"task": "pay_rent", "model": "demo-agent"}}`},
		{"samples/1_epoch_1.json", zipMethodZstd, sample},
	})
	rs, errs := runs("run.eval", data, frame.Options{})
	check(t, "errors", errs, []string(nil))
	if len(rs) != 1 {
		t.Fatalf("%d runs", len(rs))
	}
	check(t, "task", rs[0].Meta["task"], "pay_rent")
}

func TestFrameErrors(t *testing.T) {
	_, sample := canonicalParts(t)
	big := `{"messages": [], "pad": "` + strings.Repeat("a", 5000) + `"}`
	header := `{"eval": {"task": "t", "model": "m"}}`
	cases := []struct {
		name string
		data []byte
		opt  frame.Options
		want []string
	}{
		{"jsonl", []byte("{\"messages\": []}\n{\"messages\": []}\n"), frame.Options{},
			[]string{"x:2: more than one JSON value: an Inspect .json log is one object (JSONL is another format: openai-messages?)"}},
		{"chat record", []byte(`{"messages": [{"role": "user", "content": "hi"}]}`), frame.Options{},
			[]string{`x:1: an object with "messages" and no "eval": a chat record (openai-messages or anthropic-messages?), not an Inspect log`}},
		{"gzip", []byte{0x1f, 0x8b, 8, 0}, frame.Options{},
			[]string{"x:1: compressed input (gzip or zstd): an Inspect log is a .eval ZIP or a .json object; decompress it first"}},
		{"text", []byte("hello"), frame.Options{},
			[]string{"x:1: not an Inspect log: want a .eval ZIP archive or a .json log object"}},
		{"truncated zip", writeEval(t, []member{{"header.json", zip.Deflate, header}})[:30], frame.Options{},
			[]string{"x:1: not a readable ZIP archive (a .eval log is one): zip: not a valid zip file"}},
		{"no header", writeEval(t, []member{{"samples/1_epoch_1.json", zip.Deflate, sample}}), frame.Options{},
			[]string{"x:1: no header.json (nor _journal/start.json): the eval spec of this .eval log is missing"}},
		{"other zip", writeEval(t, []member{{"word/document.xml", zip.Deflate, "<w/>"}}), frame.Options{},
			[]string{"x:1: a ZIP archive without header.json or samples/: not an Inspect .eval log"}},
		{"big member zstd", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/2_epoch_1.json", zipMethodZstd, big}, {"samples/1_epoch_1.json", zip.Deflate, sample}}), frame.Options{MaxRecordBytes: 4096},
			[]string{"x:samples/2_epoch_1.json:1: member of 5027 bytes is larger than the limit of 4096 bytes (raise it with --max-record-bytes)"}},
		{"bad sample json", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json", zip.Store, `{"messages": [`}}), frame.Options{},
			[]string{"x:samples/1_epoch_1.json:1: the sample is invalid JSON (offset 14): unexpected end of JSON input"}},
		{"duplicate name", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json", zip.Store, `{"messages": [], "messages": [{"role": "user", "content": "x"}]}`}}), frame.Options{},
			[]string{`x:samples/1_epoch_1.json:1: the sample is invalid JSON (offset 17): duplicate object member name at "/messages"`}},
		{"duplicate member", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json", zip.Store, sample}, {"samples/1_epoch_1.json", zip.Store, sample}}), frame.Options{},
			[]string{"x:samples/1_epoch_1.json:1: a second member of this name in the archive: which one is the sample is unclear"}},
		{"deep", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json", zip.Store, `{"messages": [], "x": [[[[[1]]]]]}`}}), frame.Options{MaxDepth: 4},
			[]string{"x:samples/1_epoch_1.json:1: record nested deeper than the limit of 4 levels (raise it with --max-depth)"}},
		{"log too large", append([]byte(`{"eval": {}, "samples": [], "x": "`), bytes.Repeat([]byte("a"), 5000)...), frame.Options{MaxRecordBytes: 1000},
			[]string{"x:1: log larger than the limit of 4000 bytes (4 × --max-record-bytes): an Inspect log is read whole"}},
		{"summary without member", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/123456789_epoch_1.json", zip.Store, sample}, {"summaries.json", zip.Store, `[{"id": 123456789, "epoch": 1}, {"id": "b", "epoch": 2}]`}}), frame.Options{},
			[]string{"x:summaries.json:1: summary 1 lists sample b, but the archive has no member samples/b_epoch_2.json (a truncated or altered .eval log?)"}},
		{"not json member", writeEval(t, []member{{"header.json", zip.Store, header}, {"samples/1_epoch_1.json.zst", zip.Store, sample}}), frame.Options{},
			[]string{"x:samples/1_epoch_1.json.zst:1: a member under samples/ that is not a .json sample: this reader reads samples/<id>_epoch_<n>.json"}},
		{"json no eval", []byte(`{"samples": []}`), frame.Options{},
			[]string{`x:1: no "eval" member (the eval spec): not an Inspect log`}},
		{"json samples not list", []byte(`{"eval": {}, "samples": {}}`), frame.Options{},
			[]string{`x:1: samples: want a list of samples`}},
		{"json bad", []byte("{\"eval\": {},\n \"samples\": [1,]}"), frame.Options{},
			[]string{`x:2: invalid JSON: invalid character ',' at start of value`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, errs := runs("x", c.data, c.opt)
			check(t, "errors", errs, c.want)
			if c.name == "big member zstd" || c.name == "duplicate member" || c.name == "summary without member" {
				check(t, "runs after the error", len(rs), 1)
			} else {
				check(t, "runs", len(rs), 0)
			}
		})
	}
}

// TestZstdBomb: a member whose directory entry understates its size is cut
// at the limit once decompressed, not read whole.
func TestZstdBomb(t *testing.T) {
	data := writeEval(t, []member{{"header.json", zip.Store, `{"eval": {}}`}, {"samples/1_epoch_1.json", zipMethodZstd, `{"messages": [], "x": "` + strings.Repeat("a", 1<<20) + `"}`}})
	zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	// Rewrite the stated size in the central directory to 10 bytes.
	f := zr.File[1]
	var size [4]byte
	size[0] = 10
	old := []byte{0, 0, 0, 0}
	le := func(v uint64) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	copy(old, le(f.UncompressedSize64))
	i := bytes.LastIndex(data, old)
	if i < 0 {
		t.Fatal("size not found")
	}
	copy(data[i:], size[:])
	_, errs := runs("x", data, frame.Options{MaxRecordBytes: 64 << 10})
	check(t, "errors", errs, []string{"x:samples/1_epoch_1.json:1: member larger than the limit of 65536 bytes once decompressed (raise it with --max-record-bytes)"})
}

func decodeMsg(t *testing.T, sample string) string {
	t.Helper()
	_, _, msg := Decode([]byte(`{"eval": {"task": "t", "model": "m"}, "sample": ` + sample + `}`))
	return msg
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct{ sample, want string }{
		{`{"id": 1}`, `sample: no "messages" member (is this an Inspect EvalSample?)`},
		{`{"messages": [{"role": "tool", "content": "x", "tool_call_id": "c", "error": "boom"}]}`, `message 0: error: want an object {type, message} or null, got a string`},
		{`{"messages": [{"role": "assistant", "content": "x", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}`,
			`message 0: tool_calls[0]: function: an object {name, arguments} is OpenAI's tool call shape (openai-messages?); an Inspect ToolCall's function is the tool's name`},
		{`{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]}]}`,
			`message 0: content[0]: a tool_use block with "input" is Anthropic's shape (anthropic-messages?); Inspect's has "arguments"`},
		{`{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]}]}`,
			`message 0: content[0]: content of type "tool_result", which this reader does not read as a call: Inspect's calls are tool_calls and tool_use content`},
		{`{"messages": [{"role": "user", "content": "attachment://abc"}]}`, `message 0: "attachment://abc": no such attachment in the sample's attachments`},
		{`{"messages": [{"role": "model", "content": "x"}]}`, `message 0: role "model": an Inspect message is system, user, assistant or tool`},
		{`{"messages": [{"role": "assistant", "content": "x", "function_call": {"name": "f", "arguments": "{}"}}]}`,
			`message 0: key "function_call" names a call, a tool or a function, but Inspect messages carry calls only in tool_calls and results only in tool messages (tool_call_id, function, error)`},
		{`{"messages": [], "epoch": 0}`, `sample.epoch: want a whole number from 1, got 0`},
		{`{"messages": [{"role": "user", "content": "x", "error": {"type": "unknown", "message": "m"}}]}`, `message 0: error on a user message: only a tool message carries a call's error (is the role wrong?)`},
	}
	for _, c := range cases {
		if got := decodeMsg(t, c.sample); got != c.want {
			t.Errorf("Decode(%s)\n got %q\nwant %q", c.sample, got, c.want)
		}
	}
}

func TestDecodeDetails(t *testing.T) {
	rn, _, msg := Decode([]byte(`{"eval": null, "sample": {"id": "s-7", "epoch": 3, "attachments": {"h1": "long text"},
	  "metadata": {"doc": "attachment://h1"},
	  "messages": [
	    {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "image": "attachment://h1"}]},
	    {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "think"}, {"type": "text", "text": "b"},
	      {"type": "tool_use", "tool_type": "web_search", "id": "ws_1", "name": "web_search", "arguments": "{\"query\": \"rent\"}", "result": "found", "error": null}],
	     "tool_calls": [{"id": "c1", "function": "send_money", "arguments": {}, "parse_error": "Expecting value: line 1 column 12"}]},
	    {"role": "tool", "content": "", "tool_call_id": "c1", "function": "send_money", "tool_error": "timed out"}]}}`))
	if msg != "" {
		t.Fatal(msg)
	}
	check(t, "meta", []any{rn.Meta["id"], rn.Meta["epoch"], rn.Meta["task"], rn.Meta["metadata"]}, []any{"s-7", 3.0, "", map[string]any{"doc": "long text"}})
	check(t, "image resolved", rn.Events[0].Blocks[1].(map[string]any)["image"], "long text")
	check(t, "content", rn.Events[1].Content, "b")
	check(t, "calls", calls(rn), []callSummary{
		{"ws_1", "web_search", `{"query":"rent"}`, true, "found", "", 1, 1},
		{"c1", "send_money", `{}`, false, "", "timed out", 1, 2},
	})
	check(t, "args error", rn.Calls[1].ArgsError, "arguments did not parse: Expecting value: line 1 column 12")
	check(t, "output", rn.Output, "")
}
