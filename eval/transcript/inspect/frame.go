package inspect

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/klauspost/compress/zstd"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// ArchiveFactor bounds a whole log in memory: a ZIP needs random access
// and a .json log is one JSON value, so the Framer reads the whole input,
// up to ArchiveFactor × Options.MaxRecordBytes bytes (256 MiB by default).
// A longer input is one *Error for the file, and no sample of it is read.
const ArchiveFactor = 4

// zipMethodZstd is the ZIP compression method number of Zstandard
// (APPNOTE 4.4.5), which Inspect writes when asked to compress with zstd.
const zipMethodZstd = 93

// maxZstdWindow bounds the window a zstd member may ask the decoder to
// keep: the decoder allocates it before reading, so a member claiming a
// huge window would otherwise cost its memory whatever its size.
const maxZstdWindow = 64 << 20

// Frame is the inspect format's frame.Framer. It reads the whole input
// (bounded by ArchiveFactor × MaxRecordBytes), then gives one record per
// sample: for a .eval log (a ZIP) each member samples/<name>.json, with
// Origin.File "file:samples/<name>.json" and Line 1; for a .json log each
// element of "samples", with Origin.Line the line it starts on. A record's
// Data is {"eval": <the log's eval spec>, "sample": <the sample>}, the
// shape Decode reads. A sample longer than MaxRecordBytes, or nested
// deeper than MaxDepth, is an *Error for that sample.
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	return &records{file: file, r: r, opt: opt}
}

// records frames one Inspect log.
type records struct {
	file    string
	r       io.Reader
	opt     frame.Options
	started bool
	done    bool
	eval    []byte // the raw eval spec ("null" when the log has none)
	// A .eval log: its sample members, in archive order, from next.
	zr        *zip.Reader
	members   []*zip.File
	summaries *zip.File // summaries.json, checked after the last sample
	// A .json log: the byte ranges of its samples, from next.
	data          []byte
	spans         [][2]int
	next          int
	line, lineOff int    // the line (from 1) at byte lineOff of data
	buf           []byte // Data of the last record, reused
	seen          map[string]bool
}

func (r *records) fail(member string, line int, msg string, err error) (frame.RawRecord, error) {
	f := r.file
	if member != "" {
		f += ":" + member
	}
	return frame.RawRecord{}, &frame.Error{File: f, Line: line, Msg: msg, Err: err}
}

func (r *records) Next() (frame.RawRecord, error) {
	if r.done {
		return frame.RawRecord{}, io.EOF
	}
	if !r.started {
		r.started = true
		if rec, err := r.open(); err != nil {
			r.done = true
			return rec, err
		}
	}
	if r.zr != nil {
		return r.nextMember()
	}
	return r.nextSpan()
}

// open reads the input and finds its samples; an error ends the stream.
func (r *records) open() (frame.RawRecord, error) {
	limit := int64(ArchiveFactor) * int64(r.opt.RecordBytes())
	data, err := io.ReadAll(io.LimitReader(r.r, limit+1))
	if err != nil {
		return r.fail("", 1, "read: "+err.Error(), err)
	}
	if int64(len(data)) > limit {
		return r.fail("", 1, fmt.Sprintf("log larger than the limit of %d bytes (%d × --max-record-bytes): an Inspect log is read whole", limit, ArchiveFactor), nil)
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return r.openZip(data)
	case len(trimmed) > 0 && trimmed[0] == '{':
		return r.openJSON(data)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}), bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return r.fail("", 1, "compressed input (gzip or zstd): an Inspect log is a .eval ZIP or a .json object; decompress it first", nil)
	case len(trimmed) == 0:
		return r.fail("", 1, "empty input: an Inspect log is a .eval ZIP or a .json object", nil)
	default:
		return r.fail("", 1, "not an Inspect log: want a .eval ZIP archive or a .json log object", nil)
	}
}

// openZip lists the sample members of a .eval log and reads its header.
func (r *records) openZip(data []byte) (frame.RawRecord, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return r.fail("", 1, "not a readable ZIP archive (a .eval log is one): "+err.Error(), err)
	}
	zr.RegisterDecompressor(zipMethodZstd, func(in io.Reader) io.ReadCloser {
		d, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderMaxMemory(uint64(r.opt.RecordBytes())+1))
		if err != nil {
			return io.NopCloser(errReader{err})
		}
		return d.IOReadCloser()
	})
	r.zr = zr
	var header, start, summaries *zip.File
	for _, f := range zr.File {
		switch {
		case f.Name == "header.json":
			header = f
		case f.Name == "_journal/start.json":
			start = f
		case f.Name == "summaries.json":
			summaries = f
		case strings.HasPrefix(f.Name, "samples/") && !strings.HasSuffix(f.Name, "/"):
			// Every file under samples/ is a sample: one of another
			// name is refused when its turn comes, never skipped.
			r.members = append(r.members, f)
		}
	}
	r.summaries = summaries
	hf := header
	if hf == nil {
		// A log still being written has no header yet; its journal's
		// start holds the same eval spec.
		hf = start
	}
	if hf == nil {
		if len(r.members) == 0 {
			return r.fail("", 1, "a ZIP archive without header.json or samples/: not an Inspect .eval log", nil)
		}
		return r.fail("", 1, "no header.json (nor _journal/start.json): the eval spec of this .eval log is missing", nil)
	}
	raw, err := r.readMember(hf)
	if err != nil {
		return frame.RawRecord{}, err
	}
	ev, msg := evalSpec(raw)
	if msg != "" {
		return r.fail(hf.Name, 1, msg, nil)
	}
	r.eval = ev
	return frame.RawRecord{}, nil
}

// listed checks, after the last sample, that every sample summaries.json
// lists (a finished log's index of its samples) has its member
// samples/<id>_epoch_<epoch>.json: a log whose member is missing would
// otherwise lose a run without a word. It returns io.EOF when all are
// there.
func (r *records) listed() (frame.RawRecord, error) {
	f := r.summaries
	r.summaries = nil
	raw, err := r.readMember(f)
	if err != nil {
		return frame.RawRecord{}, err
	}
	var list []struct {
		ID    any `json:"id"`
		Epoch any `json:"epoch"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // ids as written: 123456789, not 1.23456789e+08
	if err := dec.Decode(&list); err != nil {
		return r.fail(f.Name, 1, "not a list of sample summaries {id, epoch}: "+err.Error(), nil)
	}
	for i, s := range list {
		name := fmt.Sprintf("samples/%v_epoch_%v.json", s.ID, s.Epoch)
		if !r.seen[name] {
			r.done = true
			return r.fail(f.Name, 1, fmt.Sprintf("summary %d lists sample %s, but the archive has no member %s (a truncated or altered .eval log?)", i, build.Clip(fmt.Sprint(s.ID), 100), build.Clip(name, 200)), nil)
		}
	}
	return frame.RawRecord{}, io.EOF
}

// methodName names a ZIP compression method for messages.
func methodName(m uint16) string {
	switch m {
	case zip.Store:
		return "stored"
	case zip.Deflate:
		return "deflate"
	case zipMethodZstd:
		return "zstd"
	}
	return fmt.Sprintf("compression method %d", m)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// readMember reads a whole member, bounded by MaxRecordBytes.
func (r *records) readMember(f *zip.File) ([]byte, error) {
	max := r.opt.RecordBytes()
	if f.UncompressedSize64 > uint64(max) {
		_, err := r.fail(f.Name, 1, fmt.Sprintf("member of %d bytes is larger than the limit of %d bytes (raise it with --max-record-bytes)", f.UncompressedSize64, max), nil)
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		_, err = r.fail(f.Name, 1, "cannot read the member: "+err.Error(), err)
		return nil, err
	}
	defer rc.Close()
	// The size in the archive's directory may lie: the read is bounded
	// whatever it says.
	b, err := io.ReadAll(io.LimitReader(rc, int64(max)+1))
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		// The zstd decoder refuses, before decoding, a window or a
		// frame that would pass the limit.
		_, err = r.fail(f.Name, 1, fmt.Sprintf("member larger than the limit of %d bytes once decompressed (raise it with --max-record-bytes)", max), nil)
		return nil, err
	}
	if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
		// archive/zip stops at the size the directory states and checks
		// the CRC: data beyond it, or other data, is a forged or damaged
		// member.
		_, err = r.fail(f.Name, 1, "the member's data does not match the size or checksum the archive's directory states (a damaged or altered .eval log): "+err.Error(), err)
		return nil, err
	}
	if err != nil {
		_, err = r.fail(f.Name, 1, fmt.Sprintf("cannot read the member (%s): %v", methodName(f.Method), err), err)
		return nil, err
	}
	if len(b) > max {
		_, err = r.fail(f.Name, 1, fmt.Sprintf("member larger than the limit of %d bytes once decompressed (raise it with --max-record-bytes)", max), nil)
		return nil, err
	}
	return b, nil
}

func (r *records) nextMember() (frame.RawRecord, error) {
	if r.next >= len(r.members) {
		if r.summaries != nil {
			return r.listed()
		}
		r.done = true
		return frame.RawRecord{}, io.EOF
	}
	f := r.members[r.next]
	r.next++
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[f.Name] {
		return r.fail(f.Name, 1, "a second member of this name in the archive: which one is the sample is unclear", nil)
	}
	r.seen[f.Name] = true
	if path.Ext(f.Name) != ".json" {
		return r.fail(f.Name, 1, "a member under samples/ that is not a .json sample: this reader reads samples/<id>_epoch_<n>.json", nil)
	}
	raw, err := r.readMember(f)
	if err != nil {
		return frame.RawRecord{}, err
	}
	if msg := r.check(raw); msg != "" {
		return r.fail(f.Name, 1, msg, nil)
	}
	return frame.RawRecord{Origin: run.Origin{File: r.file + ":" + f.Name, Line: 1}, Data: r.wrap(raw)}, nil
}

// check says why a sample's JSON is not one valid value within the
// depth limit, or returns "".
func (r *records) check(raw []byte) string {
	maxDepth := 0
	if r.opt.MaxDepth > 0 && r.opt.MaxDepth < frame.DefaultMaxDepth {
		maxDepth = r.opt.MaxDepth
	}
	if maxDepth == 0 {
		if !jsontext.Value(raw).IsValid() {
			// The decoder's message, with the offset in the sample
			// (Decode's would count from the record's wrapping).
			_, msg := build.DecodeJSON(raw, true)
			return "the sample is " + msg
		}
		return ""
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	for {
		_, err := dec.ReadToken()
		if err == io.EOF {
			return ""
		}
		if err != nil {
			return "the sample is not valid JSON: " + err.Error()
		}
		if dec.StackDepth() > maxDepth {
			return fmt.Sprintf("record nested deeper than the limit of %d levels (raise it with --max-depth)", maxDepth)
		}
	}
}

// wrap builds a record's Data: {"eval": <eval>, "sample": <raw>}.
func (r *records) wrap(raw []byte) []byte {
	b := r.buf[:0]
	b = append(b, `{"eval":`...)
	b = append(b, r.eval...)
	b = append(b, `,"sample":`...)
	b = append(b, raw...)
	b = append(b, '}')
	r.buf = b
	return b
}

// evalSpec returns the raw "eval" member of a header (header.json,
// _journal/start.json or a .json log), or why it cannot.
func evalSpec(header []byte) ([]byte, string) {
	dec := jsontext.NewDecoder(bytes.NewReader(header))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, "the header is not a JSON object"
	}
	var ev []byte
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil, "the header is not valid JSON: " + err.Error()
		}
		key := name.String() // before the next read voids name
		v, err := dec.ReadValue()
		if err != nil {
			return nil, "the header is not valid JSON: " + err.Error()
		}
		if key == "eval" {
			if ev != nil {
				return nil, `the header has two "eval" members`
			}
			ev = bytes.Clone(v)
		}
	}
	if ev == nil {
		return nil, `the header has no "eval" member (the eval spec): not an Inspect log`
	}
	if jsontext.Value(ev).Kind() != '{' {
		return nil, "the header's eval: want an object"
	}
	return ev, ""
}

// openJSON finds the eval spec and the samples of a .json log.
func (r *records) openJSON(data []byte) (frame.RawRecord, error) {
	r.data = data
	r.line = 1
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	line := func(off int64) int { return 1 + bytes.Count(data[:off], []byte("\n")) }
	bad := func(err error) (frame.RawRecord, error) {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) {
			return r.fail("", line(se.ByteOffset), "invalid JSON: "+se.Err.Error(), nil)
		}
		return r.fail("", 1, "invalid JSON: "+err.Error(), nil)
	}
	if _, err := dec.ReadToken(); err != nil {
		return bad(err)
	}
	var keys []string
	sawSamples := false
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return bad(err)
		}
		key := name.String()
		keys = append(keys, key)
		switch key {
		case "eval":
			v, err := dec.ReadValue()
			if err != nil {
				return bad(err)
			}
			if r.eval != nil {
				return r.fail("", 1, `two "eval" members`, nil)
			}
			if v.Kind() != '{' {
				return r.fail("", 1, "eval: want an object (the eval spec)", nil)
			}
			r.eval = bytes.Clone(v)
		case "samples":
			if sawSamples {
				return r.fail("", 1, `two "samples" members`, nil)
			}
			sawSamples = true
			switch dec.PeekKind() {
			case 'n':
				if _, err := dec.ReadToken(); err != nil {
					return bad(err)
				}
				continue
			case '[':
			default:
				if _, err := dec.ReadValue(); err != nil {
					return bad(err)
				}
				return r.fail("", 1, "samples: want a list of samples", nil)
			}
			if _, err := dec.ReadToken(); err != nil {
				return bad(err)
			}
			for dec.PeekKind() != ']' {
				before := dec.InputOffset()
				v, err := dec.ReadValue()
				if err != nil {
					return bad(err)
				}
				end := int(dec.InputOffset())
				start := end - len(v)
				if start < int(before) {
					start = int(before)
				}
				r.spans = append(r.spans, [2]int{start, end})
			}
			if _, err := dec.ReadToken(); err != nil {
				return bad(err)
			}
		default:
			if _, err := dec.ReadValue(); err != nil {
				return bad(err)
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return bad(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return r.fail("", line(dec.InputOffset()), "more than one JSON value: an Inspect .json log is one object (JSONL is another format: openai-messages?)", nil)
	}
	if r.eval == nil {
		for _, k := range keys {
			if k == "messages" {
				return r.fail("", 1, `an object with "messages" and no "eval": a chat record (openai-messages or anthropic-messages?), not an Inspect log`, nil)
			}
		}
		return r.fail("", 1, `no "eval" member (the eval spec): not an Inspect log`, nil)
	}
	return frame.RawRecord{}, nil
}

func (r *records) nextSpan() (frame.RawRecord, error) {
	if r.next >= len(r.spans) {
		r.done = true
		r.data = nil
		return frame.RawRecord{}, io.EOF
	}
	sp := r.spans[r.next]
	r.next++
	// Lines are counted from the previous sample on: linear in the log.
	r.line += bytes.Count(r.data[r.lineOff:sp[0]], []byte("\n"))
	r.lineOff = sp[0]
	line := r.line
	raw := r.data[sp[0]:sp[1]]
	if max := r.opt.RecordBytes(); len(raw) > max {
		return r.fail("", line, fmt.Sprintf("sample %d is larger than the limit of %d bytes (raise it with --max-record-bytes)", r.next-1, max), nil)
	}
	if msg := r.check(raw); msg != "" {
		return r.fail("", line, fmt.Sprintf("sample %d: %s", r.next-1, msg), nil)
	}
	return frame.RawRecord{Origin: run.Origin{File: r.file, Line: line}, Data: r.wrap(raw)}, nil
}
