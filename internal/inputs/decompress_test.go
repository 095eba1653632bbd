package inputs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func gz(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zst(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(r io.Reader) (string, error) {
	d := Decompress(r)
	defer d.Close()
	b, err := io.ReadAll(d)
	return string(b), err
}

// TestDecompress: the content decides, not a name; concatenated gzip
// members and zstd frames are read whole; anything else passes as it is,
// including inputs shorter than a magic number.
func TestDecompress(t *testing.T) {
	const text = "{\"a\":1}\n{\"b\":2}\n"
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"plain", []byte(text), text},
		{"empty", nil, ""},
		{"one byte", []byte{0x1f}, "\x1f"},
		{"zstd magic prefix only", []byte{0x28, 0xb5}, "\x28\xb5"},
		{"gzip", gz(t, text), text},
		{"gzip members", append(gz(t, "one\n"), gz(t, "two\n")...), "one\ntwo\n"},
		{"zstd", zst(t, text), text},
		{"zstd frames", append(zst(t, "one\n"), zst(t, "two\n")...), "one\ntwo\n"},
	} {
		got, err := readAll(bytes.NewReader(c.in))
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestDecompressErrors: corrupt and truncated streams are *StreamErrors
// naming the format and the cause.
func TestDecompressErrors(t *testing.T) {
	text := strings.Repeat("{\"messages\":[]}\n", 1000)
	g := gz(t, text)
	flipped := bytes.Clone(g)
	flipped[len(flipped)-5] ^= 0xff // in the checksum
	z := zst(t, text)
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"gzip header only", g[:2], "truncated gzip stream (the file ends inside it); nothing decompressed (a file that starts with gzip's magic bytes 1f 8b is read as gzip, whatever its name)"},
		{"gzip truncated", g[:len(g)-10], "truncated gzip stream (the file ends inside it)"},
		{"gzip checksum", flipped, "corrupt gzip stream: gzip: invalid checksum"},
		{"zstd truncated", z[:len(z)-3], "truncated zstd stream (the file ends inside it); nothing decompressed (a file that starts with zstd's magic bytes 28 b5 2f fd is read as zstd, whatever its name)"},
		// review 15: a .jsonl file that only starts with gzip's magic bytes.
		{"not gzip", []byte("\x1f\x8b\x08\x00garbage"), "truncated gzip stream (the file ends inside it); nothing decompressed (a file that starts with gzip's magic bytes 1f 8b is read as gzip, whatever its name)"},
		{"bad gzip header", []byte("\x1f\x8bgarbage-not-a-header"), "corrupt gzip stream: gzip: invalid header; nothing decompressed (a file that starts with gzip's magic bytes 1f 8b is read as gzip, whatever its name)"},
	} {
		_, err := readAll(bytes.NewReader(c.in))
		var se *StreamError
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%s: %v (%T); want the *StreamError %q", c.name, err, err, c.want)
		}
	}
}

// TestZstdWindowBound: a frame asking for a window over MaxZstdWindow is
// refused, not allocated.
func TestZstdWindowBound(t *testing.T) {
	var b bytes.Buffer
	w, err := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(128<<20), zstd.WithSingleSegment(false))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("x"), 1<<20))
	w.Close()
	_, err = readAll(&b)
	var se *StreamError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "corrupt zstd stream: ") || !strings.Contains(err.Error(), "window size") {
		t.Errorf("got %v; want a corrupt zstd stream about its window size", err)
	}
}

// failingReader gives its bytes, then a read error (a failing disk).
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// TestDecompressReadError: an error reading the compressed bytes is that
// error, not a corrupt stream.
func TestDecompressReadError(t *testing.T) {
	eio := errors.New("input/output error")
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"plain", []byte("{}\n{")},
		{"gzip header", []byte{0x1f, 0x8b, 8}},
		{"gzip body", half(gz(t, strings.Repeat("{}\n", 10000)))},
		{"zstd body", half(zst(t, strings.Repeat("{}\n", 10000)))},
	} {
		_, err := readAll(&failingReader{data: c.data, err: eio})
		if err != eio {
			t.Errorf("%s: %v (%T); want the read error", c.name, err, err)
		}
	}
}

func half(b []byte) []byte { return b[:len(b)/2] }

// FuzzDecompress: any bytes decompress to content or to an error; a
// plain input (no magic) comes back as it is.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte("{}\n"))
	f.Add(gz(f, "{\"a\":1}\n"))
	f.Add(zst(f, "{\"a\":1}\n"))
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readAll(bytes.NewReader(data))
		if !bytes.HasPrefix(data, gzipMagic) && !bytes.HasPrefix(data, zstdMagic) && (err != nil || got != string(data)) {
			t.Fatalf("plain input: %q, %v", got, err)
		}
	})
}

// TestCompression: the compression found is told after the first Read,
// so that a refusal of the content can say it was decompressed (review
// 15: a gzip of garbage was refused as if it were the file's own text).
func TestCompression(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"plain", []byte("{}\n"), ""},
		{"empty", nil, ""},
		{"gzip", gz(t, "{}\n"), "gzip"},
		{"zstd", zst(t, "{}\n"), "zstd"},
	} {
		d := Decompress(bytes.NewReader(c.in))
		comp := d.(interface{ Compression() string })
		if got := comp.Compression(); got != "" {
			t.Errorf("%s: before a Read: %q", c.name, got)
		}
		if _, err := io.ReadAll(d); err != nil {
			t.Fatal(err)
		}
		if got := comp.Compression(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		d.Close()
	}
}
