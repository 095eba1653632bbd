package agentdojo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// Frame is the format's frame.Framer: a file is one run, AgentDojo's
// TraceLogger writing one pretty-printed JSON object per file, so the
// whole file is one record at line 1. The file is read whole, so memory
// is bounded by opt.RecordBytes() (64 MiB by default, --max-record-bytes):
// a longer file is an *frame.Error at line 1 and no run.
//
// Before the record is given, the file is checked as a whole, each
// problem an *frame.Error at the line it is on: it must hold exactly one
// JSON value (a file cut short — AgentDojo rewrites the file after every
// step — is refused at its last line; a second value at the line it
// starts on), that value an object with the members "suite_name",
// "pipeline_name", "user_task_id" and "messages" (else it is not a run
// file, and the refusal, a framing error, is hinted by the file's start
// with the format it looks like), nested no deeper than opt.MaxDepth. A
// UTF-8 byte-order mark at the start is removed.
//
// The record's Data is the file with its name, {"file": NAME, "run":
// FILE}, written so that the file's bytes start on the record's first
// line: a line of Data is the line of the file, and Decode derives the
// path members of meta from NAME (pathMeta).
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &runFile{file: file, r: r, opt: opt}
}

type runFile struct {
	file string
	r    io.Reader
	opt  frame.Options
	done bool
}

func (f *runFile) Next() (frame.RawRecord, error) {
	if f.done {
		return frame.RawRecord{}, io.EOF
	}
	f.done = true
	limit := f.opt.RecordBytes()
	// One byte over the limit tells a file of exactly the limit from a
	// longer one without reading the rest.
	data, err := io.ReadAll(io.LimitReader(f.r, int64(limit)+1))
	if err != nil {
		return frame.RawRecord{}, &frame.Error{File: f.file, Line: 1, Msg: "read: " + err.Error(), Err: err}
	}
	if len(data) > limit {
		return frame.RawRecord{}, &frame.Error{File: f.file, Line: 1,
			Msg: fmt.Sprintf("AgentDojo run file longer than the limit of %d bytes (the whole file is one run; raise it with --max-record-bytes)", limit)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if line, msg := checkFile(data, f.opt.MaxDepth); msg != "" {
		return frame.RawRecord{}, &frame.Error{File: f.file, Line: line, Msg: msg}
	}
	return frame.RawRecord{Origin: run.Origin{File: f.file, Line: 1}, Data: Wrap(f.file, data)}, nil
}

// Wrap is the record Frame gives for the run file named file holding
// data: {"file": file, "run": data}, with no line break before data.
func Wrap(file string, data []byte) []byte {
	name, _ := json.Marshal(file) // a string cannot fail; it escapes line breaks
	var b bytes.Buffer
	b.Grow(len(data) + len(name) + 20)
	b.WriteString(`{"file":`)
	b.Write(name)
	b.WriteString(`,"run":`)
	b.Write(data)
	b.WriteString("}")
	return b.Bytes()
}

// required are the members without which an object is not a run file.
var required = []string{"suite_name", "pipeline_name", "user_task_id", "messages"}

// checkFile checks that data is one JSON object with the required members,
// nested no deeper than maxDepth (when below the decoder's own limit), or
// returns the line (from 1) and the reason it is not.
func checkFile(data []byte, maxDepth int) (int, string) {
	if len(bytes.TrimSpace(data)) == 0 {
		return 1, "empty file: want one AgentDojo run, a JSON object {suite_name, pipeline_name, user_task_id, messages, ...}"
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	bad := func(err error) (int, string) {
		var se *jsontext.SyntacticError
		// A file cut inside a string (before its line break) fails at the
		// end: truncated too.
		cut := errors.As(err, &se) && se.ByteOffset >= 0 && int(se.ByteOffset) <= len(data) && len(bytes.TrimSpace(data[se.ByteOffset:])) == 0
		if cut || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return lineAt(data, len(bytes.TrimRight(data, " \t\r\n"))), "the file ends inside the run's JSON object: truncated (AgentDojo rewrites the file after every step, so a run stopped while writing, or a cut copy)"
		}
		if errors.As(err, &se) {
			at := ""
			if se.JSONPointer != "" {
				at = fmt.Sprintf(" at %q", build.Clip(string(se.JSONPointer), 200))
			}
			return lineAt(data, int(se.ByteOffset)), "invalid JSON" + at + ": " + se.Err.Error()
		}
		return lineAt(data, int(dec.InputOffset())), "invalid JSON: " + err.Error()
	}
	switch k := dec.PeekKind(); k {
	case '{':
	case 0:
		_, err := dec.ReadToken()
		return bad(err)
	default:
		return lineAt(data, len(data)-len(bytes.TrimLeft(data, " \t\r\n"))), fmt.Sprintf("the file is a JSON %s, want one AgentDojo run, a JSON object {suite_name, pipeline_name, user_task_id, messages, ...}", kindName(k))
	}
	if _, err := dec.ReadToken(); err != nil {
		return bad(err)
	}
	has := map[string]bool{}
	var members []string
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return bad(err)
		}
		has[tok.String()] = true
		members = append(members, tok.String())
		if err := dec.SkipValue(); err != nil {
			return bad(err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return bad(err)
	}
	end := int(dec.InputOffset())
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return lineAt(data, len(data)-len(rest)), "data after the run's JSON object: one AgentDojo run file holds one run (two JSON values, or JSONL?)"
	}
	var missing []string
	for _, k := range required {
		if !has[k] {
			missing = append(missing, fmt.Sprintf("%q", k))
		}
	}
	if len(missing) > 0 {
		return 1, fmt.Sprintf("a JSON object without %s (members: %s): not an AgentDojo run file, which has \"suite_name\", \"pipeline_name\", \"user_task_id\" and \"messages\"", strings.Join(missing, ", "), clipNames(members))
	}
	if maxDepth > 0 && maxDepth < frame.DefaultMaxDepth {
		if off := deeperThan(data, maxDepth); off >= 0 {
			return lineAt(data, off), fmt.Sprintf("the run is nested deeper than the limit of %d levels (raise it with --max-depth)", maxDepth)
		}
	}
	return 0, ""
}

// lineAt is the line (from 1) of byte offset off of data.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// deeperThan returns the offset of the first '[' or '{' of JSON text v
// nested deeper than max, or -1.
func deeperThan(v []byte, max int) int {
	depth, inStr, esc := 0, false, false
	for i, c := range v {
		switch {
		case inStr:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
			if depth > max {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "list"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "value"
}

// clipNames lists at most 8 member names, each cut at 40 bytes.
func clipNames(names []string) string {
	if len(names) > 8 {
		names = append(names[:8:8], "…")
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", build.Clip(n, 40))
	}
	if len(quoted) == 0 {
		return "none"
	}
	return strings.Join(quoted, ", ")
}
