package parquet_test

import (
	"bytes"
	"flag"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runs/parquet"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/runstest"
	"github.com/tenetlang/tenet/internal/shared"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.txt")

const version = "0.1.0-test"

func write(t testing.TB, recs []runs.Record, opts parquet.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := parquet.Write(&b, recs, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readRows reads a file back with parquet-go's generic reader.
func readRows(t testing.TB, b []byte) []parquet.Row {
	t.Helper()
	rows, err := pq.Read[parquet.Row](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// viaRunsFile is recs as a runs file gives them back: sorted, and with
// empty maps and lists as nil, which is what a Parquet row maps back to.
func viaRunsFile(t testing.TB, recs []runs.Record) []runs.Record {
	t.Helper()
	var b bytes.Buffer
	if err := runs.Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	got, err := runs.Read("runs.jsonl", &b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// checkRoundTrip: every field of every record comes back from the file as
// it comes back from a runs file.
func checkRoundTrip(t *testing.T, recs []runs.Record) []byte {
	t.Helper()
	b := write(t, recs, parquet.Options{Version: version})
	rows := readRows(t, b)
	want := viaRunsFile(t, recs)
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, row := range rows {
		if got := row.Record(); !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("row %d (%s):\n got %#v\nwant %#v", i, want[i].Key, got, want[i])
		}
	}
	return b
}

// TestRoundTripAdversarial: records that use every part of the runs
// format (internal/runstest) survive the file field for field.
func TestRoundTripAdversarial(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		checkRoundTrip(t, runstest.Adversarial(864, seed))
	}
}

// TestRoundTripAgentDojo: the banking contract's judged runs of the
// shared AgentDojo traces survive the file field for field.
func TestRoundTripAgentDojo(t *testing.T) {
	recs := banking(t)
	if len(recs) != 384 {
		t.Fatalf("%d banking runs, want 384", len(recs))
	}
	checkRoundTrip(t, recs)
}

// banking judges the shared AgentDojo traces with the banking contract, as
// `tenet eval contracts/agentdojo/banking ../shared/agentdojo/traces/*.jsonl`.
func banking(t testing.TB) []runs.Record {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 12 {
		t.Fatalf("found %d trace files, want the 12 AgentDojo agents", len(files))
	}
	sort.Strings(files)
	p := evaltest.Program(t, filepath.Join("..", "..", "..", "contracts", "agentdojo", "banking"))
	res, err := pipeline.EvalFiles(p, files, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("bad records: %v", res.Errors)
	}
	return res.Records
}

// TestDeterministic: the same records give the same bytes, in any order;
// the footer holds the schema id and the version, created_by names tenet,
// and nothing else varies.
func TestDeterministic(t *testing.T) {
	recs := runstest.Adversarial(864, 5)
	before := slices.Clone(recs)
	for i := range before {
		before[i] = clone(before[i])
	}
	a := write(t, recs, parquet.Options{Version: version})
	b := write(t, recs, parquet.Options{Version: version})
	if !bytes.Equal(a, b) {
		t.Fatal("two writes of the same records differ")
	}
	shuffled := slices.Clone(recs)
	rand.New(rand.NewSource(9)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if !bytes.Equal(a, write(t, shuffled, parquet.Options{Version: version})) {
		t.Fatal("the same records in another order give other bytes")
	}
	if !reflect.DeepEqual(recs, before) {
		t.Fatal("Write changed its argument")
	}
	if bytes.Equal(a, write(t, recs, parquet.Options{Version: "0.2.0"})) {
		t.Fatal("another version gives the same bytes: the footer does not record it")
	}
	f, err := pq.OpenFile(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	if md.CreatedBy != "tenet version "+version {
		t.Errorf("created_by %q", md.CreatedBy)
	}
	var kv []string
	for _, p := range md.KeyValueMetadata {
		kv = append(kv, p.Key+"="+p.Value)
	}
	if want := []string{"tenet.schema=tenet-runs-parquet/1", "tenet.version=" + version}; !slices.Equal(kv, want) {
		t.Errorf("footer metadata %q, want %q", kv, want)
	}
	if md.NumRows != 864 || len(md.RowGroups) != 1 {
		t.Errorf("%d rows in %d row groups, want 864 in 1", md.NumRows, len(md.RowGroups))
	}
	for _, c := range md.RowGroups[0].Columns {
		if c.MetaData.Codec.String() != "ZSTD" {
			t.Errorf("column %s compressed with %s, want ZSTD", strings.Join(c.MetaData.PathInSchema, "."), c.MetaData.Codec)
		}
	}
}

// TestMetadata: Options.Metadata lands in the footer, sorted among the
// writer's own keys; a key under "tenet." is refused.
func TestMetadata(t *testing.T) {
	recs := runstest.Adversarial(3, 1)
	b := write(t, recs, parquet.Options{Version: version, Metadata: map[string]string{"zz": "1", "history.id": "42"}})
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var kv []string
	for _, p := range f.Metadata().KeyValueMetadata {
		kv = append(kv, p.Key+"="+p.Value)
	}
	if want := []string{"history.id=42", "tenet.schema=tenet-runs-parquet/1", "tenet.version=" + version, "zz=1"}; !slices.Equal(kv, want) {
		t.Errorf("footer metadata %q, want %q", kv, want)
	}
	var out bytes.Buffer
	err = parquet.Write(&out, recs, parquet.Options{Version: version, Metadata: map[string]string{"tenet.version": "9"}})
	if err == nil || err.Error() != `parquet export: metadata key "tenet.version" is reserved (keys under "tenet." are the writer's own)` || out.Len() != 0 {
		t.Errorf("reserved key: %v, %d bytes written", err, out.Len())
	}
}

// TestRefusals: what a runs file cannot hold is refused before a byte is
// written, naming the run.
func TestRefusals(t *testing.T) {
	ok := runs.Record{Key: runs.Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: runs.True()}
	badUTF8 := ok
	badUTF8.Key.Task = "t\xff"
	zero := ok
	zero.Key.Attempt = 0
	for _, c := range []struct {
		name string
		recs []runs.Record
		opts parquet.Options
		want string
	}{
		{"no version", []runs.Record{ok}, parquet.Options{}, "parquet export: no tenet version given (Options.Version)"},
		{"duplicate", []runs.Record{ok, ok}, parquet.Options{Version: version}, "duplicate run c/t"},
		{"attempt 0", []runs.Record{zero}, parquet.Options{Version: version}, "run c/t (attempt 0, repetition 1): attempt is 0, want an integer ≥ 1"},
		{"invalid UTF-8", []runs.Record{badUTF8}, parquet.Options{Version: version}, `run c/"t\xff": task is not valid UTF-8; a runs file cannot hold it`},
	} {
		var out bytes.Buffer
		err := parquet.Write(&out, c.recs, c.opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%s: %d bytes written", c.name, out.Len())
		}
	}
}

// TestEmpty: no runs is a valid file of no rows, with the schema.
func TestEmpty(t *testing.T) {
	b := write(t, nil, parquet.Options{Version: version})
	if rows := readRows(t, b); len(rows) != 0 {
		t.Errorf("%d rows", len(rows))
	}
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Schema().String(), parquet.FileSchema().String(); got != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
}

// TestSchemaGolden pins the schema (docs/export.md lists it column by
// column): a change here is a change of tenet-runs-parquet/1.
func TestSchemaGolden(t *testing.T) {
	got := parquet.FileSchema().String() + "\n"
	path := filepath.Join("testdata", "schema.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("schema changed (a new Schema version?); got\n%s", got)
	}
	// A file's schema is the one printed.
	b := write(t, runstest.Adversarial(10, 1), parquet.Options{Version: version})
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Schema().String()+"\n" != got {
		t.Errorf("the file's schema is\n%s", f.Schema())
	}
}

// clone is a deep copy of r (its maps, slices and given labels).
func clone(r runs.Record) runs.Record {
	cp := func(m map[string]runs.Label) map[string]runs.Label {
		if m == nil {
			return nil
		}
		return maps.Clone(m)
	}
	r.Invariants, r.Failures = cp(r.Invariants), cp(r.Failures)
	if r.Witnesses != nil {
		w := make(map[string]map[string]string, len(r.Witnesses))
		for k, steps := range r.Witnesses {
			w[k] = maps.Clone(steps)
		}
		r.Witnesses = w
	}
	if r.Excerpt != nil {
		r.Excerpt = maps.Clone(r.Excerpt)
	}
	if r.Audit != nil {
		r.Audit = slices.Clone(r.Audit)
	}
	for _, p := range []**bool{&r.Given.Utility, &r.Given.AttackSuccess, &r.Given.SideEffect} {
		if *p != nil {
			v := **p
			*p = &v
		}
	}
	return r
}

// TestMapsSorted: every map's keys are written sorted — the writer's map
// path sorts them, which the byte-for-byte determinism rests on (Go's map
// order is random). Read from the raw column values, below the row type.
func TestMapsSorted(t *testing.T) {
	b := write(t, runstest.Adversarial(864, 4), parquet.Options{Version: version})
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]pq.Row, f.NumRows())
	r := pq.NewReader(f)
	if n, err := r.ReadRows(rows); n != len(rows) {
		t.Fatalf("read %d of %d rows: %v", n, len(rows), err)
	}
	for _, path := range [][]string{
		{"invariants", "key_value", "key"}, {"invariants_unknown_reasons", "key_value", "key"},
		{"failures", "key_value", "key"}, {"failures_unknown_reasons", "key_value", "key"},
		{"witnesses", "key_value", "key"}, {"witnesses", "key_value", "value", "key_value", "key"},
		{"excerpt", "key_value", "key"},
	} {
		leaf, ok := f.Schema().Lookup(path...)
		if !ok {
			t.Fatalf("no column %s", strings.Join(path, "."))
		}
		maxRep := leaf.MaxRepetitionLevel
		entries := 0
		for i, row := range rows {
			prev := ""
			for _, v := range row {
				if v.Column() != leaf.ColumnIndex || v.DefinitionLevel() < leaf.MaxDefinitionLevel {
					continue
				}
				entries++
				key := v.String()
				// A value below the deepest repetition level starts a new map.
				if v.RepetitionLevel() == maxRep && key <= prev {
					t.Fatalf("row %d, %s: key %q after %q", i, strings.Join(path, "."), key, prev)
				}
				prev = key
			}
		}
		if entries < 100 {
			t.Errorf("%s: only %d keys checked", strings.Join(path, "."), entries)
		}
	}
}

// TestLabelColumns: every label of the runs format (runs.LabelNames) has
// its value column and its reason column, in label order, and the labels
// another harness gives their given_ columns: a new label fails here until
// the schema has it (and Schema a new version).
func TestLabelColumns(t *testing.T) {
	var names []string
	for _, f := range parquet.FileSchema().Fields() {
		names = append(names, f.Name())
	}
	idx := func(name string) int {
		i := slices.Index(names, name)
		if i < 0 {
			t.Errorf("no column %s", name)
		}
		return i
	}
	prev := map[string]int{}
	for _, l := range runs.LabelNames() {
		for _, col := range []string{string(l), string(l) + "_unknown_reason"} {
			kind := strings.TrimPrefix(col, string(l))
			if i := idx(col); i <= prev[kind] && prev[kind] != 0 {
				t.Errorf("column %s out of label order", col)
			} else {
				prev[kind] = i
			}
		}
	}
	for _, l := range []runs.LabelName{runs.Utility, runs.AttackSuccess, runs.SideEffect} {
		idx("given_" + string(l))
	}
}
