package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/shard"
	"github.com/tenetlang/tenet/eval/transcript"
)

// TestShardPartition: on the synthetic corpus (every kind of record) and
// targets of every shape — a select decided on the peek, no select, a key
// that reads record.messages (decided on the decoded run only) — the n
// shards' runs are disjoint, each where its hash puts it, and together the
// unsharded runs, record for record; each shard reports every bad record
// (none has a key here), the same header and not-selected counts, its
// own share of the keyed skips, and counts the rest in OtherShards; the
// results do not depend on the workers.
func TestShardPartition(t *testing.T) {
	mail, math := compileSource(t, mailContract), compileSource(t, mathContract)
	messagesKey := compileSource(t, strings.Replace(mathContract,
		`task       = "meta.task"`, `task       = "size(record.messages) >= 0 ? meta.task : ''"`, 1))
	targets := []Target{
		{Program: mail, Source: "s"},
		{Program: mail, Source: "all", Grant: "wide"},
		{Program: math},
		{Program: messagesKey},
	}
	files := synthCorpus(t, 4, 60, 7)
	opt := Options{Transcript: transcript.Options{MaxRecordBytes: 2000}, Workers: 3}
	whole, err := EvalTargets(targets, files, opt)
	if err != nil {
		t.Fatal(err)
	}
	keyed := func(r *Result) int { // records with a key: judged or set aside
		return len(r.Records) + r.Skipped[eval.TaskNotDeclared] + r.Skipped[eval.GoalNotDeclared] + r.Skipped[eval.CaseNotDeclared]
	}
	for i, w := range whole {
		if len(w.Records) == 0 || len(w.Errors) == 0 {
			t.Fatalf("target %d: %d runs, %d bad records: the corpus tests nothing", i, len(w.Records), len(w.Errors))
		}
	}
	for _, n := range []int{2, 3, 5} {
		union := make([][]runs.Record, len(targets))
		skipped := make([]map[eval.Skip]int, len(targets))
		for k := 1; k <= n; k++ {
			var got [2][]*Result
			for wi, workers := range []int{1, 8} {
				o := opt
				o.Workers, o.Shard = workers, shard.Shard{Index: k, Count: n}
				if got[wi], err = EvalTargets(targets, files, o); err != nil {
					t.Fatal(err)
				}
			}
			for i, res := range got[0] {
				where := fmt.Sprintf("shard %d/%d, target %d", k, n, i)
				if d := sameResult(got[1][i], res); d != "" || got[1][i].OtherShards != res.OtherShards {
					t.Fatalf("%s: 8 workers differ from 1: %s", where, d)
				}
				if d := sameResult(&Result{Errors: res.Errors, Headers: res.Headers}, &Result{Errors: whole[i].Errors, Headers: whole[i].Headers}); d != "" {
					t.Fatalf("%s: %s", where, d)
				}
				if res.Skipped[eval.NotSelected] != whole[i].Skipped[eval.NotSelected] {
					t.Fatalf("%s: %d not selected, the whole %d", where, res.Skipped[eval.NotSelected], whole[i].Skipped[eval.NotSelected])
				}
				if keyed(res)+res.OtherShards != keyed(whole[i]) {
					t.Fatalf("%s: %d keyed records and %d of other shards, the whole has %d keyed", where, keyed(res), res.OtherShards, keyed(whole[i]))
				}
				for _, r := range res.Records {
					if s := shard.Of(r.Key, n); s != k {
						t.Fatalf("%s: run %s belongs to shard %d", where, r.Key, s)
					}
				}
				union[i] = append(union[i], res.Records...)
				if skipped[i] == nil {
					skipped[i] = map[eval.Skip]int{}
				}
				for s, c := range res.Skipped {
					if s != eval.NotSelected {
						skipped[i][s] += c
					}
				}
			}
		}
		for i := range targets {
			runs.SortRecords(union[i])
			for j := 1; j < len(union[i]); j++ {
				if union[i][j].Key == union[i][j-1].Key {
					t.Fatalf("n=%d, target %d: run %s in two shards", n, i, union[i][j].Key)
				}
			}
			if !reflect.DeepEqual(union[i], whole[i].Records) {
				t.Fatalf("n=%d, target %d: the shards hold %d runs, not the whole's %d", n, i, len(union[i]), len(whole[i].Records))
			}
			want := map[eval.Skip]int{}
			for s, c := range whole[i].Skipped {
				if s != eval.NotSelected && c > 0 {
					want[s] = c
				}
			}
			if !reflect.DeepEqual(skipped[i], want) && !(len(want) == 0 && len(skipped[i]) == 0) {
				t.Fatalf("n=%d, target %d: skips %v over the shards, the whole %v", n, i, skipped[i], want)
			}
		}
	}
	if !slices.ContainsFunc(whole, func(r *Result) bool { return r.Skipped[eval.TaskNotDeclared] > 0 }) {
		t.Fatal("no target set a record aside: the skips are not tested")
	}
}

// TestShardPeekSkipsDecoding: a record whose key a peek reads is not
// decoded by the shards it is not in — a transcript the reader refuses
// (a message without a role, valid JSON) is the bad record of its own
// shard only — while a record that is not JSON is every shard's.
func TestShardPeekSkipsDecoding(t *testing.T) {
	math := compileSource(t, mathContract)
	lines := []string{
		`{"messages":[{"content":"no role"}],"metadata":{"suite":"math","task":"add","goal":null,"agent":"a","rep":1}}`,
		`{"messages":[{"role":"user"`,
	}
	file := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	own := shard.Of(runs.Key{Contract: "math", Condition: "a", Task: "add"}, 2)
	for k := 1; k <= 2; k++ {
		res, err := EvalFiles(math, []string{file}, Options{Shard: shard.Shard{Index: k, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, e := range res.Errors {
			lines = append(lines, strings.TrimPrefix(e.Error(), file+":")[:2])
		}
		want, other := []string{"1:", "2:"}, 0
		if k != own {
			want, other = []string{"2:"}, 1
		}
		if !slices.Equal(lines, want) || res.OtherShards != other {
			t.Errorf("shard %d/2 (the record's: %d): errors at %v, %d of other shards; want %v, %d", k, own, lines, res.OtherShards, want, other)
		}
	}
}

// TestShardInvalid: a shard that is none is an error, not a quiet
// evaluation of nothing.
func TestShardInvalid(t *testing.T) {
	math := compileSource(t, mathContract)
	for _, s := range []shard.Shard{{Index: 0, Count: 3}, {Index: 4, Count: 3}, {Index: 2, Count: 1}, {Index: 1, Count: -1}} {
		if _, err := EvalFiles(math, nil, Options{Shard: s}); err == nil || !strings.Contains(err.Error(), "Options.Shard") {
			t.Errorf("Shard %+v: error %v", s, err)
		}
	}
}

// TestShardProfile: a profile's runs (condition "a+p") fall in the shard
// of their base runs (condition "a"), so that each shard holds both runs
// of each of its tasks, for the profile's flip counts to pair: over 3
// shards the pairs are those of the whole, none split.
func TestShardProfile(t *testing.T) {
	src := strings.Replace(mathContract, `task "add" {`, "params {\n  strict = true\n}\n\nprofile \"p\" {\n  params = { strict = false }\n}\n\ntask \"add\" {", 1)
	base := compileSource(t, src)
	prof, err := base.WithProfile("p")
	if err != nil {
		t.Fatal(err)
	}
	targets := []Target{{Program: base}, {Program: prof}}
	files := synthCorpus(t, 4, 60, 7)
	whole, err := EvalTargets(targets, files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole[0].Records) < 20 || len(whole[0].Records) != len(whole[1].Records) {
		t.Fatalf("the whole: %d base runs, %d profile runs", len(whole[0].Records), len(whole[1].Records))
	}
	const n = 3
	total := 0
	for k := 1; k <= n; k++ {
		res, err := EvalTargets(targets, files, Options{Shard: shard.Shard{Index: k, Count: n}})
		if err != nil {
			t.Fatal(err)
		}
		baseKeys := map[runs.Key]bool{}
		for _, r := range res[0].Records {
			baseKeys[r.Key] = true
		}
		for _, r := range res[1].Records {
			b := r.Key
			b.Condition = strings.TrimSuffix(b.Condition, "+p")
			if b == r.Key || !baseKeys[b] {
				t.Fatalf("shard %d/%d: profile run %s without its base run %s in the shard", k, n, r.Key, b)
			}
			if s := shard.Of(shard.Base(r.Key, "p"), n); s != k {
				t.Fatalf("shard %d/%d: run %s belongs to shard %d", k, n, r.Key, s)
			}
		}
		if len(res[0].Records) != len(res[1].Records) {
			t.Fatalf("shard %d/%d: %d base runs, %d profile runs", k, n, len(res[0].Records), len(res[1].Records))
		}
		total += len(res[1].Records)
	}
	if total != len(whole[1].Records) {
		t.Fatalf("the shards hold %d profile runs, the whole %d", total, len(whole[1].Records))
	}
}
