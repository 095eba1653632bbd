package gateway

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The limit counts a line's bytes without its newline; a longer line is
// reported by its length and the next line is read whole, at any size
// around the read buffer.
func TestLineReaderLimit(t *testing.T) {
	for _, max := range []int{4, readBuffer - 1, readBuffer, readBuffer + 1, 3 * readBuffer} {
		ok, long := strings.Repeat("a", max), strings.Repeat("b", max+1)
		lr := newLineReader(strings.NewReader(ok+"\n"+long+"\n"+"c\n"+long), max)
		var got []string
		for {
			line, over, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if over > 0 {
				got = append(got, fmt.Sprintf("over %d", over))
				continue
			}
			got = append(got, fmt.Sprintf("%d %q", len(line), line[len(line)-1]))
		}
		want := []string{fmt.Sprintf("%d '\\n'", max+1), fmt.Sprintf("over %d", max+2), "2 '\\n'", fmt.Sprintf("over %d", max+1)}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("max %d: got %v, want %v", max, got, want)
		}
	}
}
