package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// notRunsFile says, from a file's first bytes, what it is when it is
// plainly not a runs file — a tenet bundle, a compressed or zipped file,
// binary data, a transcript — so that the reader refuses it in one
// sentence instead of one "invalid JSON" per line. "" when it may be one
// (each line is then read and judged as usual).
func notRunsFile(head []byte) (line int, why string) {
	switch {
	case bytes.HasPrefix(head, []byte(bundleMagic)):
		return 1, "a tenet bundle, not a runs file (a bundle is given with --contract)"
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return 1, "gzip-compressed: decompress it first (gunzip -k), runs files are read as plain JSONL"
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return 1, "zstd-compressed: decompress it first (zstd -d), runs files are read as plain JSONL"
	case bytes.HasPrefix(head, []byte("PAR1")):
		return 1, "a Parquet file (tenet export writes them for DuckDB, pandas or Spark), not a runs file: give the runs files it was exported from, or tenet history export --format jsonl"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return 1, "a ZIP archive (an Inspect .eval log?), not a runs file: tenet eval CONTRACT FILE judges transcripts"
	case !startsObject(head) && (bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(trimPartialRune(head))):
		return 1, "binary data, not a runs file (JSONL: one labelled run per line, docs/runs-format.md)"
	}
	// A record (among the whole lines peeked) that is a JSON object
	// holding a transcript and no run key is a transcript given where runs
	// are read; a transcript file may start with a header line of meta.
	lines := bytes.Split(head, []byte("\n"))
	for i, line := range lines[:len(lines)-1] { // the last may be cut
		var rec map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil {
			continue
		}
		if _, ok := rec["condition"]; ok {
			return 0, ""
		}
		for _, k := range []string{"messages", "input", "request", "resourceSpans", "samples"} {
			if _, ok := rec[k]; ok {
				return i + 1, fmt.Sprintf("a transcript (a record with %q and no \"condition\"), not a runs file: tenet eval CONTRACT FILE judges transcripts", k)
			}
		}
	}
	return 0, ""
}

// startsObject reports whether the first byte after white space is '{'
// (a JSON object, as every runs record is).
func startsObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// bundleMagic is the first bytes of every tenet bundle (compiler/bundle's
// Magic, which this package may not import; TestBundleMagic keeps the two
// equal).
const bundleMagic = "\x89TNB\r\n\x1a\n"

// trimPartialRune drops a rune cut at the end of a peeked prefix, which
// is not invalid UTF-8 in the file.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// sniffed peeks at r's first bytes: the reader to read from (the peeked
// bytes not lost) and, when the file is plainly not a runs file, why and
// at which line.
func sniffed(r io.Reader) (io.Reader, int, string) {
	br := bufio.NewReaderSize(r, 4096)
	head, _ := br.Peek(4096)
	line, why := notRunsFile(head)
	return br, line, why
}
