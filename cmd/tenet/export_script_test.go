package main

import (
	"bytes"
	"fmt"
	"os"

	pq "github.com/parquet-go/parquet-go"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runs/parquet"
)

// parquet-dump FILE prints what a reader of a Parquet export sees: its
// size, rows and row groups, created_by and footer metadata, then its rows
// read back with parquet-go's reader as runs-file lines
// (testdata/export.txtar compares them with the runs file exported).
func init() {
	scriptCmds["parquet-dump"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: parquet-dump FILE")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
		ts.Check(err)
		md := f.Metadata()
		fmt.Fprintf(ts.Stdout(), "%d bytes, %d rows, row groups: %d, created by %q\n", len(data), md.NumRows, len(md.RowGroups), md.CreatedBy)
		for _, kv := range md.KeyValueMetadata {
			fmt.Fprintf(ts.Stdout(), "%s = %s\n", kv.Key, kv.Value)
		}
		rows, err := pq.Read[parquet.Row](bytes.NewReader(data), int64(len(data)))
		ts.Check(err)
		recs := make([]runs.Record, len(rows))
		for i, r := range rows {
			recs[i] = r.Record()
		}
		ts.Check(runs.Write(ts.Stdout(), recs))
	}
}
