// Package parquet writes judged runs (runs.Record, docs/runs-format.md) as
// one Parquet file, so that DuckDB, pandas (pyarrow) or Spark read them
// without a tenet in between (docs/export.md). One row per run; the
// three-valued labels are nullable booleans whose null is never false (an
// unknown label keeps its reason in a column beside it); invariants and
// failure classes are Parquet MAPs, the audit a LIST of structs.
//
// The writer is github.com/parquet-go/parquet-go, pure Go, and the bytes
// are a function of the records and Options alone: records are sorted by
// key first, created_by and the footer's key-value metadata are fixed
// (no time, no host), row groups hold a fixed number of rows, pages are
// zstd-compressed at a fixed level, and the writer's map path sorts each
// map's keys (TestMapsSorted checks that it still does). It imports
// eval/runs only of tenet.
package parquet

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/tenetlang/tenet/eval/runs"
)

// Schema identifies the file's layout, recorded in the footer under
// MetaSchema. A change a reader could notice (a column added, renamed or
// retyped, a nullability changed) takes a new version.
const Schema = "tenet-runs-parquet/1"

// Footer keys (Parquet key-value metadata) Write always sets; keys under
// "tenet." are reserved for them.
const (
	MetaSchema  = "tenet.schema"
	MetaVersion = "tenet.version"
)

// RowGroupRows is the number of rows per row group: fixed, so that the
// bytes do not depend on memory, and large enough that a reader's
// per-group overhead is small against a group (runs are small rows).
const RowGroupRows = 1 << 16

// Options are what Write records beside the runs.
type Options struct {
	// Version is the tenet version recorded in the footer (MetaVersion)
	// and in created_by: the one reports record (compiler.Version), not
	// the binary's build, so that the same runs give the same bytes from
	// every build of one version. Required.
	Version string
	// Metadata adds key-value pairs to the footer (a history export may
	// name its evaluation); written sorted by key. A key under "tenet." is
	// refused: those are Write's own.
	Metadata map[string]string
}

// Write writes recs to w as one Parquet file, in key order (a copy is
// sorted: recs is not changed). Records are checked first as runs.Write
// checks them (runs.Check, runs.Encodable): on an invalid record nothing is
// written and the error names the run. Zero records give a valid file of
// zero rows.
func Write(w io.Writer, recs []runs.Record, opts Options) error {
	if opts.Version == "" {
		return errors.New("parquet export: no tenet version given (Options.Version)")
	}
	for k := range opts.Metadata {
		if strings.HasPrefix(k, "tenet.") {
			return fmt.Errorf("parquet export: metadata key %q is reserved (keys under \"tenet.\" are the writer's own)", k)
		}
	}
	if err := runs.Check(recs); err != nil {
		return err
	}
	for _, r := range recs {
		if err := runs.Encodable(r); err != nil {
			return err // it names the run
		}
	}
	sorted := slices.Clone(recs)
	runs.SortRecords(sorted)

	options := []pq.WriterOption{
		// The spec's form "app version V"; no build hash, which would
		// differ between builds of one version.
		&pq.WriterConfig{CreatedBy: "tenet version " + opts.Version},
		pq.Compression(&zstd.Codec{Level: zstd.SpeedDefault, Concurrency: 1}),
		pq.MaxRowsPerRowGroup(RowGroupRows),
		// Version 1 data pages: every reader named in docs/export.md
		// reads them, while some Spark readers still refuse version 2.
		pq.DataPageVersion(1),
		pq.KeyValueMetadata(MetaSchema, Schema),
		pq.KeyValueMetadata(MetaVersion, opts.Version),
	}
	for _, k := range slices.Sorted(maps.Keys(opts.Metadata)) {
		options = append(options, pq.KeyValueMetadata(k, opts.Metadata[k]))
	}
	options = append(options, FileSchema())
	pw := pq.NewGenericWriter[Row](w, options...)
	rows := make([]Row, 0, min(len(sorted), RowGroupRows))
	for start := 0; start < len(sorted); start += RowGroupRows {
		rows = rows[:0]
		for _, r := range sorted[start:min(start+RowGroupRows, len(sorted))] {
			rows = append(rows, rowOf(r))
		}
		if _, err := pw.Write(rows); err != nil {
			return fmt.Errorf("parquet export: %w", err)
		}
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("parquet export: %w", err)
	}
	return nil
}

// SchemaName is the name of the schema's root (its message).
const SchemaName = "tenet_runs"

// FileSchema is the file's Parquet schema: Row's, named SchemaName. Its
// String is what `tenet export --schema` prints.
func FileSchema() *pq.Schema { return pq.NewSchema(SchemaName, pq.SchemaOf(Row{})) }
