package runs

import (
	"bytes"
	"strings"
	"testing"
)

// TestAttackRoundTrip: the attack of an attacked run is written after the
// condition, read back, and orders the keys after the condition — a
// pipeline's benign runs (no attack) first, then each attack's runs.
func TestAttackRoundTrip(t *testing.T) {
	lab := func(r Record) Record {
		r.Utility = True()
		if r.Key.Attacked() {
			r.AttackSuccess, r.SideEffect = False(), False()
		}
		return r
	}
	recs := []Record{
		lab(Record{Key: Key{Condition: "p", Attack: "b_attack", Task: "t1", Goal: "g", Attempt: 1, Repetition: 1}}),
		lab(Record{Key: Key{Condition: "p", Attack: "a_attack", Task: "t2", Goal: "g", Attempt: 1, Repetition: 1}}),
		lab(Record{Key: Key{Condition: "p", Task: "t9", Attempt: 1, Repetition: 1}}),
	}
	var b bytes.Buffer
	if err := Write(&b, recs); err != nil {
		t.Fatal(err)
	}
	want := `{"condition":"p","task":"t9","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true}}
{"condition":"p","attack":"a_attack","task":"t2","goal":"g","attempt":1,"repetition":1,"labels":{"utility":true,"attack_success":false,"side_effect":false}}
{"condition":"p","attack":"b_attack","task":"t1","goal":"g","attempt":1,"repetition":1,"labels":{"utility":true,"attack_success":false,"side_effect":false}}
`
	if b.String() != want {
		t.Fatalf("written:\n%s\nwant:\n%s", b.String(), want)
	}
	got, err := Read("runs.jsonl", strings.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if got[1].Key.Attack != "a_attack" || got[2].Key.Attack != "b_attack" || got[0].Key.Attack != "" {
		t.Fatalf("attacks read back: %q %q %q", got[0].Key.Attack, got[1].Key.Attack, got[2].Key.Attack)
	}
	if s := got[1].Key.String(); s != `p @ a_attack/t2/g` {
		t.Errorf("key %s", s)
	}
	if s := (Key{Contract: "c", Condition: "p", Attack: "two words", Task: "t", Goal: "g", Attempt: 1, Repetition: 1}).String(); s != `c:p @ "two words"/t/g` {
		t.Errorf("key %s", s)
	}
	if s := ShownCondition("p", "a_attack"); s != "p @ a_attack" {
		t.Errorf("shown %s", s)
	}
	if s := ShownCondition("p", ""); s != "p" {
		t.Errorf("shown %s", s)
	}
}

func TestAttackErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"attack on a benign run", `{"condition":"p","attack":"x","task":"t","labels":{"utility":true}}`,
			"runs.jsonl:1: run p @ x/t: attack x on a benign run (goal is null): a benign run is made under no attack (it is the benign side of every attack of its condition)"},
		{"empty attack", `{"condition":"p","attack":"","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}`,
			"runs.jsonl:1: field attack is empty, want an attack name, or null for no attack named"},
		{"attack number", `{"condition":"p","attack":3,"task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}`,
			"runs.jsonl:1: field attack is a number, want a string, or null for no attack named"},
		{"exposure per attack", `{"condition":"p","attack":"a","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false,"exposed":true}}` + "\n" +
			`{"condition":"p","attack":"a","task":"u","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}` + "\n" +
			`{"condition":"p","attack":"b","task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}`,
			"condition p @ a: label exposed is present on 1 of 2 attacked runs (e.g. run p @ a/t/g at runs.jsonl:1) and absent on 1 (e.g. run p @ a/u/g at runs.jsonl:2); either every attacked run of a condition carries it or none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read("runs.jsonl", strings.NewReader(tt.in))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
	// Without the attack field a line reads as before: no attack.
	recs, err := Read("runs.jsonl", strings.NewReader(`{"condition":"p","attack":null,"task":"t","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}`))
	if err != nil || recs[0].Key.Attack != "" {
		t.Fatalf("%v %+v", err, recs)
	}
}
