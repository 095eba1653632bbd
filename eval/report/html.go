package report

import (
	"errors"
	"io"
)

// WriteHTML renders the Document as HTML. (Being written.)
func WriteHTML(w io.Writer, d *Document) error {
	return errors.New("the html format is not written yet")
}
