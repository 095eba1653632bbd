// Package atomicfile writes files atomically: the data goes to a temporary
// file in the destination's directory, is synced, and is renamed over the
// destination, so readers see the old file or the whole new one, never a
// partial write. A Set does the same for the several outputs of one
// command: none is replaced until all have been written (see Set).
//
// A destination that is a symbolic link is followed: the file it names is
// replaced and the link stays. A destination that exists and is not a
// regular file — /dev/null, a FIFO, a terminal — cannot be replaced by a
// rename; it is written directly instead (not atomically: there is no old
// content to keep).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// ErrStopped is the error of Create and Commit after Stop.
var ErrStopped = errors.New("interrupted")

// The process-wide state Stop acts on: the Files not yet committed or
// aborted, and the destinations committed so far.
var (
	mu        sync.Mutex
	stopped   bool
	open      = map[*File]bool{}
	committed []string
)

// Stop is for an interrupted process: it removes the temporary file of
// every File not yet committed, and makes every later Create and Commit
// fail with ErrStopped, so that nothing more is written and nothing is
// left behind. A Commit in progress finishes first: its destination is
// then whole. Stop returns the destinations committed before it, in order;
// calling it again returns the same list.
func Stop() []string {
	mu.Lock()
	defer mu.Unlock()
	if !stopped {
		stopped = true
		for f := range open {
			os.Remove(f.tmp.Name()) // its writer may still hold it open: unlinked, it is gone at exit
		}
	}
	return append([]string(nil), committed...)
}

// Write writes data to path atomically with permissions perm.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file being written atomically, streamed to a temporary file
// ("."+base+".tmp-*" next to the destination) until Commit renames it over
// the destination. Until then the destination is untouched; Abort, or any
// failure, removes the temporary file. A File is not safe for concurrent
// use.
type File struct {
	path string
	perm os.FileMode
	tmp  *os.File
	// direct: tmp is the destination itself (a device, FIFO or socket),
	// opened for writing; there is no temporary file.
	direct bool
	done   bool // committed or aborted: the temporary file is gone
	err    error
	fs     *fileSystem // nil: the os package's calls
	set    *Set        // the set that commits it, if any
}

// fileSystem holds the calls of a write that fail when the disk is full or
// failing. A Set's tests (set_test.go) replace them to fail at a chosen
// point, which no real file system does on demand; a nil fileSystem or
// field is the os package's call.
type fileSystem struct {
	write  func(f *os.File, b []byte) (int, error)
	sync   func(f *os.File) error
	rename func(oldpath, newpath string) error
}

func (fs *fileSystem) writeTo(f *os.File, b []byte) (int, error) {
	if fs == nil || fs.write == nil {
		return f.Write(b)
	}
	return fs.write(f, b)
}

func (fs *fileSystem) syncFile(f *os.File) error {
	if fs == nil || fs.sync == nil {
		return f.Sync()
	}
	return fs.sync(f)
}

func (fs *fileSystem) renameFile(oldpath, newpath string) error {
	if fs == nil || fs.rename == nil {
		return os.Rename(oldpath, newpath)
	}
	return fs.rename(oldpath, newpath)
}

// Create starts writing path atomically; Commit gives it permissions perm.
// Errors name path, not the temporary file.
func Create(path string, perm os.FileMode) (*File, error) {
	return create(path, perm, nil)
}

func create(path string, perm os.FileMode, fsys *fileSystem) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mu.Lock()
	defer mu.Unlock()
	if stopped {
		return nil, fmt.Errorf("writing %s: %w", path, ErrStopped)
	}
	// The kernel follows links, /proc's included, to say what the path is.
	dest := path
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() && !fi.IsDir() {
			out, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return nil, fmt.Errorf("writing %s: %w", path, err)
			}
			return &File{path: path, perm: perm, tmp: out, direct: true, fs: fsys}, nil
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			dest = real
		}
	} else {
		dest = followLinks(path) // a dangling link: its target is created
	}
	if dest != path {
		path = dest
		dir, base = filepath.Split(dest)
		if dir == "" {
			dir = "."
		}
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, bare(err))
	}
	f := &File{path: path, perm: perm, tmp: tmp, fs: fsys}
	open[f] = true
	return f, nil
}

// Write appends b to the temporary file. After a write error, later Writes
// and Commit return that error; the caller should Abort.
func (f *File) Write(b []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.done {
		return 0, fmt.Errorf("writing %s: already committed or aborted", f.path)
	}
	if f.direct && isStopped() {
		f.err = fmt.Errorf("writing %s: %w", f.path, ErrStopped)
		return 0, f.err
	}
	n, err := f.fs.writeTo(f.tmp, b)
	if err != nil {
		f.err = fmt.Errorf("writing %s: %w", f.path, bare(err))
		return n, f.err
	}
	return n, nil
}

// Commit syncs the temporary file, gives it the permissions and renames it
// over the destination. On any error (including an earlier Write error) the
// temporary file is removed and the destination is left as it was. Commit
// after Commit or Abort is an error, and so is Commit of a File of a Set
// (the Set commits it).
func (f *File) Commit() (err error) {
	if f.done {
		return fmt.Errorf("writing %s: already committed or aborted", f.path)
	}
	if f.set != nil {
		return fmt.Errorf("writing %s: part of a set: commit the set", f.path)
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	if err := f.finish(); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if stopped {
		return fmt.Errorf("writing %s: %w", f.path, ErrStopped)
	}
	return f.renameLocked()
}

// finish is the first half of Commit: everything but the rename. It
// returns an earlier Write error, else syncs, sets the permissions and
// closes the temporary file (a direct File is closed: it is then done).
func (f *File) finish() error {
	if f.err != nil {
		return f.err
	}
	if f.direct {
		f.done = true
		if err := f.tmp.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
		return nil
	}
	if err := f.tmp.Chmod(f.perm); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, bare(err))
	}
	if err := f.fs.syncFile(f.tmp); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, bare(err))
	}
	if err := f.tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, bare(err))
	}
	return nil
}

// renameLocked is the end of Commit, under mu (the lock Stop takes): the
// rename that replaces the destination.
func (f *File) renameLocked() error {
	if err := f.fs.renameFile(f.tmp.Name(), f.path); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, bare(err))
	}
	f.done = true
	delete(open, f)
	committed = append(committed, f.path)
	return nil
}

// Abort discards what was written: it closes and removes the temporary file
// and leaves the destination as it was. It does nothing after Commit or a
// previous Abort, so it can be deferred.
func (f *File) Abort() {
	mu.Lock()
	defer mu.Unlock()
	f.abortLocked()
}

// abortLocked is Abort under mu.
func (f *File) abortLocked() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close() // closed already after finish: the error says so, and is of no use
	if f.direct {
		return // what was written to a device cannot be taken back
	}
	os.Remove(f.tmp.Name())
	delete(open, f)
}

// bare is err without the path of an *fs.PathError or *os.LinkError:
// errors name the destination, not the temporary file the user never asked
// for (nor, for a device, the same name twice).
func bare(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

func isStopped() bool {
	mu.Lock()
	defer mu.Unlock()
	return stopped
}

// followLinks returns the file path names once symbolic links are followed
// (at most 40, as Linux does), even when the last one dangles; path itself
// when it is not a link or cannot be read.
func followLinks(path string) string {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		target, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return path
}
