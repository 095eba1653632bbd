// Package readlimit reads whole files with a size limit, so that a file
// given where a small one is expected (a contract file, a bundle) cannot
// make tenet allocate without bound. Such files are read only when they are
// regular files, and directories listed only when they are directories
// (OpenRegular, ReadDir): a named pipe or a device is refused before it is
// read, so it can neither block tenet nor feed it without end.
package readlimit

import (
	"fmt"
	"io"
)

// ReadFile reads the file at path, refusing one longer than max bytes
// with an error that says so (the rest is not read), and anything but a
// regular file with a *FileTypeError (see OpenRegular).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than the limit of %s", path, Bytes(max))
	}
	return data, nil
}

// Bytes renders a size for messages: in MiB when it is a whole number of
// them, else in bytes.
func Bytes(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
