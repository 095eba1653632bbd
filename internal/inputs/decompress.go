package inputs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// MaxZstdWindow bounds the window a zstd frame may ask for (the history
// the decoder keeps in memory): 64 MiB, twice what `zstd -19` uses and
// what `--long=26` uses. A frame that asks more is refused as corrupt
// input rather than allocated.
const MaxZstdWindow = 64 << 20

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// StreamError is a compressed stream that cannot be decompressed: corrupt,
// truncated, or asking for more memory than allowed. The transcript
// readers report it at the line being read (file:line: read: …).
type StreamError struct {
	Format string // "gzip" or "zstd"
	Err    error
	// AtStart: not one byte was decompressed. The file may then not be
	// compressed at all, only start with the format's magic bytes, which
	// decide whatever its name says: the message says so.
	AtStart bool
}

func (e *StreamError) Error() string {
	msg := fmt.Sprintf("corrupt %s stream: %v", e.Format, e.Err)
	if errors.Is(e.Err, io.ErrUnexpectedEOF) {
		msg = fmt.Sprintf("truncated %s stream (the file ends inside it)", e.Format)
	}
	if e.AtStart {
		magic := "1f 8b"
		if e.Format == "zstd" {
			magic = "28 b5 2f fd"
		}
		msg += fmt.Sprintf("; nothing decompressed (a file that starts with %s's magic bytes %s is read as %s, whatever its name)", e.Format, magic, e.Format)
	}
	return msg
}

func (e *StreamError) Unwrap() error { return e.Err }

// Decompress returns r's content: gzip (magic 1f 8b, concatenated members
// too) and zstd (magic 28 b5 2f fd, concatenated frames too) are
// decompressed, anything else is given as it is; the name of the file does
// not matter. Nothing is read until the first Read, so a corrupt header is
// an error of that Read, a *StreamError, like any later corruption. Close
// releases the decoder, not r. Memory is bounded by the decoders' state
// (MaxZstdWindow for zstd, 32 KiB for gzip), whatever the stream expands
// to: a line limit applies to the decompressed bytes the caller reads.
func Decompress(r io.Reader) io.ReadCloser {
	return &decompressor{src: srcReader{r: r}}
}

type decompressor struct {
	src srcReader
	r   io.Reader // set at the first Read
	err error     // the error setting it up, returned by every Read
	n   int64     // bytes given so far
	z   *zstd.Decoder
}

// srcReader keeps the first error reading the compressed bytes, so that a
// failing disk is not reported as a corrupt stream.
type srcReader struct {
	r   io.Reader
	err error
}

func (s *srcReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

func (d *decompressor) Read(p []byte) (int, error) {
	if d.r == nil && d.err == nil {
		d.r, d.err = d.open()
	}
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.r.Read(p)
	d.n += int64(n)
	if err != nil && err != io.EOF && d.src.err == nil {
		if _, ok := d.r.(*bufio.Reader); !ok {
			err = &StreamError{Format: d.format(), Err: err, AtStart: d.n == 0}
		}
	} else if err != nil && d.src.err != nil {
		err = d.src.err
	}
	return n, err
}

// Compression names the compression Decompress found at the start of
// its input, "gzip" or "zstd", or "" for none (and before the first Read):
// a refusal of the content can then say that it was decompressed, which
// the file's name may not tell. (An interface method, so that a reader of
// the content needs no import of this package to ask.)
func (d *decompressor) Compression() string {
	if _, plain := d.r.(*bufio.Reader); plain || d.r == nil {
		return ""
	}
	return d.format()
}

func (d *decompressor) format() string {
	if d.z != nil {
		return "zstd"
	}
	return "gzip"
}

func (d *decompressor) open() (io.Reader, error) {
	br := bufio.NewReader(&d.src)
	head, err := br.Peek(len(zstdMagic))
	if err != nil && err != io.EOF {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil && d.src.err != nil {
			return nil, d.src.err
		}
		if err != nil {
			return nil, &StreamError{Format: "gzip", Err: err, AtStart: true}
		}
		return zr, nil
	case bytes.HasPrefix(head, zstdMagic):
		// One goroutine-free decoder per file: files are read one at a time.
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(MaxZstdWindow))
		if err != nil {
			return nil, &StreamError{Format: "zstd", Err: err, AtStart: true}
		}
		d.z = z
		return z, nil
	}
	return br, nil
}

// Close releases the zstd decoder, if any.
func (d *decompressor) Close() error {
	if d.z != nil {
		d.z.Close()
	}
	return nil
}
