package runs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
)

func TestBundleMagic(t *testing.T) {
	if bundleMagic != bundle.Magic {
		t.Fatalf("bundleMagic %q, compiler/bundle's Magic %q", bundleMagic, bundle.Magic)
	}
}

// TestNotRunsFile: what is plainly not a runs file is refused in one line
// naming what it is, at its first line; runs files, and lines the codec
// judges one by one, are left to it.
func TestNotRunsFile(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"bundle", bundle.Magic + "\x00\x01rest", "f:1: a tenet bundle, not a runs file (a bundle is given with --contract)"},
		{"gzip", "\x1f\x8b\x08\x00rest", "f:1: gzip-compressed: decompress it first (gunzip -k), runs files are read as plain JSONL"},
		{"parquet", "PAR1\x15\x00\x15rest", "f:1: a Parquet file (tenet export writes them for DuckDB, pandas or Spark), not a runs file: give the runs files it was exported from, or tenet history export --format jsonl"},
		{"zstd", "\x28\xb5\x2f\xfdrest", "f:1: zstd-compressed: decompress it first (zstd -d), runs files are read as plain JSONL"},
		{"zip", "PK\x03\x04rest", "f:1: a ZIP archive (an Inspect .eval log?), not a runs file: tenet eval CONTRACT FILE judges transcripts"},
		{"binary", "\x00\x01\x02garbage", "f:1: binary data, not a runs file (JSONL: one labelled run per line, docs/runs-format.md)"},
		{"transcript", `{"messages":[{"role":"user","content":"hi"}]}` + "\n", `f:1: a transcript (a record with "messages" and no "condition"), not a runs file: tenet eval CONTRACT FILE judges transcripts`},
	} {
		_, err := Read("f", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.name, err, c.want)
		}
	}
	// A runs record, and a long file whose peek ends inside a rune, read as usual.
	rec := `{"condition":"c","task":"t","labels":{"utility":true}}` + "\n"
	if recs, err := Read("f", strings.NewReader(rec)); err != nil || len(recs) != 1 {
		t.Errorf("runs record: %d records, error %v", len(recs), err)
	}
	var long bytes.Buffer
	for i := 0; long.Len() < 8192; i++ {
		fmt.Fprintf(&long, `{"condition":"c","task":"té%d","labels":{"utility":true}}`+"\n", i)
	}
	if recs, err := Read("f", &long); err != nil || len(recs) == 0 {
		t.Errorf("long runs file: %d records, error %v", len(recs), err)
	}
}
