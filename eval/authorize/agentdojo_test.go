package authorize_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/audit"
	"github.com/tenetlang/tenet/eval/authorize"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/evaltest"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/testtier"
)

// narrowGrant is the restrictive grant added to each AgentDojo contract
// for TestAuthorizeIsTheAudit: the shipped grant "default" allows every
// operation on every resource, so under it only the registry and schema
// layers refuse a call; under "narrow" every update is refused too (the
// capability layer, with and without a resource argument).
const narrowGrant = `grant "narrow" {
  allow "read" { resources = ["*"] }
}
`

// adSuite is one shipped AgentDojo contract, with grant "narrow" added.
type adSuite struct {
	name   string
	p      *eval.Program
	src    *bundle.SourcePlan
	a      *authorize.Authorizer
	tools  map[string]*bundle.Tool
	grants []*bundle.Grant // the source's grant, then "narrow"
}

// agentdojoSuites compiles the shipped AgentDojo contracts named (all four
// when none is), each as
// its directory holds it plus one file declaring grant "narrow". The
// contracts `use "../../common"`, which a contract held in memory does not
// load (lang.ParseFiles), so the variant is a copy on disk: the suite's
// contract files and contracts/common, at the same relative places.
func agentdojoSuites(t testing.TB, names ...string) []*adSuite {
	t.Helper()
	root := t.TempDir()
	copyContractFiles(t, "../../contracts/common", filepath.Join(root, "common"))
	if len(names) == 0 {
		names = []string{"banking", "slack", "travel", "workspace"}
	}
	var out []*adSuite
	for _, name := range names {
		dir := filepath.Join(root, "agentdojo", name)
		copyContractFiles(t, filepath.Join("../../contracts/agentdojo", name), dir)
		if err := os.WriteFile(filepath.Join(dir, "narrow_grant.tenet.hcl"), []byte(narrowGrant), 0o644); err != nil {
			t.Fatal(err)
		}
		p := evaltest.Program(t, dir)
		src, err := p.Source("")
		if err != nil {
			t.Fatal(err)
		}
		s := &adSuite{name: name, p: p, src: src, a: authorize.New(p.Bundle, p.ID), tools: map[string]*bundle.Tool{}}
		for i := range p.Bundle.Decls.Tools {
			s.tools[p.Bundle.Decls.Tools[i].Name] = &p.Bundle.Decls.Tools[i]
		}
		for _, g := range []string{src.Grant, "narrow"} {
			i := sort.Search(len(p.Bundle.Decls.Grants), func(i int) bool { return p.Bundle.Decls.Grants[i].Name >= g })
			if i == len(p.Bundle.Decls.Grants) || p.Bundle.Decls.Grants[i].Name != g {
				t.Fatalf("%s: grant %q not in the bundle", name, g)
			}
			s.grants = append(s.grants, &p.Bundle.Decls.Grants[i])
		}
		if s.grants[0].Name != "default" {
			t.Fatalf("%s: the source's grant is %q, want the shipped \"default\"", name, s.grants[0].Name)
		}
		out = append(out, s)
	}
	return out
}

// copyContractFiles copies the contract files (*.tenet.hcl) of from into
// a new directory to.
func copyContractFiles(t testing.TB, from, to string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(from, "*.tenet.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no contract files in %s (%v)", from, err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// identityTally counts what TestAuthorizeIsTheAudit checked, per suite.
type identityTally struct {
	runs, calls, nested int // runs selected; top-level calls; calls nested in them
	// refused counts the top-level calls not allowed, per grant (the
	// source's, then "narrow").
	refused [2]int
	// layers counts every entry (nested ones too) by decision, per grant.
	layers [2]map[string]int
}

func (n *identityTally) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d runs, %d calls (%d nested), not allowed: %d under default, %d under narrow", n.runs, n.calls, n.nested, n.refused[0], n.refused[1])
	for gi, name := range []string{"default", "narrow"} {
		keys := make([]string, 0, len(n.layers[gi]))
		for k := range n.layers[gi] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&sb, "; %s:", name)
		for _, k := range keys {
			fmt.Fprintf(&sb, " %s %d", k, n.layers[gi][k])
		}
	}
	return sb.String()
}

// identity checks every top-level call of rn: Authorize's decision,
// flattened (Decision.Entries), is the offline audit of the whole run
// restricted to that call and its nested calls, renumbered as CallRun
// numbers them. The offline Mismatch field is left out: a pending call has
// no result to disagree with its request.
func (s *adSuite) identity(t *testing.T, rn *run.Run, n *identityTally, failures *int) {
	t.Helper()
	n.runs++
	// children in index order, and each call's top-level ancestor.
	children := make([][]int, len(rn.Calls))
	root := make([]int, len(rn.Calls))
	for _, c := range rn.Calls {
		root[c.Index] = c.Index
		if c.Parent >= 0 {
			children[c.Parent] = append(children[c.Parent], c.Index)
			root[c.Index] = root[c.Parent] // a parent precedes its nested calls
		}
	}
	for gi, g := range s.grants {
		if n.layers[gi] == nil {
			n.layers[gi] = map[string]int{}
		}
		offline := audit.Calls(rn, g, s.tools)
		if len(offline) != len(rn.Calls) {
			t.Fatalf("%s:%d: the audit has %d entries for %d calls", rn.Origin.File, rn.Origin.Line, len(offline), len(rn.Calls))
		}
		for _, e := range offline {
			n.layers[gi][e.Decision]++
		}
		for _, c := range rn.Calls {
			if c.Parent >= 0 {
				continue
			}
			if gi == 0 {
				n.calls++
			}
			// Renumber the call's tree breadth-first, children in index
			// order, as build.Finish numbers the calls it finds.
			num := map[int]int{c.Index: 0}
			for q := []int{c.Index}; len(q) > 0; q = q[1:] {
				for _, ch := range children[q[0]] {
					num[ch] = len(num)
					q = append(q, ch)
				}
			}
			if gi == 0 {
				n.nested += len(num) - 1
			}
			var want []runs.AuditEntry
			allowed := true
			for _, e := range offline {
				if root[e.Call] != c.Index {
					continue
				}
				e.Call = num[e.Call]
				if e.Parent >= 0 {
					e.Parent = num[e.Parent]
				}
				e.Mismatch = ""
				allowed = allowed && e.Decision == runs.Authorized
				want = append(want, e)
			}
			d, err := s.a.Authorize(authorize.Call{ID: c.ID, Tool: c.Tool, Args: c.Args, ArgsError: c.ArgsError}, g.Name)
			if err != nil {
				t.Fatalf("%s:%d: call %d (%s) under %s: %v", rn.Origin.File, rn.Origin.Line, c.Index, c.Tool, g.Name, err)
			}
			if !allowed {
				n.refused[gi]++
			}
			got := d.Entries()
			if !reflect.DeepEqual(got, want) || d.Allowed != allowed || d.ID != c.ID {
				*failures++
				if *failures <= 10 {
					t.Errorf("%s:%d: call %d (%s) under %s:\n authorize %+v (allowed %v, id %q)\n audit     %+v (allowed %v, id %q)",
						rn.Origin.File, rn.Origin.Line, c.Index, c.Tool, g.Name, got, d.Allowed, d.ID, want, allowed, c.ID)
				}
			}
		}
	}
}

// judgeFiles reads every run of files in format (auto, as the contracts'
// source reads them, but for a file written by a test) and checks each with the one suite whose source
// selects it. Every run must be selected by exactly one suite, unless
// skipped says why not.
func judgeFiles(t *testing.T, suites []*adSuite, format string, files []string) map[string]*identityTally {
	tallies := map[string]*identityTally{}
	for _, s := range suites {
		tallies[s.name] = &identityTally{}
	}
	failures := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := transcript.Open(format, file, f, transcript.Options{})
		if err != nil {
			f.Close()
			t.Fatal(err)
		}
		for {
			rn, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				t.Fatalf("read: %v", err)
			}
			var by *adSuite
			for _, s := range suites {
				sel, ok := s.p.PeekSelect(s.src, rn.Meta, rn.Record, nil)
				if !ok {
					t.Fatalf("%s:%d: %s's select cannot be decided on the run", rn.Origin.File, rn.Origin.Line, s.name)
				}
				if sel {
					if by != nil {
						t.Fatalf("%s:%d: selected by %s and %s", rn.Origin.File, rn.Origin.Line, by.name, s.name)
					}
					by = s
				}
			}
			if by == nil {
				t.Fatalf("%s:%d: no AgentDojo contract selects this run (meta %v)", rn.Origin.File, rn.Origin.Line, rn.Meta)
			}
			by.identity(t, rn, tallies[by.name], &failures)
		}
		f.Close()
	}
	if failures > 10 {
		t.Errorf("%d calls differ in all (the first 10 shown)", failures)
	}
	return tallies
}

// TestAuthorizeIsTheAudit: on every call of the shared AgentDojo
// transcripts (Invariant's exports in ../shared/agentdojo/traces), judged
// by the suite's shipped contract under its source's grant ("default") and
// under a restrictive grant ("narrow"), Authorize decides each top-level
// call exactly as the offline audit (audit.Calls, as tenet eval runs it on
// the whole run) decides that call and the calls nested in it: tool,
// decision, detail, hazard and parent structure of every entry, and the
// call allowed exactly when every entry is authorized. The totals are
// pinned so that a reader change that loses calls fails here too.
func TestAuthorizeIsTheAudit(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(shared.Dir(t), "agentdojo", "traces", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 12 {
		t.Fatalf("%d trace files, want the 12 AgentDojo agents", len(files))
	}
	sort.Strings(files)
	got := judgeFiles(t, agentdojoSuites(t), transcript.Auto, files)
	for suite, want := range map[string]string{
		"banking":   "384 runs, 823 calls (0 nested), not allowed: 12 under default, 313 under narrow; default: authorized 811 schema_fields 4 schema_types 8; narrow: authorized 510 missing_resource_capability 301 schema_fields 4 schema_types 8",
		"slack":     "504 runs, 2521 calls (0 nested), not allowed: 15 under default, 642 under narrow; default: authorized 2506 schema_fields 15; narrow: authorized 1879 missing_resource_capability 627 schema_fields 15",
		"travel":    "480 runs, 2989 calls (0 nested), not allowed: 75 under default, 256 under narrow; default: authorized 2914 schema_fields 36 schema_types 39; narrow: authorized 2733 missing_resource_capability 181 schema_fields 36 schema_types 39",
		"workspace": "960 runs, 2515 calls (0 nested), not allowed: 34 under default, 625 under narrow; default: authorized 2481 schema_fields 12 schema_types 21 unregistered_tool 1; narrow: authorized 1890 missing_resource_capability 591 schema_fields 12 schema_types 21 unregistered_tool 1",
	} {
		if g := got[suite].String(); g != want {
			t.Errorf("%s: %s\nwant %s", suite, g, want)
		}
	}
}

// TestAuthorizeIsTheAuditRunFiles is TestAuthorizeIsTheAudit over
// AgentDojo's own run files (../shared/agentdojo/runs, 9,036 files, read
// by the agentdojo-run reader).
func TestAuthorizeIsTheAuditRunFiles(t *testing.T) {
	testtier.Heavy(t, "reads AgentDojo's 9,036 run files")
	dir := filepath.Join(shared.Dir(t), "agentdojo", "runs")
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 9036 {
		t.Fatalf("%d run files, want 9,036", len(files))
	}
	got := judgeFiles(t, agentdojoSuites(t), transcript.Auto, files)
	for suite, want := range map[string]string{
		"banking":   "2028 runs, 4618 calls (0 nested), not allowed: 88 under default, 1764 under narrow; default: authorized 4530 schema_fields 43 schema_types 45; narrow: authorized 2854 missing_resource_capability 1676 schema_fields 43 schema_types 45",
		"slack":     "1572 runs, 8934 calls (0 nested), not allowed: 34 under default, 2933 under narrow; default: authorized 8900 schema_fields 34; narrow: authorized 6001 missing_resource_capability 2899 schema_fields 34",
		"travel":    "2004 runs, 12310 calls (0 nested), not allowed: 304 under default, 1240 under narrow; default: authorized 12006 schema_fields 133 schema_types 167 unregistered_tool 4; narrow: authorized 11070 missing_resource_capability 936 schema_fields 133 schema_types 167 unregistered_tool 4",
		"workspace": "3432 runs, 8895 calls (0 nested), not allowed: 118 under default, 2473 under narrow; default: authorized 8777 schema_fields 39 schema_types 75 unregistered_tool 4; narrow: authorized 6422 missing_resource_capability 2355 schema_fields 39 schema_types 75 unregistered_tool 4",
	} {
		if g := got[suite].String(); g != want {
			t.Errorf("%s: %s\nwant %s", suite, g, want)
		}
	}
}

// TestAuthorizeIsTheAuditNested is the identity of TestAuthorizeIsTheAudit
// on calls nested in calls, which AgentDojo's transcripts have none of: a
// banking run (openai-messages) whose calls carry calls in each shape the
// readers extract — {name, arguments}, AgentDojo's {function, args}, an
// Anthropic tool_use, a multi_tool_use.parallel wrapper's tool_uses — two
// siblings under one carrier, a chain nested deeper than is followed
// (run.NestedTooDeep) and arguments that do not parse.
func TestAuthorizeIsTheAuditNested(t *testing.T) {
	deep := map[string]any{"file_path": "end.txt"}
	for range run.MaxNestedDepth + 2 {
		deep = map[string]any{"file_path": "a.txt", "x": map[string]any{"name": "read_file", "arguments": deep}}
	}
	tc := func(id, name string, args any) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
	}
	rec := map[string]any{
		"metadata": map[string]any{"suite_name": "banking", "user_task_id": "user_task_0", "injection_task_id": nil},
		"messages": []any{
			map[string]any{"role": "user", "content": "pay the bill"},
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{
				tc("c1", "send_money", map[string]any{"recipient": "US1", "amount": 1.5, "date": "2022-01-01",
					"subject": map[string]any{"name": "update_password", "arguments": map[string]any{"password": map[string]any{"function": "get_iban", "args": map[string]any{}}}},
					"memo":    map[string]any{"type": "tool_use", "id": "t1", "name": "read_file", "input": map[string]any{"file_path": "bill.txt"}}}),
				tc("c2", "multi_tool_use.parallel", map[string]any{"tool_uses": []any{
					map[string]any{"recipient_name": "functions.get_balance", "parameters": map[string]any{}},
					map[string]any{"recipient_name": "functions.send_money", "parameters": map[string]any{"recipient": "US2", "amount": 2, "subject": "s", "date": "d"}}}}),
				tc("c3", "read_file", deep),
				tc("c4", "get_balance", "{not json"),
				tc("c5", "update_scheduled_transaction", map[string]any{"id": 7, "recipient": map[string]any{"name": "get_iban", "arguments": map[string]any{}}}),
				tc("c6", "get_iban", map[string]any{}),
				tc("c7", "send_money", map[string]any{"recipient": "US3", "amount": 3.0, "subject": "rent", "date": "2022-02-01"}),
			}},
		},
	}
	// The tool_use object makes format auto take the line for an
	// Anthropic one: the format is named.
	line, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "nested.jsonl")
	if err := os.WriteFile(file, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	suites := agentdojoSuites(t, "banking")
	got := judgeFiles(t, suites, "openai-messages", []string{file})["banking"].String()
	want := "1 runs, 7 calls (22 nested), not allowed: 5 under default, 6 under narrow; default: authorized 7 schema_fields 19 schema_types 2 unregistered_tool 1; narrow: authorized 5 missing_resource_capability 2 schema_fields 19 schema_types 2 unregistered_tool 1"
	if got != want {
		t.Errorf("banking: %s\nwant %s", got, want)
	}
}
