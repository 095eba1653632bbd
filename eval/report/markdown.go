package report

import (
	"errors"
	"io"
)

// WriteMarkdown renders the Document as Markdown. (Being written.)
func WriteMarkdown(w io.Writer, d *Document) error {
	return errors.New("the markdown format is not written yet")
}
