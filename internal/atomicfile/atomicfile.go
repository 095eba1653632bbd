// Package atomicfile writes files atomically: the data goes to a temporary
// file in the destination's directory, is synced, and is renamed over the
// destination, so readers see the old file or the whole new one, never a
// partial write.
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
}

// Create starts writing path atomically; Commit gives it permissions perm.
// Errors name path, not the temporary file.
func Create(path string, perm os.FileMode) (*File, error) {
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
			return &File{path: path, perm: perm, tmp: out, direct: true}, nil
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
		// Name the destination, not the temporary file the user never asked for.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	f := &File{path: path, perm: perm, tmp: tmp}
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
	n, err := f.tmp.Write(b)
	if err != nil {
		f.err = fmt.Errorf("writing %s: %w", f.path, err)
		return n, f.err
	}
	return n, nil
}

// Commit syncs the temporary file, gives it the permissions and renames it
// over the destination. On any error (including an earlier Write error) the
// temporary file is removed and the destination is left as it was. Commit
// after Commit or Abort is an error.
func (f *File) Commit() (err error) {
	if f.done {
		return fmt.Errorf("writing %s: already committed or aborted", f.path)
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
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
	if err = f.tmp.Chmod(f.perm); err != nil {
		return err
	}
	if err = f.tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err = f.tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	return f.rename()
}

// rename is the end of Commit, under the lock Stop takes.
func (f *File) rename() error {
	mu.Lock()
	defer mu.Unlock()
	if stopped {
		return fmt.Errorf("writing %s: %w", f.path, ErrStopped)
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		return fmt.Errorf("writing %s: %w", f.path, err)
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
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	if f.direct {
		return // what was written to a device cannot be taken back
	}
	os.Remove(f.tmp.Name())
	mu.Lock()
	delete(open, f)
	mu.Unlock()
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
