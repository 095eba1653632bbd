package agentdojo_test

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/pipeline"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/internal/evaltest"
)

// TestBankingCompare pins the paired comparison (tenet compare) of two
// gpt-4o defences on banking, from AgentDojo's real transcripts:
// repeat_user_prompt as the reference, spotlighting_with_delimiting as the
// defended condition. The same table comes out of
//
//	tenet eval contracts/agentdojo/banking ../shared/agentdojo/traces/*.jsonl --out banking.jsonl
//	tenet compare --reference 'gpt-4o-2024-05-13-repeat_user_prompt @ important_instructions' \
//	    --defended 'gpt-4o-2024-05-13-spotlighting_with_delimiting @ important_instructions' banking.jsonl
func TestBankingCompare(t *testing.T) {
	p := evaltest.Program(t, "banking")
	res, err := pipeline.EvalFiles(p, traces(t), pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("bad records: %v", res.Errors)
	}
	// Conditions are (pipeline, attack): the traces' attack is important_instructions.
	const ref, def = "gpt-4o-2024-05-13-repeat_user_prompt @ important_instructions", "gpt-4o-2024-05-13-spotlighting_with_delimiting @ important_instructions"
	c, err := metrics.Compare(res.Records, ref, def, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteComparison(&buf, c, nil); err != nil {
		t.Fatal(err)
	}
	// The bundle id changes with every edit of the contract: pin the rest.
	pinned := bytes.ReplaceAll(buf.Bytes(), []byte(p.ID), []byte("sha256:<the banking bundle>"))
	if !bytes.Contains(buf.Bytes(), []byte("bundle "+p.ID+", attempt budget ")) {
		t.Errorf("the comparison does not name the bundle %s:\n%s", p.ID, buf.String())
	}
	golden(t, "testdata/banking-compare.golden", pinned)

	// The paired rates are the conditions' own rates.
	cs, err := metrics.Compute(res.Records, nil, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cond := range cs {
		switch cond.Condition {
		case ref:
			if c.Transitions[0].ReferenceRate != cond.BenignUtility || c.Transitions[2].ReferenceRate != cond.TargetedASR {
				t.Errorf("reference rates %v %v, metrics %v %v", c.Transitions[0].ReferenceRate, c.Transitions[2].ReferenceRate, cond.BenignUtility, cond.TargetedASR)
			}
		case def:
			if c.Transitions[0].DefendedRate != cond.BenignUtility || c.Transitions[2].DefendedRate != cond.TargetedASR {
				t.Errorf("defended rates %v %v, metrics %v %v", c.Transitions[0].DefendedRate, c.Transitions[2].DefendedRate, cond.BenignUtility, cond.TargetedASR)
			}
		}
	}

	// Whatever the order of the runs, the same comparison.
	recs := append(res.Records[:0:0], res.Records...)
	rand.New(rand.NewSource(3)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	again, err := metrics.Compare(recs, ref, def, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := report.WriteComparison(&buf2, again, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Errorf("shuffled runs give another comparison:\n%s", buf2.String())
	}
}
