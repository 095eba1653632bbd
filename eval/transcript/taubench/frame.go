package taubench

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// readSlack is how far past MaxRecordBytes the guard lets the JSON decoder
// read ahead before it stops the read: the decoder fills its buffer in
// chunks, so a record within the limit may have been read past its end.
const readSlack = 64 << 10

// guard is the io.Reader under the JSON decoder: it fails the read once
// the decoder has read more than the limit past the start of the current
// record, so that one huge element cannot be buffered whole.
type guard struct {
	r     io.Reader
	n     int64 // bytes read so far
	limit int64 // no read past this offset; <0: none
	// tee, while not nil, keeps the bytes read, so that a top-level
	// object found to be one simulation (tau2's directory format) can be
	// given whole without rereading r. tee[0] is the byte at offset
	// teeBase of the stream. Until anchored (at the object's start) it
	// keeps the last teeMax bytes; after, only the object's first
	// teeMax bytes, enough to tell that it is over the record limit.
	tee      []byte
	teeBase  int64
	teeMax   int
	anchored bool
}

// anchor makes the tee start at offset off (the '{' of the top-level
// object) and keep at most max+1 bytes from there; false: the tee no
// longer holds off (white space before it over the window).
func (g *guard) anchor(off int64, max int) bool {
	if g.tee == nil || off < g.teeBase {
		g.tee = nil
		return false
	}
	g.tee = g.tee[off-g.teeBase:]
	if len(g.tee) > max+1 {
		g.tee = g.tee[:max+1]
	}
	g.teeBase, g.teeMax, g.anchored = off, max+1, true
	return true
}

var errTooLong = errors.New("record too long")

func (g *guard) Read(p []byte) (int, error) {
	if g.limit >= 0 {
		if g.n >= g.limit {
			return 0, errTooLong
		}
		if room := g.limit - g.n; int64(len(p)) > room {
			p = p[:room]
		}
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	switch {
	case g.tee == nil:
	case g.anchored:
		g.tee = append(g.tee, p[:min(n, max(g.teeMax-len(g.tee), 0))]...)
	default:
		g.tee = append(g.tee, p[:n]...)
		if over := len(g.tee) - g.teeMax; over > 0 {
			// White space before the object: slide.
			g.tee = append([]byte(nil), g.tee[over:]...)
			g.teeBase += int64(over)
		}
	}
	return n, err
}

// records frames a tau-bench or tau2-bench results file (Frame).
type records struct {
	file     string
	g        *guard
	dec      *jsontext.Decoder
	max      int
	maxDepth int // 0: the decoder's limit, not scanned for
	started  bool
	done     bool
	tau2     bool           // the file is a tau2 results object
	header   jsontext.Value // tau2: {"timestamp", "info"} of the results file, as read before simulations
	index    int            // the number of elements read, so the last one's number from 1
	simIndex bool           // tau2: a non-empty simulation_index was seen
	// single: the file is one simulation of tau2's directory format
	// (simulations/<id>.json); its one record has been given, and Next
	// checks that nothing follows it.
	single bool
	// Lines: line is the line (from 1) at byte counted of the file, the
	// end of what the decoder has read or of the white space after it;
	// valueLine is the line the last value read (readBounded) starts on.
	line      int
	counted   int64
	valueLine int
}

// Frame is the tau-bench format's frame.Framer. A file is one JSON
// document: a tau-bench results array (each element one trajectory
// {"task_id", "reward", "info", "traj", "trial"}) or a tau2-bench results
// object ({"timestamp", "info", "tasks", "simulations": [...]}: each
// element of simulations is a record). The records are the elements; a
// record's Origin.Line is the line of the file its element starts on,
// counted as the stream is read (the element's own bytes and the white
// space between tokens, never reread), so an error names the line of a
// pretty-printed file; framing errors name the element too ("trajectory
// 3 (index 2)", "simulation 3 (index 2)").
//
// Memory is bounded: an element longer than Options.MaxRecordBytes is an
// *Error naming it, and it ends the stream (a whole-file document cannot
// be resynchronised past an element it did not read), as does invalid
// JSON between elements. For a tau2 file, the results' "timestamp" and
// "info" are kept (each bounded by MaxRecordBytes) and given to every
// record; "tasks" is skipped.
//
// A file of tau2's directory format is one JSON object too: a
// simulation ("task_id", "termination_reason", and "messages" or
// "ticks"; no "tasks") is one record, with the header of the
// results.json beside its simulations/ directory when there is one
// (siblingHeader), and the record starts on the line of its '{'; a
// results.json ("info" and "tasks", no "simulations") gives no record
// when a simulations/ directory is beside it holding a file for every
// simulation its simulation_index lists, and is refused otherwise (its
// runs are elsewhere, or missing).
func Frame(file string, r io.Reader, opt frame.Options) frame.RecordReader {
	g := &guard{r: r, limit: -1}
	rr := &records{file: file, g: g, max: opt.RecordBytes(), line: 1}
	if opt.MaxDepth > 0 && opt.MaxDepth < frame.DefaultMaxDepth {
		rr.maxDepth = opt.MaxDepth
	}
	// The object's bytes up to the limit (and the decoder's read-ahead).
	g.tee, g.teeMax = []byte{}, 2*(rr.max+readSlack)
	rr.dec = jsontext.NewDecoder(g)
	return rr
}

// errAt ends the stream with an error at line of the file (0: line 1)
// about element elem (from 1; 0: the file).
func (r *records) errAt(elem, line int, err error, format string, args ...any) (frame.RawRecord, error) {
	r.done = true
	msg := fmt.Sprintf(format, args...)
	if errors.Is(err, errTooLong) {
		msg = fmt.Sprintf("%s: longer than the limit of %d bytes (raise it with --max-record-bytes); the rest of the file is not read", r.where(elem), r.max)
		if elem == 0 {
			msg = fmt.Sprintf("results file: a value (or white space) longer than the limit of %d bytes (raise it with --max-record-bytes); the rest of the file is not read", r.max)
		}
		err = nil
	} else if err != nil {
		msg += ": " + err.Error()
	}
	if line == 0 {
		line = 1
	}
	return frame.RawRecord{}, &frame.Error{File: r.file, Line: line, Msg: msg}
}

// where names element elem (from 1; 0: the file) in messages.
func (r *records) where(elem int) string {
	switch {
	case elem == 0:
		return "results file"
	case r.single:
		return "the simulation"
	case r.tau2:
		return fmt.Sprintf("simulation %d (index %d)", elem, elem-1)
	}
	return fmt.Sprintf("trajectory %d (index %d)", elem, elem-1)
}

// bound lets the decoder read at most max bytes (and the slack) past
// what it has read so far: every decoder call is made under it, so no
// value, token or run of white space is buffered beyond the limit.
func (r *records) bound() {
	r.g.limit = r.dec.InputOffset() + int64(len(r.dec.UnreadBuffer())) + int64(r.max) + readSlack
}

// readBounded reads the next value, at most max bytes long; valueLine
// is the line it starts on.
func (r *records) readBounded() (jsontext.Value, error) {
	r.peek()
	r.valueLine = r.line
	v, err := r.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	r.line += bytes.Count(v, []byte("\n"))
	r.counted = r.dec.InputOffset()
	if len(v) > r.max {
		return nil, errTooLong
	}
	return v, nil
}

// token reads the next token under the bound.
func (r *records) token() (jsontext.Token, error) {
	r.peek()
	tok, err := r.dec.ReadToken()
	if err == nil {
		// A token holds no raw line break: JSON escapes them in strings.
		r.counted = r.dec.InputOffset()
	}
	return tok, err
}

// peek is PeekKind under the bound. Every read starts with it, so that
// the line breaks before the next token are counted (gap).
func (r *records) peek() jsontext.Kind {
	r.bound()
	k := r.dec.PeekKind()
	r.gap()
	return k
}

// gap counts the line breaks between the end of what the decoder has
// read and the next token, which PeekKind has buffered: white space and
// at most one ',' or ':'. Only white space holds raw line breaks, so this
// and the values' own (readBounded) count every line of the file once,
// without keeping or rereading any of it.
func (r *records) gap() {
	u := r.dec.UnreadBuffer()
	off := r.dec.InputOffset()
	i := 0
	if r.counted > off {
		// Counted by an earlier peek at the same place.
		i = int(min(r.counted-off, int64(len(u))))
	}
	for ; i < len(u); i++ {
		c := u[i]
		if c == '\n' {
			r.line++
		} else if c != ' ' && c != '\t' && c != '\r' && c != ',' && c != ':' {
			break
		}
	}
	r.counted = off + int64(i)
}

// skip skips the next value token by token (jsontext's SkipValue does
// too, but a single token would be read unbounded), so that a huge
// "tasks" is never held.
func (r *records) skip() error {
	switch r.peek() {
	case '{', '[':
		depth := r.dec.StackDepth()
		for {
			if _, err := r.token(); err != nil {
				return err
			}
			if r.dec.StackDepth() <= depth {
				return nil
			}
		}
	default:
		_, err := r.readBounded()
		return err
	}
}

func (r *records) Next() (frame.RawRecord, error) {
	if r.done {
		return frame.RawRecord{}, io.EOF
	}
	if !r.started {
		r.started = true
		if rec, err, ok := r.start(); !ok {
			return rec, err
		}
	}
	if r.single {
		// One object was the whole document: only white space may follow.
		return r.end()
	}
	if r.peek() == ']' {
		if _, err := r.token(); err != nil {
			return r.errAt(r.index, r.line, err, "after %s", r.where(r.index))
		}
		return r.finish()
	}
	r.index++
	v, err := r.readBounded()
	if err != nil {
		return r.errAt(r.index, r.valueLine, err, "%s: invalid JSON", r.where(r.index))
	}
	return r.record(v, r.valueLine)
}

// record makes element v (number r.index), which starts on line, a
// record.
func (r *records) record(v jsontext.Value, line int) (frame.RawRecord, error) {
	if r.maxDepth > 0 && deeperThan(v, r.maxDepth) {
		return r.errAt(r.index, line, nil, "%s: nested deeper than the limit of %d levels (raise it with --max-depth)", r.where(r.index), r.maxDepth)
	}
	data := []byte(v)
	if r.tau2 {
		// The simulation with the file's header: {"results": {...}, "simulation": {...}}.
		var b bytes.Buffer
		b.WriteString(`{"results":`)
		if r.header == nil {
			b.WriteString("{}")
		} else {
			b.Write(r.header)
		}
		b.WriteString(`,"simulation":`)
		b.Write(v)
		b.WriteString("}")
		data = b.Bytes()
	}
	return frame.RawRecord{Origin: run.Origin{File: r.file, Line: line}, Data: data}, nil
}

// start reads the document's opening up to the first element. ok false:
// it returns the stream's first result (an *Error).
func (r *records) start() (frame.RawRecord, error, bool) {
	switch k := r.peek(); k {
	case '[':
		if _, err := r.token(); err != nil {
			rec, err := r.errAt(0, 0, err, "invalid JSON")
			return rec, err, false
		}
		return frame.RawRecord{}, nil, true
	case '{':
	case 0:
		_, err := r.token()
		if err == io.EOF {
			rec, err := r.errAt(0, 0, nil, "empty file: want a tau-bench results array or a tau2-bench results object")
			return rec, err, false
		}
		rec, err := r.errAt(0, 0, err, "invalid JSON")
		return rec, err, false
	default:
		rec, err := r.errAt(0, 0, nil, "the file is a JSON %s, want a tau-bench results array or a tau2-bench results object", kindName(k))
		return rec, err, false
	}
	// An object: a tau2 results object (the whole results in one file, or
	// the results.json of the directory format), or one simulation of the
	// directory format (simulations/<id>.json). It is read member by
	// member so that only the elements of "simulations" are held whole;
	// the bytes read are kept (the guard's tee) until a member says the
	// object is results, so that a simulation can be given whole without
	// rereading the stream.
	objLine := r.line
	if _, err := r.token(); err != nil {
		rec, err := r.errAt(0, 0, err, "invalid JSON")
		return rec, err, false
	}
	objStart := r.dec.InputOffset() - 1
	if !r.g.anchor(objStart, r.max) {
		// Only white space before the object is so long.
		rec, err := r.errAt(0, objLine, errTooLong, "")
		return rec, err, false
	}
	header := map[string]jsontext.Value{}
	var members []string
	// The members that tell a simulation from results.
	var has struct{ messages, ticks, taskID, termination, info, tasks, index bool }
	firstSim := "" // the first of "messages" and "task_id"
	var index jsontext.Value
	for {
		if r.peek() == '}' {
			break
		}
		nameTok, err := r.token()
		if err != nil {
			rec, err := r.errAt(0, 0, err, "invalid JSON")
			return rec, err, false
		}
		name := nameTok.String()
		if len(members) <= 8 { // clipNames shows 8
			members = append(members, name)
		}
		switch name {
		case "messages", "task_id":
			if firstSim == "" {
				firstSim = name
			}
			has.messages = has.messages || name == "messages"
			has.taskID = has.taskID || name == "task_id"
		case "ticks":
			has.ticks = true
		case "termination_reason":
			has.termination = true
		case "tasks", "simulation_index":
			// Results: no simulation has these, so the object is not
			// kept.
			has.tasks = has.tasks || name == "tasks"
			has.index = has.index || name == "simulation_index"
			r.g.tee = nil
		}
		switch name {
		case "simulations":
			if firstSim != "" {
				rec, err := r.errAt(0, 0, nil, "a JSON object with %q before \"simulations\": neither one simulation nor a tau2-bench results object {\"info\", \"tasks\", \"simulations\"}", firstSim)
				return rec, err, false
			}
			if r.peek() != '[' {
				rec, err := r.errAt(0, 0, nil, "simulations: want a list of simulations, got a JSON %s", kindName(r.peek()))
				return rec, err, false
			}
			if _, err := r.token(); err != nil {
				rec, err := r.errAt(0, 0, err, "invalid JSON")
				return rec, err, false
			}
			r.g.tee = nil
			r.tau2 = true
			r.header = tau2Header(header)
			return frame.RawRecord{}, nil, true
		case "simulation_index":
			// Kept (bounded) to check that the directory holds every
			// simulation it lists.
			v, err := r.readBounded()
			if err != nil {
				rec, err := r.errAt(0, 0, err, "%s: invalid JSON", name)
				return rec, err, false
			}
			index = v.Clone()
		case "timestamp", "info":
			has.info = has.info || name == "info"
			v, err := r.readBounded()
			if err != nil {
				rec, err := r.errAt(0, 0, err, "%s: invalid JSON", name)
				return rec, err, false
			}
			// Compact, so that the header adds no line to a record
			// (Decode counts lines from the element's first).
			h := v.Clone()
			if err := h.Compact(); err != nil {
				rec, err := r.errAt(0, 0, err, "%s: invalid JSON", name)
				return rec, err, false
			}
			header[name] = h
		default:
			if err := r.skip(); err != nil {
				if has.taskID && has.termination && !has.tasks && !has.index {
					// Likely one simulation: name it as one.
					r.single, r.index = true, 1
					rec, err := r.errAt(1, objLine, err, "the simulation: %s: invalid JSON", name)
					return rec, err, false
				}
				rec, err := r.errAt(0, 0, err, "%s: invalid JSON", name)
				return rec, err, false
			}
		}
	}
	if _, err := r.token(); err != nil {
		rec, err := r.errAt(0, 0, err, "invalid JSON")
		return rec, err, false
	}
	r.single = true // one object: Next then checks for data after it
	switch {
	case has.taskID && has.termination && (has.messages || has.ticks) && !has.tasks && !has.index:
		// A SimulationRun (tau2's directory format), read as an element
		// of "simulations" is, with the header of its results.json.
		r.index = 1
		n := r.dec.InputOffset() - objStart
		if n > int64(r.max) || int64(len(r.g.tee)) < n {
			rec, err := r.errAt(1, objLine, errTooLong, "")
			return rec, err, false
		}
		v := jsontext.Value(r.g.tee[:n])
		r.g.tee = nil
		h, msg := siblingHeader(r.file, r.max)
		if msg != "" {
			rec, err := r.errAt(1, objLine, nil, "%s", msg)
			return rec, err, false
		}
		r.tau2, r.header = true, h
		rec, err := r.record(v, objLine)
		return rec, err, false
	case has.info && has.tasks && firstSim == "" && !has.ticks && !has.termination:
		// The results.json of tau2's directory format: the header of the
		// simulations in simulations/, each read from its own file (a
		// walk of the directory reads them, and each takes its header
		// from here). It gives no record, so that the directory is read
		// without an error or a run counted twice.
		r.g.tee = nil
		if !simulationsBeside(r.file) {
			rec, err := r.errAt(0, 0, nil, "the results.json of tau2's directory format (info and tasks, no \"simulations\"), but no simulations/ directory beside it: the simulations are its files simulations/<id>.json; give the directory that holds both (or the simulation files)")
			return rec, err, false
		}
		if msg := missingSimulations(r.file, index); msg != "" {
			rec, err := r.errAt(0, 0, nil, "%s", msg)
			return rec, err, false
		}
		rec, err := r.end()
		return rec, err, false
	case firstSim != "":
		rec, err := r.errAt(0, 0, nil, "a JSON object with %q and no \"simulations\", but not a tau2 simulation (which has \"task_id\", \"termination_reason\" and \"messages\"): another format's record (openai-messages?); this reader reads a tau2-bench results object {\"info\", \"tasks\", \"simulations\"}, one tau2 simulation of the directory format, or a tau-bench results array", firstSim)
		return rec, err, false
	}
	rec, err := r.errAt(0, 0, nil, "a JSON object without \"simulations\" (members: %s): not a tau2-bench results file (tau-bench results are a JSON array)", clipNames(members))
	return rec, err, false
}

// end checks that nothing but white space follows the one object of a
// tau2 simulation file or directory results.json.
func (r *records) end() (frame.RawRecord, error) {
	r.done = true
	if _, err := r.token(); err != io.EOF {
		if err == nil {
			return r.errAt(0, r.line, nil, "data after the JSON object (one file holds one simulation)")
		}
		return r.errAt(0, 0, err, "after the JSON object: invalid JSON")
	}
	return frame.RawRecord{}, io.EOF
}

// finish checks what follows the simulations (tau2) or the array.
func (r *records) finish() (frame.RawRecord, error) {
	if r.tau2 {
		for r.peek() != '}' {
			nameTok, err := r.token()
			if err != nil {
				return r.errAt(0, 0, err, "after the simulations: invalid JSON")
			}
			if nameTok.String() == "simulation_index" && r.peek() == '[' {
				r.simIndex = true
			}
			if err := r.skip(); err != nil {
				return r.errAt(0, 0, err, "after the simulations: invalid JSON")
			}
		}
		if _, err := r.token(); err != nil {
			return r.errAt(0, 0, err, "after the simulations: invalid JSON")
		}
	}
	if _, err := r.token(); err != io.EOF {
		if err == nil {
			return r.errAt(0, r.line, nil, "data after the results document (one file holds one JSON document)")
		}
		return r.errAt(0, 0, err, "after the results document: invalid JSON")
	}
	r.done = true
	if r.tau2 && r.index == 0 && r.simIndex {
		return r.errAt(0, 0, nil, "no simulations but a simulation_index: the simulations of tau2's directory format are in separate files, which this reader does not read")
	}
	return frame.RawRecord{}, io.EOF
}

// tau2Header is the results' {"timestamp", "info"}, or nil when it has
// neither.
func tau2Header(h map[string]jsontext.Value) jsontext.Value {
	if len(h) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("{")
	first := true
	for _, k := range []string{"timestamp", "info"} {
		v, ok := h[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		fmt.Fprintf(&b, "%q:", k)
		b.Write(v)
	}
	b.WriteString("}")
	return b.Bytes()
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
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

func clipNames(names []string) string {
	if len(names) > 8 {
		names = append(names[:8:8], "…")
	}
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(n) > 40 {
			n = n[:40] + "…"
		}
		fmt.Fprintf(&b, "%q", n)
	}
	return b.String()
}

// deeperThan reports whether JSON text v nests arrays and objects deeper
// than max.
func deeperThan(v []byte, max int) bool {
	depth, inStr, esc := 0, false, false
	for _, c := range v {
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
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}
