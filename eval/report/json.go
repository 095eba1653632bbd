package report

import (
	"errors"
	"io"
)

// WriteJSON renders the Document as JSON. (Being written.)
func WriteJSON(w io.Writer, d *Document) error {
	return errors.New("the json format is not written yet")
}
