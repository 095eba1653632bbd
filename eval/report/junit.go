package report

import (
	"errors"
	"io"
)

// WriteJUnit renders the Document as JUnit. (Being written.)
func WriteJUnit(w io.Writer, d *Document) error {
	return errors.New("the junit format is not written yet")
}
