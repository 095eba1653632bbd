package agentdojo

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/tenetlang/tenet/eval/transcript/build"
	"github.com/tenetlang/tenet/internal/shared"
)

// checkPeek checks Peek's promise on one record as Frame gives it
// (frame.Peeker): when it answers, its Check is build.Decodable, and on a
// record that passes Check, Decode either gives the peek's meta and run
// members (with the messages) or refuses the run for its messages alone —
// the run with its messages emptied is decoded. It returns whether Peek
// answered.
func checkPeek(t *testing.T, data []byte) bool {
	t.Helper()
	p, ok := Peek(data)
	if !ok {
		return false
	}
	checkDecodePeeked(t, data)
	if fmt.Sprint(p.Unread) != "[messages]" {
		t.Fatalf("Unread = %v", p.Unread)
	}
	if p.Check() != build.Decodable(data) {
		t.Fatalf("Check %v, Decodable %v", p.Check(), build.Decodable(data))
	}
	if !p.Check() {
		return true
	}
	rn, _, msg := Decode(data)
	if msg == "" {
		rec, peeked := map[string]any{}, map[string]any{}
		for k, v := range rn.Record {
			if k != "messages" {
				rec[k] = v
			}
		}
		for k, v := range p.Record {
			if k != "messages" {
				peeked[k] = v
			}
		}
		if !reflect.DeepEqual(rn.Meta, p.Meta) || !reflect.DeepEqual(rec, peeked) {
			t.Fatalf("peek of %.200q: meta %v record %v; Decode: %v %v", data, p.Meta, peeked, rn.Meta, rec)
		}
		return true
	}
	var v map[string]any
	if err := jsonv2.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	v["run"].(map[string]any)["messages"] = []any{}
	empty, err := jsonv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, m := Decode(empty); m != "" {
		t.Fatalf("Decode refuses %.200q (%s), and with no messages too (%s): not for its messages", data, msg, m)
	}
	return true
}

// TestPeek: which records Peek answers for — Frame's {"file", "run"}
// whose run has messages and members Decode reads — with meta.path from
// the file's name; on each it keeps its promise (checkPeek), and every
// example and test run file is peeked.
func TestPeek(t *testing.T) {
	const file = "runs/p/banking/user_task_0/none/none.json"
	const id = `"suite_name":"banking","pipeline_name":"p","user_task_id":"user_task_0"`
	for _, tc := range []struct {
		run    string
		peeked bool
		meta   string
	}{
		{`{` + id + `,"messages":[{"role":"user","content":"hi"}],"utility":true}`, true,
			`map[agentdojo_package_version:<nil> attack_type:<nil> benchmark_version:<nil> duration:<nil> error:<nil> evaluation_timestamp:<nil> injection_task_id:<nil> injections:<nil> path:map[attack:none injection_task:none pipeline:p suite:banking user_task:user_task_0] pipeline_name:p security:<nil> suite_name:banking user_task_id:user_task_0 utility:true]`},
		{`{"messages":[{"role":"nobody"}],` + id + `}`, true, ``},             // Decode refuses the message
		{`{` + id + `,"messages":[{"role":"user","role":"user"}]}`, true, ``}, // invalid JSON: Check fails
		{`{` + id + `}`, false, ``},
		{`{` + id + `,"messages":{}}`, false, ``},
		{`{"suite_name":"banking","user_task_id":"u","messages":[]}`, false, ``},
		{`{` + id + `,"messages":[],"utility":"yes"}`, false, ``},
		{`{` + id + `,"messages":[],"path":"x"}`, false, ``},
		{`{` + id + `,"messages":[],"calls":[{"function":"f","args":{}}]}`, false, ``},
	} {
		data := Wrap(file, []byte(tc.run))
		p, ok := Peek(data)
		if ok != tc.peeked || (tc.meta != "" && fmt.Sprint(p.Meta) != tc.meta) {
			t.Errorf("Peek(%s) = %v %v, want %v %s", tc.run, p.Meta, ok, tc.peeked, tc.meta)
		}
		checkPeek(t, data)
	}
	// A run alone (not Frame's record) is not peeked.
	if _, ok := Peek([]byte(`{` + id + `,"messages":[]}`)); ok {
		t.Error("a run alone peeked")
	}
	for _, f := range []string{"testdata/new_format.json", "testdata/old_format.json", "../../../examples/formats/agentdojo-run/transcript.json"} {
		checkRunFile(t, f)
	}
}

// TestPeekRealRuns: every run file of one pipeline of AgentDojo's runs
// tree (../shared) is peeked, and Peek keeps its promise on each.
func TestPeekRealRuns(t *testing.T) {
	dir := filepath.Join(shared.Dir(t), "agentdojo", "runs", "command-r")
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		n++
		checkRunFile(t, p)
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d files, %v", n, err)
	}
}

// checkRunFile checks Peek on a run file's record, which must be peeked.
func checkRunFile(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !checkPeek(t, Wrap(path, data)) {
		t.Errorf("%s: not peeked", path)
	}
}

// checkDecodePeeked: DecodePeeked of a record Peek passed gives Decode's
// run, and is not ok exactly when Decode refuses the record (invalid JSON
// anywhere in it included).
func checkDecodePeeked(t *testing.T, data []byte) {
	t.Helper()
	p, _ := Peek(data)
	got, ok := DecodePeeked(p)
	want, _, msg := Decode(data)
	if ok != (msg == "") || (ok && !reflect.DeepEqual(got, want)) {
		t.Fatalf("DecodePeeked(%.200q) = %v, %v; Decode: %v, %q", data, got, ok, want, msg)
	}
}
