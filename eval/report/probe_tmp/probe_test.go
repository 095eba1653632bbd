package probe

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
)

func TestProbe(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/agentdojo/traces/*.jsonl")
	sort.Strings(files)
	var progs []*eval.Program
	var all []runs.Record
	decl := map[string]metrics.Declared{}
	for _, s := range []string{"banking", "slack", "travel", "workspace"} {
		_, b, diags := compiler.CompileDir("../../../contracts/agentdojo/"+s, compiler.Options{Formats: transcript.Formats()})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		data, _, _ := bundle.Encode(b)
		p, err := eval.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.EvalFiles(files, eval.Options{})
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
		all = append(all, res.Records...)
		decl[p.Bundle.Manifest.Contract] = p.Declared()
	}
	d := report.Build(report.Input{Command: "eval", Records: all, Declared: decl, Programs: progs, Metrics: metrics.Options{Unknown: "bounds"}})
	t.Logf("runs %d conds %d agree %d checks %d viol %d audit %d gates %d lb %d fail %d err %d exit %d", d.Runs, len(d.Conditions), len(d.Agreement), len(d.Checks), len(d.Violations), len(d.Audit), len(d.Gates), len(d.Leaderboard), len(d.Failures), len(d.Errors), d.ExitCode)
	den := 0
	for _, a := range d.Audit {
		den += len(a.Denied)
	}
	t.Logf("denied %d", den)
	for _, f := range d.Failures[:min(5, len(d.Failures))] {
		t.Log(f)
	}
	for _, v := range d.Violations[:3] {
		t.Logf("%+v", v)
	}
	for _, c := range d.Checks[:2] {
		t.Logf("%+v", c.Invariants)
	}
	d2 := report.Build(report.Input{Command: "eval", Records: all, Declared: decl, Programs: progs})
	t.Logf("errors refuse: %d %v", len(d2.Errors), d2.Errors[:min(3, len(d2.Errors))])
}
