// Package readlimit reads whole files with a size limit, so that a file
// given where a small one is expected (a contract file, a bundle) cannot
// make tenet allocate without bound — including a device or a named pipe
// that never ends.
package readlimit

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads the file at path, refusing one longer than max bytes
// with an error that says so (the rest is not read).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
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
