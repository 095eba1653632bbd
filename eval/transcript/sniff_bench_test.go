package transcript

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/transcript/frame"
)

// BenchmarkSniff: all sniffers over a full 64 KiB head (the cost auto adds
// per file).
func BenchmarkSniff(b *testing.B) {
	line := `{"messages": [{"role": "user", "content": "` + strings.Repeat("word ", 40) + `"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}` + "\n"
	head := []byte(strings.Repeat(line, frame.SniffBytes/len(line)+1)[:frame.SniffBytes])
	b.SetBytes(int64(len(head)))
	for b.Loop() {
		if got := Sniff(head); len(got) != 1 {
			b.Fatal(got)
		}
	}
}
