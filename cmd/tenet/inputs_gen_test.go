package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/klauspost/compress/zstd"
)

// generateCompressed writes the parts (as gen text does) to path, gzip
// or zstd compressed; zstd-cut N drops the compressed stream's last N
// bytes (a truncated download).
func generateCompressed(path, kind string, parts []string) error {
	cut := 0
	if kind == "zstd-cut" {
		if len(parts) == 0 {
			return fmt.Errorf("want FILE zstd-cut N PART...")
		}
		n, err := strconv.Atoi(parts[0])
		if err != nil {
			return err
		}
		cut, parts = n, parts[1:]
	}
	var buf bytes.Buffer
	var zw io.WriteCloser
	if kind == "gzip" {
		zw = gzip.NewWriter(&buf)
	} else {
		z, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return err
		}
		zw = z
	}
	w := bufio.NewWriterSize(zw, 1<<20)
	if err := writeParts(w, parts); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	data := buf.Bytes()
	if cut > len(data) {
		return fmt.Errorf("zstd-cut %d: the stream has %d bytes", cut, len(data))
	}
	return os.WriteFile(path, data[:len(data)-cut], 0o644)
}
