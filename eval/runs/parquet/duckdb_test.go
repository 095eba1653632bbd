package parquet_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/runs/parquet"
	"github.com/tenetlang/tenet/internal/runstest"
)

// duckdbScript runs one SQL query in DuckDB (the npm package
// @duckdb/node-api, from the node_modules of the directory given first)
// and prints each result row as one JSON line.
const duckdbScript = `
const path = require('node:path');
const req = require('node:module').createRequire(path.join(process.argv[2], 'noop.js'));
const { DuckDBInstance } = req('@duckdb/node-api');
(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const res = await con.runAndReadAll(process.argv[3]);
  for (const row of res.getRowObjectsJson()) console.log(JSON.stringify(row));
})().catch((e) => { console.error(String(e)); process.exit(1); });
`

// duckdb runs query in DuckDB and returns its rows, or skips the test when
// node or the DuckDB package is missing (fails under
// TENET_REQUIRE_DUCKDB=1). TENET_DUCKDB_DIR names the directory whose
// node_modules holds @duckdb/node-api (.ci/run installs it there).
func duckdb(t *testing.T, query string) []map[string]any {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("TENET_REQUIRE_DUCKDB") == "1" {
			t.Fatal(why + " (TENET_REQUIRE_DUCKDB=1)")
		}
		t.Skip(why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	dir := os.Getenv("TENET_DUCKDB_DIR")
	if dir == "" {
		missing("TENET_DUCKDB_DIR is not set (a directory whose node_modules holds @duckdb/node-api)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		missing("no @duckdb/node-api under " + dir + "/node_modules: " + err.Error())
	}
	script := filepath.Join(t.TempDir(), "duckdb.cjs")
	if err := os.WriteFile(script, []byte(duckdbScript), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(node, script, dir, query)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var rows []map[string]any
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("duckdb printed %q: %v", sc.Text(), err)
		}
		rows = append(rows, row)
	}
	return rows
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// TestDuckDBReadsEveryField: DuckDB, a reader independent of parquet-go,
// reads every column of every row as written: adversarial records and the
// judged AgentDojo banking runs.
func TestDuckDBReadsEveryField(t *testing.T) {
	check := func(name string, recs []runs.Record) {
		b := write(t, recs, parquet.Options{Version: version})
		path := filepath.Join(t.TempDir(), name+".parquet")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got := duckdb(t, "SELECT to_json(t)::VARCHAR AS j FROM (SELECT * EXCLUDE (file_row_number) FROM read_parquet("+
			sqlString(path)+", file_row_number = true) ORDER BY file_row_number) t")
		rows := readRows(t, b)
		if len(got) != len(rows) {
			t.Fatalf("%s: DuckDB read %d rows, want %d", name, len(got), len(rows))
		}
		for i, row := range rows {
			var have any
			if err := json.Unmarshal([]byte(got[i]["j"].(string)), &have); err != nil {
				t.Fatal(err)
			}
			if want := columns(reflect.ValueOf(row)); !reflect.DeepEqual(have, want) {
				t.Fatalf("%s: row %d (%s): DuckDB reads\n%v\nwant\n%v", name, i, row.Record().Key, have, want)
			}
		}
	}
	check("adversarial", runstest.Adversarial(864, 6))
	check("banking", banking(t))
}

// columns is a Row as DuckDB's to_json gives it: each field under its
// column name, null for a nil pointer, maps as objects, numbers as float64.
func columns(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return columns(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("parquet"), ",")
			m[name] = columns(v.Field(i))
		}
		return m
	case reflect.Map:
		m := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			m[it.Key().String()] = columns(it.Value())
		}
		return m
	case reflect.Slice:
		l := []any{}
		for i := range v.Len() {
			l = append(l, columns(v.Index(i)))
		}
		return l
	case reflect.Int64:
		return float64(v.Int())
	}
	return v.Interface()
}

// TestDuckDBTargetedASR: the targeted-ASR query of docs/export.md, run by
// DuckDB over the exported banking runs, gives tenet report's targeted ASR
// (`tenet report --cases observed`) for every condition, exactly.
func TestDuckDBTargetedASR(t *testing.T) {
	query, err := os.ReadFile(filepath.Join("testdata", "targeted_asr.sql"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "export.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, query) {
		t.Fatal("docs/export.md does not show testdata/targeted_asr.sql as it is")
	}
	recs := banking(t)
	path := filepath.Join(t.TempDir(), "runs.parquet")
	if err := os.WriteFile(path, write(t, recs, parquet.Options{Version: version}), 0o644); err != nil {
		t.Fatal(err)
	}
	got := duckdb(t, strings.Replace(string(query), "'runs.parquet'", sqlString(path), 1))
	want, err := metrics.Compute(recs, nil, metrics.Options{Cases: metrics.CasesObserved})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) != 12 {
		t.Fatalf("DuckDB gives %d conditions, tenet %d; want 12", len(got), len(want))
	}
	for i, c := range want {
		row := got[i]
		asr, _ := row["targeted_asr"].(float64)
		// DuckDB's node package gives a BIGINT as a JSON string.
		if row["contract"] != c.Contract || row["condition"] != c.Condition || row["cases"] != strconv.Itoa(c.SecurityCases) ||
			asr != c.TargetedASR.Value() || math.IsNaN(asr) {
			t.Errorf("DuckDB %v; tenet %s:%s cases %d targeted ASR %v", row, c.Contract, c.Condition, c.SecurityCases, c.TargetedASR.Value())
		}
	}

	// An unknown attack_success makes the condition's rate NULL, never a
	// rate that counts it as a failure.
	attacked := func(task string, success runs.Label) runs.Record {
		return runs.Record{Key: runs.Key{Condition: "m", Task: task, Goal: "g", Attempt: 1, Repetition: 1},
			Utility: runs.True(), AttackSuccess: success, SideEffect: runs.True()}
	}
	recs = []runs.Record{attacked("t1", runs.True()), attacked("t2", runs.Unknown("criterion error"))}
	recs[1].SideEffect = runs.Unknown("criterion error")
	if err := os.WriteFile(path, write(t, recs, parquet.Options{Version: version}), 0o644); err != nil {
		t.Fatal(err)
	}
	got = duckdb(t, strings.Replace(string(query), "'runs.parquet'", sqlString(path), 1))
	if len(got) != 1 || got[0]["targeted_asr"] != nil || got[0]["cases"] != "2" {
		t.Errorf("with an unknown label DuckDB gives %v, want targeted_asr null over 2 cases", got)
	}
}
