package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// A Set is the outputs of one command (a runs file and a report, say),
// committed together so that they never disagree: each is written to its
// own temporary file, and only once every one of them has been written,
// synced and closed without error are they renamed over their destinations,
// one after the other. A full disk, or any other failure before the first
// rename, leaves every destination as it was.
//
// A rename can still fail after others succeeded (a destination replaced by
// a directory meanwhile, a failing disk); the old content of those already
// replaced is gone, so Commit's error (a *SetError) then says exactly which
// destinations were replaced and which were not. The renames are done under
// the lock Stop takes: an interrupt comes before them all or after them all.
//
// Outputs that are not regular files (a device such as /dev/stdout or
// /dev/full, a FIFO) are written directly as the command writes them, as
// Create does; they cannot wait for the others, and errors list them apart.
//
// The zero Set is ready to use. A Set is not safe for concurrent use.
type Set struct {
	files []*File
	fs    *fileSystem // nil: the os package's calls (tests substitute failures)
	done  bool
}

// SetError is the error of a Set that failed: Err is the first failure,
// naming its output, and the lists say what became of the others (the
// failed output is in none of them).
type SetError struct {
	Err      error
	Replaced []string // replaced with their new content before the failure
	Kept     []string // left as they were (not created, when they did not exist)
	Direct   []string // devices or pipes, written directly before the failure
}

func (e *SetError) Error() string {
	parts := []string{e.Err.Error()}
	if len(e.Replaced) > 0 {
		parts = append(parts, "replaced: "+strings.Join(e.Replaced, ", "))
	}
	if len(e.Kept) > 0 {
		parts = append(parts, "not replaced (left as they were): "+strings.Join(e.Kept, ", "))
	}
	if len(e.Direct) > 0 {
		parts = append(parts, "written directly (not regular files): "+strings.Join(e.Direct, ", "))
	}
	return strings.Join(parts, "; ")
}

func (e *SetError) Unwrap() error { return e.Err }

// Create adds an output to the set: path is written as by the package's
// Create, but only the Set's Commit replaces it. When Create fails, the
// error names the outputs of the set that are then left as they were; the
// caller should Abort the set.
func (s *Set) Create(path string, perm os.FileMode) (*File, error) {
	if s.done {
		return nil, fmt.Errorf("writing %s: the set is already committed or aborted", path)
	}
	f, err := create(path, perm, s.fs)
	if err != nil {
		return nil, s.failed(err, nil, 0)
	}
	f.set = s
	s.files = append(s.files, f)
	return f, nil
}

// Cancel aborts the set because of err, which happened outside it (a
// report that could not be rendered), and returns err with what became of
// the outputs: none was replaced.
func (s *Set) Cancel(err error) error {
	s.Abort()
	return s.failed(err, nil, 0)
}

// Commit finishes every output, then renames each over its destination,
// in the order they were created. It returns the first Write error of any
// output, or the first failure of its own, as a *SetError when the set has
// other outputs than the failed one; the temporary files are removed
// either way. Commit after Commit or Abort is an error.
func (s *Set) Commit() error {
	if s.done {
		return errors.New("atomicfile: the set is already committed or aborted")
	}
	s.done = true
	for _, f := range s.files {
		if err := f.finish(); err != nil {
			s.abort()
			return s.failed(err, f, 0)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if stopped {
		s.abortLocked()
		return s.failed(ErrStopped, nil, 0)
	}
	for i, f := range s.files {
		if f.direct {
			continue
		}
		if err := f.renameLocked(); err != nil {
			s.abortLocked()
			return s.failed(err, f, i)
		}
	}
	return nil
}

// Abort discards every output not yet replaced (see File.Abort). It does
// nothing after Commit, so it can be deferred.
func (s *Set) Abort() {
	s.done = true
	s.abort()
}

func (s *Set) abort() {
	mu.Lock()
	defer mu.Unlock()
	s.abortLocked()
}

func (s *Set) abortLocked() {
	for _, f := range s.files {
		f.abortLocked()
	}
}

// failed returns err with what became of each output but bad (the one
// that failed, or nil): those created before index replaced have been
// renamed over their destinations; err alone when there is nothing else
// to say (bad is the only output).
func (s *Set) failed(err error, bad *File, replaced int) error {
	e := &SetError{Err: err}
	for i, f := range s.files {
		switch {
		case f == bad:
		case f.direct:
			e.Direct = append(e.Direct, f.path)
		case i < replaced:
			e.Replaced = append(e.Replaced, f.path)
		default:
			e.Kept = append(e.Kept, f.path)
		}
	}
	if len(e.Replaced)+len(e.Kept)+len(e.Direct) == 0 {
		return err
	}
	return e
}
