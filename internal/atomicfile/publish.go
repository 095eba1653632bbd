package atomicfile

import (
	"io"
	"os"
)

// Publish ends a command whose outputs are s and data, its main output
// (a report): data joins the set as path and the set is committed, so that
// every output is replaced or none is. With path "" data goes to stdout
// instead, only once the set is committed: what it says about the files
// then holds.
func (s *Set) Publish(path string, data []byte, perm os.FileMode, stdout io.Writer) error {
	if path != "" {
		w, err := s.Create(path, perm)
		if err != nil {
			s.Abort()
			return err
		}
		w.Write(data) // an error stays with w: Commit returns it, naming the other outputs
	}
	if err := s.Commit(); err != nil {
		return err
	}
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	return nil
}
