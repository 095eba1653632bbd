package agentdojo_test

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runsort"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// corpusRecords judges the 12 agents' transcripts with the four contracts
// (the collection `tenet eval contracts/agentdojo` evaluates) and returns
// every run, in the order judged, with its position (file index, line).
func corpusRecords(tb testing.TB) ([]runs.Record, []runs.Seq) {
	tb.Helper()
	files := traces(tb)
	var progs []*eval.Program
	for _, s := range suiteDirs {
		progs = append(progs, evaltest.Program(tb, s))
	}
	results, err := pipeline.EvalCollection(progs, files, pipeline.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	index := map[string]int{}
	for i, f := range files {
		index[f] = i
	}
	var recs []runs.Record
	var seqs []runs.Seq
	for _, res := range results {
		if len(res.Errors) > 0 {
			tb.Fatalf("bad records: %v", res.Errors)
		}
		for _, r := range res.Records {
			recs = append(recs, r)
			seqs = append(seqs, runs.Seq{File: index[r.OriginFile], Line: r.OriginLine})
		}
	}
	return recs, seqs
}

// TestSorterAgentDojo sorts the real runs through runsort.Sorter with budgets
// that spill every record or two, a few chunks, or nothing: the records
// come back equal to runs.SortRecords' order, their lines are the bytes
// runs.Write writes, and a second copy of every run is a duplicate.
func TestSorterAgentDojo(t *testing.T) {
	recs, seqs := corpusRecords(t)
	want := slices.Clone(recs)
	runs.SortRecords(want)
	var file bytes.Buffer
	if err := runs.Write(&file, recs); err != nil {
		t.Fatal(err)
	}
	for _, maxBytes := range []int{1 << 10, 256 << 10, 1 << 30} {
		s := runsort.NewSorter(t.TempDir(), maxBytes)
		// Backwards, each run twice: the copy added first comes later in
		// the input (a larger Seq), so it is the duplicate.
		for i := len(recs) - 1; i >= 0; i-- {
			later := seqs[i]
			later.Line += 1 << 20
			dup := recs[i]
			dup.OriginLine = later.Line
			if err := s.Add(dup, later); err != nil {
				t.Fatal(err)
			}
			if err := s.Add(recs[i], seqs[i]); err != nil {
				t.Fatal(err)
			}
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		var got []runs.Record
		var lines bytes.Buffer
		for it.Next() {
			got = append(got, it.Record())
			lines.Write(it.Line())
		}
		if it.Err() != nil {
			t.Fatal(it.Err())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("maxBytes %d: the records differ from runs.SortRecords'", maxBytes)
		}
		if !bytes.Equal(lines.Bytes(), file.Bytes()) {
			t.Errorf("maxBytes %d: the lines differ from runs.Write's", maxBytes)
		}
		if n := len(it.Duplicates()); n != len(recs) {
			t.Errorf("maxBytes %d: %d duplicates, want %d", maxBytes, n, len(recs))
		}
		t.Logf("maxBytes %d: %d records, %d chunks spilled", maxBytes, len(recs), s.Spills())
		s.Close()
	}
}

// BenchmarkSorter sorts the AgentDojo runs (2328) through a runsort.Sorter:
// Add (encoding), Sort and iteration (decoding), with a budget that keeps
// everything in memory and one that spills 256 KB chunks, the latter also
// with each run's runs-file line asked for (the JSON a runs file costs). It reports
// records/s (wall clock, and per CPU-second: GC included), and the heap the Sorter holds per record after Add next to
// what the runs hold as runs.Record values (with their maps).
func BenchmarkSorter(b *testing.B) {
	recs, seqs := corpusRecords(b)
	var file bytes.Buffer
	if err := runs.Write(&file, recs); err != nil {
		b.Fatal(err)
	}
	b.Run("heap", func(b *testing.B) {
		before := heapInUse()
		decoded, err := runs.Read("corpus", bytes.NewReader(file.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		asRecords := heapInUse() - before
		runtime.KeepAlive(decoded)
		decoded = nil
		s := runsort.NewSorter(b.TempDir(), 1<<30)
		before = heapInUse()
		for i, r := range recs {
			if err := s.Add(r, seqs[i]); err != nil {
				b.Fatal(err)
			}
		}
		encoded := heapInUse() - before
		runtime.KeepAlive(s)
		s.Close()
		n := float64(len(recs))
		for b.Loop() {
		}
		b.ReportMetric(float64(asRecords)/n, "record-B/run")
		b.ReportMetric(float64(encoded)/n, "sorter-B/run")
		b.ReportMetric(float64(file.Len())/n, "line-B/run")
	})
	for _, tc := range []struct {
		name     string
		maxBytes int
		lines    bool // ask for each run's runs-file line, as a runs file needs it
	}{{"in-memory", 1 << 30, false}, {"spill-256KB", 256 << 10, false}, {"spill-256KB-lines", 256 << 10, true}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			cpu := cpuTime()
			for b.Loop() {
				s := runsort.NewSorter(dir, tc.maxBytes)
				for i, r := range recs {
					if err := s.Add(r, seqs[i]); err != nil {
						b.Fatal(err)
					}
				}
				it, err := s.Sort()
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for it.Next() {
					if tc.lines && len(it.Line()) == 0 {
						b.Fatal("no line")
					}
					n++
				}
				if it.Err() != nil || n != len(recs) {
					b.Fatal(n, it.Err())
				}
				s.Close()
			}
			b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			if used := cpuTime() - cpu; used > 0 {
				b.ReportMetric(float64(len(recs))*float64(b.N)/used.Seconds(), "records/cpu-s")
			}
		})
	}
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
