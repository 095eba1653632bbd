package brief

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/report"
)

// TestDetailsLineNeverClipsTheCommand: the summary's last line keeps the
// tenet explain command whole — three shards' runs files, whose sentence
// with --detail's is longer than Width, take a line of their own (it was
// cut to "… shard3.jsonl KE…"); one file keeps the single line; a sentence
// still longer than Width is split at its "; ".
func TestDetailsLineNeverClipsTheCommand(t *testing.T) {
	for _, c := range []struct {
		files report.RunsFiles
		want  string
	}{
		{report.RunsFiles{"shard1.jsonl", "shard2.jsonl", "shard3.jsonl"},
			"details: --detail (every table)\nthe runs files name every run; tenet explain shard1.jsonl shard2.jsonl shard3.jsonl KEY explains one\n"},
		{report.RunsFiles{"all.jsonl"},
			"details: --detail (every table); all.jsonl names every run; tenet explain all.jsonl KEY explains one\n"},
		// A long path (the AgentDojo summary test's temporary directory):
		// the sentence's halves on lines of their own, within Width.
		{report.RunsFiles{"/tmp/TestAgentDojoSummary3748951176/001/runs.jsonl"},
			"details: --detail (every table)\n/tmp/TestAgentDojoSummary3748951176/001/runs.jsonl names every run\ntenet explain /tmp/TestAgentDojoSummary3748951176/001/runs.jsonl KEY explains one\n"},
	} {
		var b strings.Builder
		detailsLine(&b, c.files.Explain())
		if b.String() != c.want {
			t.Errorf("%v:\n%q\nwant\n%q", c.files, b.String(), c.want)
		}
	}
}
