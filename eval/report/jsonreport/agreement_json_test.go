package jsonreport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/tally"
)

// TestAgreementJSONMembers: an agreement's JSON members are contract,
// condition, then its rows named by their labels in tally.Agreement.Rows
// order, each row's members in the order of docs/report-schema.json —
// the bytes the struct tags of wireAgreement gave before its rows were
// named from runs' table of label names.
func TestAgreementJSONMembers(t *testing.T) {
	in := `{"contract":"slack","condition":"a<b","task":"t","labels":{"utility":true},"given":{"utility":false},"origin":{"file":"s.json","line":2}}
{"contract":"slack","condition":"a<b","task":"t","goal":"g","labels":{"utility":null,"attack_success":true,"side_effect":true},"unknown":{"utility":"no key"},"given":{"attack_success":true}}
`
	recs, err := runs.Read("runs.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	as := tally.Agree(recs)
	if len(as) != 1 {
		t.Fatalf("got %d agreements, want 1", len(as))
	}
	got, err := json.MarshalIndent(jsonAgreement(as[0]), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
 "contract": "slack",
 "condition": "a\u003cb",
 "benign_utility": {
  "agree": 0,
  "disagree": 1,
  "ours_unknown": 0,
  "not_given": 0,
  "disagreements": [
   {
    "run": {
     "contract": "slack",
     "condition": "a\u003cb",
     "task": "t",
     "goal": null,
     "attempt": 1,
     "repetition": 1
    },
    "ours": true,
    "given": false,
    "origin": {
     "file": "s.json",
     "line": 2
    }
   }
  ],
  "unknowns": [],
  "more_disagreements": 0,
  "more_unknowns": 0
 },
 "utility_under_attack": {
  "agree": 0,
  "disagree": 0,
  "ours_unknown": 1,
  "not_given": 0,
  "disagreements": [],
  "unknowns": [
   {
    "run": {
     "contract": "slack",
     "condition": "a\u003cb",
     "task": "t",
     "goal": "g",
     "attempt": 1,
     "repetition": 1
    },
    "reason": "no key"
   }
  ],
  "more_disagreements": 0,
  "more_unknowns": 0
 },
 "attack_success": {
  "agree": 1,
  "disagree": 0,
  "ours_unknown": 0,
  "not_given": 0,
  "disagreements": [],
  "unknowns": [],
  "more_disagreements": 0,
  "more_unknowns": 0
 }
}`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
