package readlimit

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// FileTypeError is the error for a path that names the wrong kind of file:
// a named pipe, a device or a socket where a regular file or a directory
// is expected.
type FileTypeError struct {
	Path string
	Mode fs.FileMode // the type bits of what Path names
	Want string      // "a regular file" or "a directory"
}

func (e *FileTypeError) Error() string {
	return fmt.Sprintf("%s is %s, not %s", e.Path, Kind(e.Mode), e.Want)
}

// Kind names the type of a file mode for messages ("a named pipe (FIFO)").
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		// Also an anonymous pipe reached through /dev/fd or /dev/stdin.
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// OpenRegular opens path for reading when it is a regular file (symbolic
// links followed). Anything else is refused with a *FileTypeError before
// a byte is read: opening a named pipe waits for a writer that may never
// come, a device may never end, and opening some devices has effects.
//
// The type is checked twice: by path first, so that a pipe or a device is
// never opened, and on the open file, because path can be replaced in
// between; the open is non-blocking so that a pipe swapped in then does
// not block either.
func OpenRegular(path string) (*os.File, error) {
	const want = "a regular file"
	// A path that cannot be stat'ed is left to the open, whose error
	// ("open x: no such file or directory") is the one tenet always gave.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &FileTypeError{Path: path, Mode: st.Mode().Type(), Want: want}
	}
	// O_NONBLOCK only matters for what is not a regular file, which the
	// check below then refuses.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			return nil, &FileTypeError{Path: path, Mode: st.Mode().Type(), Want: want}
		}
		return nil, err
	}
	return f, nil
}

// ReadDir is os.ReadDir (entries sorted by name) with an error that says
// what path is when it is not a directory ("a named pipe (FIFO), not a
// directory") rather than the system's "not a directory". os.ReadDir
// opens with O_DIRECTORY, so it does not block on a pipe either.
func ReadDir(path string) ([]os.DirEntry, error) {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return nil, &FileTypeError{Path: path, Mode: st.Mode().Type(), Want: "a directory"}
	}
	return os.ReadDir(path)
}
