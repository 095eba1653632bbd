// Package runsort sorts runs records by key in bounded memory (Sorter): an
// external merge sort over a compact binary encoding of them (codec.go),
// with the duplicates of a key reported. It takes records (eval/runs) and
// gives them back in key order, equal to those added (their runs-file
// line on demand). It imports eval/runs and internal/kmerge.
package runsort

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"unsafe"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/kmerge"
)

// Sorter sorts records by key in bounded memory: an external merge sort
// over their encoded bodies.
//
// Add encodes each record but its key in the Sorter's own binary encoding
// (codec.go: about 0.7 KB held for an AgentDojo run, against 0.9 KB for its
// runs-file line and 2–3 KB for a runs.Record with its maps) and keeps it
// with its key and runs.Seq. When the bodies, keys and their
// bookkeeping held in memory exceed maxBytes, they are sorted by (key, runs.Seq)
// and appended as one chunk to a temporary file in dir. Sort merges the
// chunks (and what is still in memory) with a heap, decoding one record at
// a time, so memory stays at about maxBytes plus one record per chunk
// whatever the number of records. More than 64 chunks are merged in
// passes first, so at most 64 are read at once.
//
// A Sorter is not safe for concurrent use. Its temporary files are
// unlinked as soon as they are created where the system allows it (Unix):
// they take disk space only while open, and nothing is left behind however
// the process ends. Close closes (elsewhere, removes) them; call it when
// done, whatever happened (it is idempotent). After an error the Sorter has
// removed its files and every later call returns that error.
type Sorter struct {
	dir      string
	maxBytes int

	mem      []entry
	memBytes int // bytes held: bodies (whole arena blocks), entries, key strings
	arena    []byte
	intern   map[string]string

	file   *os.File // the spill file; nil until the first spill
	w      *bufio.Writer
	size   int64 // bytes written to file
	chunks []chunk

	buf    []byte // encoding scratch
	added  int
	spills int
	sorted bool
	closed bool
	err    error
}

// entry is a record held in memory: its key, runs.Seq and encoded body
// (appendBody: every other field).
type entry struct {
	key  runs.Key
	seq  runs.Seq
	body []byte
}

// entryOverhead is what an entry costs besides its line and key strings:
// the entry itself, the body's slice header, allocation rounding.
const entryOverhead = int(unsafe.Sizeof(entry{})) + 16

// arenaBlock is the largest block that holds encoded bodies in memory (an
// eighth of the budget, at least 4 KB, or the body when longer).
const arenaBlock = 256 << 10

// fanIn bounds the chunks one merge reads at once.
var fanIn = 64

// readBuffer is the read buffer of each chunk during a merge.
const readBuffer = 32 << 10

// chunk is a sorted run of entries in the spill file.
type chunk struct {
	off, size int64
	count     int
}

// NewSorter returns a Sorter that keeps at most about maxBytes of encoded
// records in memory (a value below 1 counts as 1: every record goes to its
// own chunk) and spills the rest to temporary files in dir (os.TempDir()
// when dir is ""), created on the first spill.
func NewSorter(dir string, maxBytes int) *Sorter {
	return &Sorter{dir: dir, maxBytes: max(maxBytes, 1), intern: map[string]string{}}
}

// Add encodes rec and adds it with its position seq. It returns an error,
// and adds nothing, when the runs file cannot represent rec exactly:
// rec is invalid (runs.Record.Validate: "run KEY: reason"), or holds what Read
// would give back differently (text that is not valid UTF-8, an unknown
// label with value true or no reason, a known one with a reason, a witness
// of an invariant that is not violated, …). Add fails too when writing a
// chunk fails, after Sort, and after Close.
func (s *Sorter) Add(rec runs.Record, seq runs.Seq) error {
	if err := s.usable(); err != nil {
		return err
	}
	if err := runs.Encodable(rec); err != nil {
		return err
	}
	s.buf = appendBody(s.buf[:0], &rec)
	e := entry{seq: seq, body: s.store(s.buf)}
	k := rec.Key
	e.key = runs.Key{Contract: s.str(k.Contract), Condition: s.str(k.Condition), Attack: s.str(k.Attack), Task: s.str(k.Task), Goal: s.str(k.Goal),
		Attempt: k.Attempt, Repetition: k.Repetition}
	s.mem = append(s.mem, e)
	s.memBytes += entryOverhead
	s.added++
	if s.memBytes > s.maxBytes {
		if err := s.spill(); err != nil {
			return s.fail(err)
		}
	}
	return nil
}

// Err returns the error that broke the Sorter (a temporary file could not
// be written or read back), or nil: Add's refusal of one record does not.
func (s *Sorter) Err() error { return s.err }

// Len returns the number of records added.
func (s *Sorter) Len() int { return s.added }

// Spills returns the number of chunks written to the temporary file so far.
func (s *Sorter) Spills() int { return s.spills }

func (s *Sorter) usable() error {
	switch {
	case s.err != nil:
		return s.err
	case s.closed:
		return errors.New("runs: Sorter used after Close")
	case s.sorted:
		return errors.New("runs: Sorter used after Sort")
	}
	return nil
}

// store copies body into the arena: blocks that hold the bodies in memory
// (no allocation per body, no rounding to size classes), counted whole.
func (s *Sorter) store(body []byte) []byte {
	n := len(body)
	if cap(s.arena)-len(s.arena) < n {
		size := max(min(s.maxBytes/8, arenaBlock), 4<<10, n)
		s.arena = make([]byte, 0, size)
		s.memBytes += size
	}
	off := len(s.arena)
	s.arena = append(s.arena, body...)
	return s.arena[off : off+n : off+n]
}

// str interns a key string among the entries in memory, and counts its
// bytes the first time.
func (s *Sorter) str(v string) string {
	if v == "" {
		return ""
	}
	if w, ok := s.intern[v]; ok {
		return w
	}
	s.intern[v] = v
	s.memBytes += len(v) + 48 // the string and its map entry
	return v
}

func compareEntries(a, b *entry) int { return cmp.Or(a.key.Compare(b.key), a.seq.Compare(b.seq)) }

func (s *Sorter) sortMem() {
	slices.SortFunc(s.mem, func(a, b entry) int { return compareEntries(&a, &b) })
}

// spill sorts the entries in memory and appends them to the spill file as
// one chunk.
func (s *Sorter) spill() error {
	if len(s.mem) == 0 {
		return nil
	}
	if s.file == nil {
		f, err := createTemp(s.dir)
		if err != nil {
			return err
		}
		s.file, s.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	s.sortMem()
	c := chunk{off: s.size, count: len(s.mem)}
	var scratch []byte
	for i := range s.mem {
		scratch = appendSpilled(scratch[:0], &s.mem[i])
		n, err := s.w.Write(scratch)
		s.size += int64(n)
		if err != nil {
			return fmt.Errorf("runs: sorting: %w", err)
		}
	}
	c.size = s.size - c.off
	s.chunks = append(s.chunks, c)
	s.spills++
	clear(s.mem)
	s.mem = s.mem[:0]
	s.memBytes = 0
	s.arena = nil
	clear(s.intern)
	return nil
}

// appendSpilled appends e as a spill record: runs.Seq, attempt and
// repetition as varints; the key's strings and the body, each prefixed with
// its length.
func appendSpilled(b []byte, e *entry) []byte {
	for _, v := range [...]int{e.seq.File, e.seq.Line, e.key.Attempt, e.key.Repetition} {
		b = binary.AppendVarint(b, int64(v))
	}
	for _, s := range [...]string{e.key.Contract, e.key.Condition, e.key.Attack, e.key.Task, e.key.Goal} {
		b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
	}
	return append(binary.AppendUvarint(b, uint64(len(e.body))), e.body...)
}

// readSpilled reads one spill record into e, reusing e.body's storage.
func readSpilled(r *bufio.Reader, e *entry) (err error) {
	for _, d := range [...]*int{&e.seq.File, &e.seq.Line, &e.key.Attempt, &e.key.Repetition} {
		v, err := binary.ReadVarint(r)
		if err != nil {
			return err
		}
		*d = int(v)
	}
	for _, d := range [...]*string{&e.key.Contract, &e.key.Condition, &e.key.Attack, &e.key.Task, &e.key.Goal} {
		b, err := readBytes(r, nil)
		if err != nil {
			return err
		}
		*d = string(b)
	}
	e.body, err = readBytes(r, e.body)
	return err
}

// readBytes reads a length-prefixed byte string, into buf when it fits.
func readBytes(r *bufio.Reader, buf []byte) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	_, err = io.ReadFull(r, buf)
	return buf, err
}

// Sort ends the adding and returns the records in key order (runs.Key.Compare;
// among records with the same key, the one with the smallest runs.Seq, the
// others being duplicates). It first merges chunks in passes while there
// are more than 64. The Sorted reads the Sorter's files: Close the Sorter
// after reading it.
func (s *Sorter) Sort() (*Sorted, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	s.sorted = true
	s.sortMem()
	if s.file != nil {
		if err := s.w.Flush(); err != nil {
			return nil, s.fail(fmt.Errorf("runs: sorting: %w", err))
		}
		for len(s.chunks)+1 > fanIn {
			if err := s.mergePass(); err != nil {
				return nil, s.fail(err)
			}
		}
	}
	var cs []*cursor
	for _, c := range s.chunks {
		cs = append(cs, s.fileCursor(c))
	}
	if len(s.mem) > 0 {
		cs = append(cs, &cursor{mem: s.mem})
	}
	var started []*cursor
	for _, c := range cs {
		ok, err := c.advance()
		if err != nil {
			return nil, s.fail(fmt.Errorf("runs: sorting: reading back: %w", err))
		}
		if ok {
			started = append(started, c)
		}
	}
	return &Sorted{s: s, h: kmerge.New(started, compareCursors)}, nil
}

func (s *Sorter) fileCursor(c chunk) *cursor {
	return &cursor{left: c.count, r: bufio.NewReaderSize(io.NewSectionReader(s.file, c.off, c.size), readBuffer)}
}

// mergePass merges the chunks fanIn at a time into a new spill file, which
// replaces the old one.
func (s *Sorter) mergePass() (err error) {
	f, err := createTemp(s.dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name()) // where it was not unlinked
		}
	}()
	w := bufio.NewWriterSize(f, 64<<10)
	var size int64
	var out []chunk
	var scratch []byte
	for i := 0; i < len(s.chunks); i += fanIn {
		var started []*cursor
		group := s.chunks[i:min(i+fanIn, len(s.chunks))]
		c := chunk{off: size}
		for _, ch := range group {
			cur := s.fileCursor(ch)
			ok, err := cur.advance()
			if err != nil {
				return fmt.Errorf("runs: sorting: reading back: %w", err)
			}
			if ok {
				started = append(started, cur)
			}
			c.count += ch.count
		}
		h := kmerge.New(started, compareCursors)
		for h.Len() > 0 {
			cur := h.Top()
			scratch = appendSpilled(scratch[:0], &cur.e)
			n, werr := w.Write(scratch)
			size += int64(n)
			ok, err := cur.advance()
			if err == nil && werr != nil {
				err = werr
			}
			if err != nil {
				return fmt.Errorf("runs: sorting: %w", err)
			}
			if ok {
				h.Fix()
			} else {
				h.Drop()
			}
		}
		c.size = size - c.off
		out = append(out, c)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("runs: sorting: %w", err)
	}
	s.removeFile()
	s.file, s.w, s.size, s.chunks = f, bufio.NewWriter(f), size, out
	return nil
}

// fail removes the temporary files and makes err the Sorter's answer from
// now on.
func (s *Sorter) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	s.removeFile()
	s.mem = nil
	return s.err
}

func (s *Sorter) removeFile() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	if rerr := os.Remove(s.file.Name()); err == nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = rerr
	}
	s.file, s.w = nil, nil
	return err
}

// createTemp creates a spill file in dir and, where the system allows it
// (Unix), unlinks it at once: the open file keeps its data, and nothing is
// left behind however the process ends.
func createTemp(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "tenet-runs-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("runs: sorting: %w", err)
	}
	os.Remove(f.Name()) // on Windows it fails: removeFile removes it
	return f, nil
}

// Close removes the temporary files and frees the records held in memory.
// It can be called several times; Sorted must not be used after it.
func (s *Sorter) Close() error {
	s.closed = true
	s.mem = nil
	return s.removeFile()
}

// cursor reads one sorted run: a chunk of the spill file (r, with left
// entries to go) or the entries still in memory (mem, from pos).
type cursor struct {
	e    entry // the current entry
	r    *bufio.Reader
	left int
	mem  []entry
	pos  int
}

// advance moves to the next entry; false at the end of the run.
func (c *cursor) advance() (bool, error) {
	if c.r == nil {
		if c.pos == len(c.mem) {
			return false, nil
		}
		c.e = c.mem[c.pos]
		c.mem[c.pos] = entry{} // the record is yielded once: free it after
		c.pos++
		return true, nil
	}
	if c.left == 0 {
		return false, nil
	}
	c.left--
	if err := readSpilled(c.r, &c.e); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return false, err
	}
	return true, nil
}

// compareCursors orders cursors by their current entry's key, then runs.Seq
// (Merge breaks the remaining ties by run).
func compareCursors(a, b *cursor) int { return compareEntries(&a.e, &b.e) }

// Sorted iterates over the records of a Sorter in key order:
//
//	it, err := s.Sort()
//	...
//	for it.Next() {
//		rec := it.Record()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
//
// Of records with the same key it yields the one with the smallest runs.Seq and
// lists the others in Duplicates.
type Sorted struct {
	s       *Sorter
	h       *kmerge.Merge[*cursor]
	advance *cursor // the cursor of the current record, to advance at Next

	line  []byte       // rec's runs-file line, once Line has encoded it
	lbuf  bytes.Buffer // Line's encoding buffer, reused
	seq   runs.Seq
	rec   runs.Record
	valid bool // rec is a record yielded (prev for duplicates)
	dups  []runs.Duplicate
	ndups int // duplicates found
	limit int // LimitDuplicates; 0: keep all
	err   error
}

// Next moves to the next record; it returns false at the end or on an
// error (Err).
func (it *Sorted) Next() bool {
	for {
		if it.err != nil {
			return false
		}
		if it.s.closed {
			it.err = errors.New("runs: Sorted used after Close")
			return false
		}
		if c := it.advance; c != nil {
			it.advance = nil
			ok, err := c.advance()
			if err != nil {
				it.err = it.s.fail(fmt.Errorf("runs: sorting: reading back: %w", err))
				return false
			}
			if ok {
				it.h.Fix()
			} else {
				it.h.Drop()
			}
		}
		if it.h.Len() == 0 {
			return false
		}
		c := it.h.Top()
		it.advance = c
		var rec runs.Record
		rec.Key = c.e.key
		err := decodeBody(c.e.body, &rec)
		if err != nil {
			it.err = it.s.fail(fmt.Errorf("runs: sorting: reading back run %s: %w", c.e.key, err))
			return false
		}
		if it.valid && rec.Key == it.rec.Key {
			it.ndups++
			it.dups = append(it.dups, runs.Duplicate{Key: rec.Key, Seq: c.e.seq, OriginFile: rec.OriginFile, OriginLine: rec.OriginLine,
				First: it.seq, FirstFile: it.rec.OriginFile, FirstLine: it.rec.OriginLine})
			if it.limit > 0 && len(it.dups) >= 2*it.limit {
				it.trimDuplicates()
			}
			continue
		}
		it.rec, it.seq, it.line, it.valid = rec, c.e.seq, nil, true
		return true
	}
}

// runs.Record returns the current record: equal (reflect.DeepEqual) to the one
// added.
func (it *Sorted) Record() runs.Record { return it.rec }

// Line returns the current record's runs-file line, a JSON object ending
// in '\n', byte for byte what Write writes for it, encoding it on the
// first call for the record (Add checked that it can be encoded). It is
// valid until the next call to Next. eval/pipeline does not call it:
// runs.Writer encodes the line itself, and only when there is a runs file.
func (it *Sorted) Line() []byte {
	if it.line == nil && it.valid {
		it.lbuf.Reset()
		if err := runs.EncodeLine(&it.lbuf, it.rec); err != nil {
			it.err = it.s.fail(fmt.Errorf("runs: sorting: run %s: %w", it.rec.Key, err))
			return nil
		}
		it.line = it.lbuf.Bytes()
	}
	return it.line
}

// runs.Seq returns the current record's position, as added.
func (it *Sorted) Seq() runs.Seq { return it.seq }

// Duplicates returns the records left out so far because an earlier one
// (by runs.Seq) has the same key, in input order (runs.Seq); all of them once Next
// has returned false, or with LimitDuplicates(n) the n first.
func (it *Sorted) Duplicates() []runs.Duplicate {
	it.trimDuplicates()
	return it.dups
}

// DuplicateCount returns the number of duplicates found so far, kept or not.
func (it *Sorted) DuplicateCount() int { return it.ndups }

// LimitDuplicates makes the Sorted keep only the n duplicates first in
// input order (n ≤ 0: all, the default), so that memory stays bounded
// however many there are; DuplicateCount counts them all.
func (it *Sorted) LimitDuplicates(n int) { it.limit = max(n, 0) }

// trimDuplicates sorts the duplicates by runs.Seq and keeps the first limit.
func (it *Sorted) trimDuplicates() {
	slices.SortStableFunc(it.dups, func(a, b runs.Duplicate) int { return a.Seq.Compare(b.Seq) })
	if it.limit > 0 && len(it.dups) > it.limit {
		clear(it.dups[it.limit:])
		it.dups = it.dups[:it.limit]
	}
}

// Err returns the error that ended the iteration, if any (an I/O error on
// the temporary files, which are removed then).
func (it *Sorted) Err() error { return it.err }
