package native

import (
	"os"
	"strings"
	"testing"
)

// The example of docs/transcripts.md's tenet section is a valid run, read
// to the calls the text says.
func TestDocExample(t *testing.T) {
	data, err := os.ReadFile("../../../docs/transcripts.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## tenet\n")
	if !ok {
		t.Fatal("no tenet section")
	}
	_, rest, _ := strings.Cut(sec, "```json\n")
	example, _, _ := strings.Cut(rest, "```")
	rec := strings.ReplaceAll(example, "\n", "")
	if err := validates(t, schema(t), rec); err != nil {
		t.Errorf("schema: %v", err)
	}
	rn := decode(t, rec)
	check(t, "calls", []any{rn.Calls[0].Tool, rn.Calls[0].Ok, rn.Calls[1].Tool, rn.Calls[1].Ok, rn.Calls[1].Error}, []any{"get_balance", true, "send_money", false, "daily limit reached"})
	check(t, "state", []any{rn.Pre, rn.Post}, []any{map[string]any{"balance": 2500.0}, map[string]any{"balance": 2500.0}})
	check(t, "output", rn.Output, "The bank refused the transfer.")
}
