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
	"github.com/rogpeppe/go-internal/testscript"
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

// scriptCmds are the testscript commands of testdata/*.txtar besides the
// built-in ones:
//
//	compress gzip|zstd|gzip-flip SRC DST
//
// writes SRC compressed to DST (gzip-flip: gzip with the byte in the
// middle of the stream xored with 0xff, a corrupt stream).
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"compress": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: compress gzip|zstd|gzip-flip SRC DST")
		}
		data, err := os.ReadFile(ts.MkAbs(args[1]))
		ts.Check(err)
		var buf bytes.Buffer
		switch args[0] {
		case "gzip", "gzip-flip":
			zw := gzip.NewWriter(&buf)
			_, err = zw.Write(data)
			ts.Check(err)
			ts.Check(zw.Close())
		case "zstd":
			zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
			ts.Check(err)
			_, err = zw.Write(data)
			ts.Check(err)
			ts.Check(zw.Close())
		default:
			ts.Fatalf("compress: unknown format %q", args[0])
		}
		out := buf.Bytes()
		if args[0] == "gzip-flip" {
			out[len(out)/2] ^= 0xff
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), out, 0o644))
	},
}
