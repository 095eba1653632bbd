package opabench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/run"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/shared"
	"github.com/tenetlang/tenet/internal/synth"
)

const format = "openai-messages"

// A corpus is banking runs three ways: the raw records (JSONL lines), as
// tenet decodes them, and as OPA decodes them.
type corpus struct {
	name   string
	lines  [][]byte
	origin []run.Origin
	runs   []*run.Run
	inputs []ast.Value
}

// synthRuns is the size of the synthetic corpus: 32 blocks of the 32
// (task, goal) pairs.
const synthRuns = 32 * synth.BlockSize

// corpora returns the AgentDojo banking runs (when the shared folder is
// there) and a synthetic corpus.
func corpora(tb testing.TB) []*corpus {
	tb.Helper()
	var cs []*corpus
	if c := agentdojoCorpus(tb); c != nil {
		cs = append(cs, c)
	}
	var buf bytes.Buffer
	if _, err := synth.Write(&buf, synthRuns, 1); err != nil {
		tb.Fatal(err)
	}
	c := &corpus{name: "synth"}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if line > 1 { // the header
			c.add(tb, run.Origin{File: "synth", Line: line}, bytes.Clone(sc.Bytes()))
		}
	}
	return append(cs, c.decode(tb))
}

// agentdojoCorpus reads the banking records of the 12 AgentDojo agents, or
// returns nil (the test skips) when the shared folder is absent and
// TENET_REQUIRE_SHARED is not 1. The shared folder is ../shared next to
// tenet's module root ($TENET_SHARED overrides it).
func agentdojoCorpus(tb testing.TB) *corpus {
	tb.Helper()
	dir := os.Getenv("TENET_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if st, err := os.Stat(dir); (err != nil || !st.IsDir()) && os.Getenv("TENET_REQUIRE_SHARED") != "1" {
		tb.Logf("no shared folder at %s: AgentDojo runs left out", dir)
		return nil
	}
	abs, _ := filepath.Abs(dir)
	tb.Setenv("TENET_SHARED", abs)
	files, _ := filepath.Glob(filepath.Join(shared.Dir(tb), "agentdojo", "traces", "*.jsonl"))
	if len(files) == 0 {
		tb.Fatal("no AgentDojo traces in the shared folder")
	}
	c := &corpus{name: "agentdojo"}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for i, line := range bytes.Split(data, []byte("\n")) {
			var rec struct {
				Metadata struct {
					SuiteName string `json:"suite_name"`
				}
			}
			if json.Unmarshal(line, &rec) == nil && rec.Metadata.SuiteName == "banking" {
				c.add(tb, run.Origin{File: filepath.Base(f), Line: i + 1}, line)
			}
		}
	}
	return c.decode(tb)
}

func (c *corpus) add(tb testing.TB, o run.Origin, line []byte) {
	c.lines = append(c.lines, line)
	c.origin = append(c.origin, o)
}

// decode decodes every record with tenet's reader and with OPA's.
func (c *corpus) decode(tb testing.TB) *corpus {
	tb.Helper()
	for i, line := range c.lines {
		r, skip, err := transcript.Decode(format, c.origin[i], line)
		if err != nil || skip {
			tb.Fatalf("%s:%d: %v (skip %v)", c.origin[i].File, c.origin[i].Line, err, skip)
		}
		c.runs = append(c.runs, r)
		v, err := opaValue(line)
		if err != nil {
			tb.Fatal(err)
		}
		c.inputs = append(c.inputs, v)
	}
	return c
}

// opaValue decodes a record as OPA does its input: JSON into Go values,
// then into an AST value.
func opaValue(line []byte) (ast.Value, error) {
	var x any
	if err := util.UnmarshalJSON(line, &x); err != nil {
		return nil, err
	}
	return ast.InterfaceToValue(x)
}

// A judge is a compiled contract with the source plan to judge with.
type judge struct {
	p   *eval.Program
	src *bundle.SourcePlan
}

const bankingDir = "../../contracts/agentdojo/banking"

// fullJudge is the shipped banking contract, as tenet eval judges with it:
// every criterion, the three invariants of contracts/common, the audit of
// every call against the default grant.
func fullJudge(tb testing.TB) judge {
	return compile(tb, bankingDir, false)
}

// subsetJudge is the banking contract cut to what banking.rego mirrors: the
// contract without `use "../../common"` but with the one invariant the
// Rego mirrors (no_send_after_untrusted_read and its predicate user_text,
// copied from contracts/common), judged without the audit.
func subsetJudge(tb testing.TB) judge {
	tb.Helper()
	dir := tb.TempDir()
	for _, f := range []string{"contract", "goals", "state", "tasks", "tools", "versions", "corrected", "attacks"} {
		data, err := os.ReadFile(filepath.Join(bankingDir, f+".tenet.hcl"))
		if err != nil {
			tb.Fatal(err)
		}
		if f == "contract" {
			const use = "use \"../../common\" {}\n"
			if !bytes.Contains(data, []byte(use)) {
				tb.Fatalf("the banking contract no longer has %q", use)
			}
			data = bytes.Replace(data, []byte(use), nil, 1)
		}
		write(tb, filepath.Join(dir, f+".tenet.hcl"), data)
	}
	common, err := os.ReadFile("../../contracts/common/invariants.tenet.hcl")
	if err != nil {
		tb.Fatal(err)
	}
	var inv []byte
	for _, start := range []string{"predicate \"user_text\" {\n", "invariant \"no_send_after_untrusted_read\" {\n"} {
		i := bytes.Index(common, []byte(start))
		j := bytes.Index(common[max(i, 0):], []byte("\n}\n"))
		if i < 0 || j < 0 {
			tb.Fatalf("contracts/common has no block %q", strings.TrimSpace(start))
		}
		inv = append(append(inv, common[i:i+j+3]...), '\n')
	}
	write(tb, filepath.Join(dir, "invariant.tenet.hcl"), inv)
	return compile(tb, dir, true)
}

func write(tb testing.TB, name string, data []byte) {
	if err := os.WriteFile(name, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// compile builds dir's bundle and loads it as tenet eval does (encoded,
// decoded, planned).
func compile(tb testing.TB, dir string, noAudit bool) judge {
	tb.Helper()
	built, diags := compiler.BuildDir(dir, compiler.Options{})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	p, err := eval.Load(built.Data)
	if err != nil {
		tb.Fatal(err)
	}
	src, err := p.Source("")
	if err != nil {
		tb.Fatal(err)
	}
	if noAudit {
		s := *src
		s.Grant = ""
		src = &s
	}
	return judge{p, src}
}

func prepare(tb testing.TB) rego.PreparedEvalQuery {
	tb.Helper()
	pq, err := Prepare(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return pq
}
