package runs

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func ptr(b bool) *bool { return &b }

// sample is a set of records using every part of the format.
func sample() []Record {
	bundle := "sha256:" + strings.Repeat("ab", 32)
	return []Record{
		{Key: Key{Condition: "gpt-4o", Task: "user_task_0", Attempt: 1, Repetition: 1}, Utility: True(),
			Given: Given{Utility: ptr(true)}, OriginFile: "traces/x.jsonl", OriginLine: 3},
		{Key: Key{Condition: "gpt-4o", Task: "user_task_0", Goal: "injection_task_3", Attempt: 1, Repetition: 1},
			Utility: False(), AttackSuccess: True(), SideEffect: True(), Exposed: True(), HasExposed: true,
			Given: Given{Utility: ptr(false), AttackSuccess: ptr(true), SideEffect: ptr(true)}, OriginFile: "traces/x.jsonl", OriginLine: 17},
		{Key: Key{Condition: "gpt-4o", Task: "user_task_1", Goal: "injection_task_3", Attempt: 2, Repetition: 1},
			Utility: Unknown("criterion error: no such field 'balance'"), AttackSuccess: False(), SideEffect: Unknown("missing post state"),
			Exposed: False(), HasExposed: true},
		{Key: Key{Contract: "agentdojo-banking", Condition: "claude <b>&</b>", Task: "user_task_0", Attempt: 1, Repetition: 2},
			Utility: False(), Bundle: bundle},
		{Key: Key{Contract: "agentdojo-banking", Condition: "claude <b>&</b>", Task: "user_task_0", Goal: "injection_task_1", Attempt: 1, Repetition: 1},
			Utility: True(), AttackSuccess: False(), SideEffect: False(), Bundle: bundle, OriginFile: "a.json"},
		{Key: Key{Contract: "agentdojo-banking", Condition: "claude <b>&</b>", Task: "user_task_0", Attempt: 1, Repetition: 1},
			Utility: True(), Bundle: bundle},
	}
}

func TestWriteGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	want := `{"condition":"gpt-4o","task":"user_task_0","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true},"given":{"utility":true},"origin":{"file":"traces/x.jsonl","line":3}}
{"condition":"gpt-4o","task":"user_task_0","goal":"injection_task_3","attempt":1,"repetition":1,"labels":{"utility":false,"attack_success":true,"side_effect":true,"exposed":true},"given":{"utility":false,"attack_success":true,"side_effect":true},"origin":{"file":"traces/x.jsonl","line":17}}
{"condition":"gpt-4o","task":"user_task_1","goal":"injection_task_3","attempt":2,"repetition":1,"labels":{"utility":null,"attack_success":false,"side_effect":null,"exposed":false},"unknown":{"utility":"criterion error: no such field 'balance'","side_effect":"missing post state"}}
{"contract":"agentdojo-banking","condition":"claude <b>&</b>","task":"user_task_0","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true},"bundle":"sha256:abababababababababababababababababababababababababababababababab"}
{"contract":"agentdojo-banking","condition":"claude <b>&</b>","task":"user_task_0","goal":null,"attempt":1,"repetition":2,"labels":{"utility":false},"bundle":"sha256:abababababababababababababababababababababababababababababababab"}
{"contract":"agentdojo-banking","condition":"claude <b>&</b>","task":"user_task_0","goal":"injection_task_1","attempt":1,"repetition":1,"labels":{"utility":true,"attack_success":false,"side_effect":false},"origin":{"file":"a.json"},"bundle":"sha256:abababababababababababababababababababababababababababababababab"}
`
	if got := buf.String(); got != want {
		t.Errorf("Write:\n%s\nwant:\n%s", got, want)
	}
}

func TestRoundTripAndDeterminism(t *testing.T) {
	recs := append(sample(), audited())
	var first bytes.Buffer
	if err := Write(&first, recs); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		shuffled := append([]Record(nil), recs...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		before := append([]Record(nil), shuffled...)
		var buf bytes.Buffer
		if err := Write(&buf, shuffled); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), first.Bytes()) {
			t.Fatalf("Write output depends on input order:\n%s\nvs\n%s", buf.String(), first.String())
		}
		if !reflect.DeepEqual(before, shuffled) {
			t.Fatal("Write modified its input")
		}
	}
	got, err := Read("runs.jsonl", bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := append([]Record(nil), recs...)
	SortRecords(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read(Write(recs)):\n%+v\nwant\n%+v", got, want)
	}
	// And once more: Write(Read(Write(x))) == Write(x).
	var again bytes.Buffer
	if err := Write(&again, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), first.Bytes()) {
		t.Errorf("second round trip differs:\n%s", again.String())
	}
}

func TestReadWorkedExample(t *testing.T) {
	recs, err := ReadFiles("testdata/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		s := r.Key.String() + " u=" + r.Utility.String()
		if r.Key.Attacked() {
			s += " a=" + r.AttackSuccess.String() + " h=" + r.SideEffect.String()
		}
		got = append(got, s)
	}
	want := []string{
		"model-a/T1 u=true",
		"model-a/T1/G1 u=true a=false h=false",
		"model-a/T2 u=true",
		"model-a/T2/G1 u=false a=true h=true",
		"model-a/T3 u=true",
		"model-a/T3/G1 u=true a=true h=true",
		"model-a/T4 u=false",
		"model-a/T4/G1 u=false a=false h=false",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadAccepts(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"contract":null,"condition":"c","task":"t","goal":null,"attempt":null,"labels":{"utility":true},"unknown":null,"given":{"utility":null},"origin":null,"bundle":null}` + "\r\n" +
		"   \n" +
		`{"condition":"c","task":"t","goal":"g","repetition":3,"labels":{"utility":null,"attack_success":true,"side_effect":null},"unknown":{"utility":"boom","side_effect":"cost limit","attack_success":null}}`
	recs, err := Read("in.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Key: Key{Condition: "c", Task: "t", Attempt: 1, Repetition: 1}, Utility: True()},
		{Key: Key{Condition: "c", Task: "t", Goal: "g", Attempt: 1, Repetition: 3}, Utility: Unknown("boom"), AttackSuccess: True(), SideEffect: Unknown("cost limit")},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("got %+v\nwant %+v", recs, want)
	}
}

const (
	benign   = `"condition":"gpt-4o","task":"user_task_0"`
	attacked = `"condition":"gpt-4o","task":"user_task_0","goal":"injection_task_3"`
	okLabels = `"labels":{"utility":true,"attack_success":false,"side_effect":false}`
	runA     = "runs.jsonl:1: run gpt-4o/user_task_0/injection_task_3: "
	runB     = "runs.jsonl:1: run gpt-4o/user_task_0: "
)

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"goal_task on an attacked run", `{` + attacked + `,"goal_task":true,` + okLabels + `}`,
			runA + "goal_task is true on an attacked run: a goal-task run is benign (goal null)"},
		{"goal_task a string", `{` + benign + `,"goal_task":"yes","labels":{"utility":true}}`,
			runB + "field goal_task is a string, want true or false"},
		{"goal_task with attack labels", `{` + benign + `,"goal_task":true,` + okLabels + `}`,
			runB + "label attack_success on a benign run (goal is null): a benign run carries only utility"},
		{"label string", `{` + attacked + `,"labels":{"utility":"yes","attack_success":false,"side_effect":false}}`,
			runA + "label utility is a string, want true, false, or null with a reason in unknown"},
		{"label number", `{` + attacked + `,"labels":{"utility":true,"attack_success":1,"side_effect":false}}`,
			runA + "label attack_success is a number, want true, false, or null with a reason in unknown"},
		{"label object", `{` + benign + `,"labels":{"utility":{"value":true}}}`,
			runB + "label utility is an object, want true, false, or null with a reason in unknown"},
		{"missing side_effect", `{` + attacked + `,"labels":{"utility":true,"attack_success":false}}`,
			runA + "missing label side_effect (an attacked run needs utility, attack_success and side_effect)"},
		{"missing attack_success", `{` + attacked + `,"labels":{"utility":true,"side_effect":false}}`,
			runA + "missing label attack_success (an attacked run needs utility, attack_success and side_effect)"},
		{"missing utility", `{` + benign + `,"labels":{}}`,
			runB + "missing label utility"},
		{"null without reason", `{` + attacked + `,"labels":{"utility":true,"attack_success":null,"side_effect":false}}`,
			runA + "label attack_success is null without a reason in unknown"},
		{"empty reason", `{` + attacked + `,"labels":{"utility":true,"attack_success":null,"side_effect":false},"unknown":{"attack_success":""}}`,
			runA + "unknown.attack_success is empty, want the reason the label is unknown"},
		{"reason not a string", `{` + attacked + `,"labels":{"utility":true,"attack_success":null,"side_effect":false},"unknown":{"attack_success":true}}`,
			runA + "unknown.attack_success is a boolean, want the reason the label is unknown (a non-empty string)"},
		{"reason for known label", `{` + attacked + `,` + okLabels + `,"unknown":{"utility":"boom"}}`,
			runA + "unknown.utility gives a reason but label utility is true, not null"},
		{"reason for absent label", `{` + attacked + `,` + okLabels + `,"unknown":{"exposed":"boom"}}`,
			runA + "unknown.exposed gives a reason but label exposed is absent"},
		{"reason for unknown label", `{` + attacked + `,` + okLabels + `,"unknown":{"utilty":"boom"}}`,
			runA + `unknown label "utilty" in field unknown (want utility, attack_success, side_effect, exposed, or invariants.NAME or failures.NAME of a null check)`},
		{"unknown not an object", `{` + attacked + `,` + okLabels + `,"unknown":"boom"}`,
			runA + "field unknown is a string, want an object of reasons by label"},
		{"unknown field", `{` + attacked + `,` + okLabels + `,"bundel":"x"}`,
			runA + `unknown field "bundel" (want contract, condition, attack, task, goal, attempt, repetition, goal_task, labels, invariants, failures, witnesses, unknown, given, origin, bundle, attempt_budget, grant, audit, excerpt)`},
		{"unknown field labls", `{` + benign + `,"labls":{"utility":true}}`,
			runB + `unknown field "labls" (want contract, condition, attack, task, goal, attempt, repetition, goal_task, labels, invariants, failures, witnesses, unknown, given, origin, bundle, attempt_budget, grant, audit, excerpt)`},
		{"unknown label", `{` + benign + `,"labels":{"utility":true,"sideeffect":false}}`,
			runB + `unknown label "sideeffect" (want utility, attack_success, side_effect, exposed)`},
		{"missing labels", `{` + benign + `}`, runB + "missing field labels"},
		{"labels array", `{` + benign + `,"labels":[true]}`, runB + "field labels is an array, want an object"},
		{"malformed JSON", `{"condition":"gpt-4o",`, "runs.jsonl:1: invalid JSON: unexpected end of JSON input"},
		{"malformed JSON 2", `{"condition":"gpt-4o" "task":"x"}`, "runs.jsonl:1: invalid JSON: invalid character '\"' after object key:value pair"},
		{"trailing garbage", `{` + benign + `,"labels":{"utility":true}} x`, "runs.jsonl:1: invalid JSON: invalid character 'x' after top-level value"},
		{"not an object", `[1,2]`, "runs.jsonl:1: want a JSON object, got an array"},
		{"duplicate field", `{` + benign + `,"labels":{"utility":true},"task":"user_task_1"}`, `runs.jsonl:1: duplicate field "task"`},
		{"duplicate label", `{` + benign + `,"labels":{"utility":true,"utility":false}}`, runB + `duplicate field "utility" in labels`},
		{"missing condition", `{"task":"t","labels":{"utility":true}}`, "runs.jsonl:1: missing field condition"},
		{"empty task", `{"condition":"c","task":"","labels":{"utility":true}}`, "runs.jsonl:1: field task is empty, want a non-empty string"},
		{"task number", `{"condition":"c","task":7,"labels":{"utility":true}}`, "runs.jsonl:1: field task is a number, want a non-empty string"},
		{"contract number", `{"contract":1,"condition":"c","task":"t","labels":{"utility":true}}`, "runs.jsonl:1: field contract is a number, want a string"},
		{"empty goal", `{"condition":"c","task":"t","goal":"","labels":{"utility":true}}`, "runs.jsonl:1: field goal is empty, want a goal id, or null for a benign run"},
		{"goal bool", `{"condition":"c","task":"t","goal":false,"labels":{"utility":true}}`, "runs.jsonl:1: field goal is a boolean, want a string, or null for a benign run"},
		{"attempt 0", `{"condition":"c","task":"t","attempt":0,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 0, want an integer ≥ 1"},
		{"attempt 1.5", `{"condition":"c","task":"t","attempt":1.5,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 1.5, want an integer ≥ 1"},
		{"attempt 1.0", `{"condition":"c","task":"t","attempt":1.0,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 1.0, want an integer ≥ 1"},
		{"repetition string", `{"condition":"c","task":"t","repetition":"2","labels":{"utility":true}}`, "runs.jsonl:1: field repetition is a string, want an integer ≥ 1"},
		{"repetition -1", `{"condition":"c","task":"t","repetition":-1,"labels":{"utility":true}}`, "runs.jsonl:1: field repetition is -1, want an integer ≥ 1"},
		// Above the maximum in any form, as 4000000000 (review finding 9:
		// exponent forms read "want an integer ≥ 1").
		{"attempt 1e16", `{"condition":"c","task":"t","attempt":1e16,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 1e16, above the maximum of 1000000 (runs.MaxAttempt)"},
		{"attempt 1e300", `{"condition":"c","task":"t","attempt":1e300,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 1e300, above the maximum of 1000000 (runs.MaxAttempt)"},
		{"repetition 1E19", `{"condition":"c","task":"t","repetition":1E19,"labels":{"utility":true}}`, "runs.jsonl:1: field repetition is 1E19, above the maximum of 1000000 (runs.MaxRepetition)"},
		{"repetition 20 nines", `{"condition":"c","task":"t","repetition":99999999999999999999,"labels":{"utility":true}}`, "runs.jsonl:1: field repetition is 99999999999999999999, above the maximum of 1000000 (runs.MaxRepetition)"},
		{"attempt 4e9", `{"condition":"c","task":"t","attempt":4000000000,"labels":{"utility":true}}`, "runs.jsonl:1: run c/t (attempt 4000000000, repetition 1): attempt is 4000000000, above the maximum of 1000000 (runs.MaxAttempt)"},
		{"attempt 1e2", `{"condition":"c","task":"t","attempt":1e2,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is 1e2, want an integer ≥ 1"},
		{"attempt -1e16", `{"condition":"c","task":"t","attempt":-1e16,"labels":{"utility":true}}`, "runs.jsonl:1: field attempt is -1e16, want an integer ≥ 1"},
		{"attack without side effect", `{` + attacked + `,"labels":{"utility":true,"attack_success":true,"side_effect":false}}`,
			runA + "attack_success is true but side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)"},
		{"given attack without side effect", `{` + attacked + `,` + okLabels + `,"given":{"attack_success":true,"side_effect":false}}`,
			runA + "given attack_success is true but given side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)"},
		{"benign with attack label", `{` + benign + `,"labels":{"utility":true,"attack_success":false}}`,
			runB + "label attack_success on a benign run (goal is null): a benign run carries only utility"},
		{"benign with unknown side effect", `{` + benign + `,"labels":{"utility":true,"side_effect":null},"unknown":{"side_effect":"x"}}`,
			runB + "label side_effect on a benign run (goal is null): a benign run carries only utility"},
		{"benign with exposed", `{` + benign + `,"labels":{"utility":true,"exposed":true}}`,
			runB + "label exposed on a benign run (goal is null): a benign run carries only utility"},
		{"benign with given attack", `{` + benign + `,"labels":{"utility":true},"given":{"utility":true,"attack_success":false}}`,
			runB + "given.attack_success on a benign run (goal is null): a benign run carries only utility"},
		{"given string", `{` + benign + `,"labels":{"utility":true},"given":{"utility":"true"}}`,
			runB + "given.utility is a string, want true, false, or null (not given)"},
		{"given unknown field", `{` + attacked + `,` + okLabels + `,"given":{"exposed":true}}`,
			runA + `unknown field "exposed" in given (want utility, attack_success, side_effect)`},
		{"given array", `{` + benign + `,"labels":{"utility":true},"given":[]}`, runB + "field given is an array, want an object of labels"},
		{"origin without file", `{` + benign + `,"labels":{"utility":true},"origin":{"line":3}}`, runB + "origin.file is missing or empty"},
		{"origin line 0", `{` + benign + `,"labels":{"utility":true},"origin":{"file":"x","line":0}}`, runB + "origin.line is 0, want an integer ≥ 1"},
		{"origin unknown field", `{` + benign + `,"labels":{"utility":true},"origin":{"file":"x","col":0}}`, runB + `unknown field "col" in origin (want file, line)`},
		{"origin file number", `{` + benign + `,"labels":{"utility":true},"origin":{"file":1}}`, runB + "origin.file is a number, want a non-empty string"},
		{"bad bundle", `{` + benign + `,"labels":{"utility":true},"bundle":"sha256:abc"}`, runB + `bundle is "sha256:abc", want sha256:<64 lowercase hex digits>`},
		{"bundle number", `{` + benign + `,"labels":{"utility":true},"bundle":5}`, runB + `field bundle is a number, want a string`},
		{"with contract and attempt", `{"contract":"agentdojo-banking",` + attacked + `,"attempt":2,"labels":{"utility":"x"}}`,
			"runs.jsonl:1: run agentdojo-banking:gpt-4o/user_task_0/injection_task_3 (attempt 2, repetition 1): label utility is a string, want true, false, or null with a reason in unknown"},
		{"duplicate key", `{` + benign + `,"labels":{"utility":true}}` + "\n" +
			`{` + attacked + `,` + okLabels + `}` + "\n" +
			`{` + benign + `,"attempt":1,"labels":{"utility":false}}`,
			"runs.jsonl:3: duplicate run gpt-4o/user_task_0 (first at runs.jsonl:1)"},
		{"exposure inconsistent", `{` + attacked + `,"labels":{"utility":true,"attack_success":false,"side_effect":false,"exposed":true}}` + "\n" +
			`{"condition":"gpt-4o","task":"user_task_1","goal":"injection_task_3",` + okLabels + `}` + "\n" +
			`{"condition":"gpt-4o","task":"user_task_2","goal":"injection_task_3","labels":{"utility":true,"attack_success":false,"side_effect":false,"exposed":null},"unknown":{"exposed":"boom"}}` + "\n" +
			`{"condition":"other","task":"user_task_1","goal":"injection_task_3",` + okLabels + `}`,
			"condition gpt-4o: label exposed is present on 2 of 3 attacked runs (e.g. run gpt-4o/user_task_0/injection_task_3 at runs.jsonl:1) and absent on 1 (e.g. run gpt-4o/user_task_1/injection_task_3 at runs.jsonl:2); either every attacked run of a condition carries it or none"},
		{"two errors", `{` + benign + `,"labels":{"utility":1}}` + "\n\n" + `{"condition":"gpt-4o"}`,
			runB + "label utility is a number, want true, false, or null with a reason in unknown\nruns.jsonl:3: missing field task"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := Read("runs.jsonl", strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("no error; records %+v", recs)
			}
			if recs != nil {
				t.Errorf("records returned with an error: %+v", recs)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestReadTooManyErrors(t *testing.T) {
	in := strings.Repeat("{\n", 25)
	_, err := Read("bad.jsonl", strings.NewReader(in))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d lines:\n%s", len(lines), err)
	}
	if lines[0] != "bad.jsonl:1: invalid JSON: unexpected end of JSON input" || lines[19] != "bad.jsonl:20: invalid JSON: unexpected end of JSON input" ||
		lines[20] != "too many errors, stopped reading after the first 20" {
		t.Errorf("got\n%s", err)
	}
	// Exactly 20 errors: no "too many".
	_, err = Read("bad.jsonl", strings.NewReader(strings.Repeat("{\n", 20)))
	if n := strings.Count(err.Error(), "\n") + 1; n != 20 || strings.Contains(err.Error(), "too many") {
		t.Errorf("%d lines:\n%s", n, err)
	}
}

func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, `{"condition":"c","task":"t1","labels":{"utility":true}}`+"\n"+
		`{"condition":"c","task":"t1","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false,"exposed":false}}`+"\n")
	write(b, `{"condition":"c","task":"t2","labels":{"utility":false}}`+"\n")
	recs, err := ReadFiles(b, a)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range recs {
		keys = append(keys, r.Key.String())
	}
	if got, want := strings.Join(keys, " "), "c/t1 c/t1/g c/t2"; got != want {
		t.Errorf("keys %q, want %q", got, want)
	}

	// Duplicates and exposure are checked across files.
	write(b, `{"condition":"c","task":"t2","labels":{"utility":false}}`+"\n"+
		`{"condition":"c","task":"t1","labels":{"utility":false}}`+"\n"+
		`{"condition":"c","task":"t2","goal":"g","labels":{"utility":true,"attack_success":false,"side_effect":false}}`+"\n")
	_, err = ReadFiles(a, b)
	want := b + ":2: duplicate run c/t1 (first at " + a + ":1)\n" +
		"condition c: label exposed is present on 1 of 2 attacked runs (e.g. run c/t1/g at " + a + ":2) and absent on 1 (e.g. run c/t2/g at " + b + ":3); either every attacked run of a condition carries it or none"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}

	_, err = ReadFiles(filepath.Join(dir, "missing.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "missing.jsonl: no such file or directory") {
		t.Errorf("error %v", err)
	}
}

func TestWriteRejectsInvalid(t *testing.T) {
	k := Key{Condition: "c", Task: "t", Goal: "g", Attempt: 1, Repetition: 1}
	tests := []struct {
		name string
		recs []Record
		want string
	}{
		{"attempt 0", []Record{{Key: Key{Condition: "c", Task: "t", Repetition: 1}, Utility: True()}}, "run c/t (attempt 0, repetition 1): attempt is 0, want an integer ≥ 1"},
		{"empty condition", []Record{{Key: Key{Task: "t", Attempt: 1, Repetition: 1}, Utility: True()}}, `run ""/t: condition is empty`},
		{"missing label", []Record{{Key: k, Utility: True(), AttackSuccess: False()}}, "run c/t/g: missing label side_effect (an attacked run needs utility, attack_success and side_effect)"},
		{"h < a", []Record{{Key: k, Utility: True(), AttackSuccess: True(), SideEffect: False()}}, "run c/t/g: attack_success is true but side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)"},
		{"exposed without flag", []Record{{Key: k, Utility: True(), AttackSuccess: False(), SideEffect: False(), Exposed: True()}}, "run c/t/g: label exposed is set but HasExposed is false"},
		{"flag without exposed", []Record{{Key: k, Utility: True(), AttackSuccess: False(), SideEffect: False(), HasExposed: true}}, "run c/t/g: missing label exposed (HasExposed is set)"},
		{"known with reason", []Record{{Key: k, Utility: Label{Known: true, Reason: "x"}, AttackSuccess: False(), SideEffect: False()}}, `run c/t/g: label utility is false but has an unknown-reason "x"`},
		{"line without file", []Record{{Key: k, Utility: True(), AttackSuccess: False(), SideEffect: False(), OriginLine: 2}}, "run c/t/g: origin has a line but no file"},
		{"duplicate", []Record{{Key: k, Utility: True(), AttackSuccess: False(), SideEffect: False()}, {Key: k, Utility: False(), AttackSuccess: False(), SideEffect: False()}}, "duplicate run c/t/g"},
		{"exposure", []Record{
			{Key: k, Utility: True(), AttackSuccess: False(), SideEffect: False()},
			{Key: Key{Condition: "c", Task: "t2", Goal: "g", Attempt: 1, Repetition: 1}, Utility: True(), AttackSuccess: False(), SideEffect: False(), Exposed: True(), HasExposed: true},
		}, "condition c: label exposed is present on 1 of 2 attacked runs (e.g. run c/t2/g) and absent on 1 (e.g. run c/t/g); either every attacked run of a condition carries it or none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, tt.recs)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %q despite the error", buf.String())
			}
		})
	}
}

func TestKeyOrder(t *testing.T) {
	keys := []Key{
		{Contract: "b", Condition: "a", Task: "a", Attempt: 1, Repetition: 1},
		{Contract: "a", Condition: "b", Task: "a", Attempt: 1, Repetition: 1},
		{Contract: "a", Condition: "a", Task: "b", Attempt: 1, Repetition: 1},
		{Contract: "a", Condition: "a", Task: "a", Goal: "g", Attempt: 1, Repetition: 1},
		{Contract: "a", Condition: "a", Task: "a", Attempt: 2, Repetition: 1},
		{Contract: "a", Condition: "a", Task: "a", Attempt: 1, Repetition: 2},
		{Contract: "a", Condition: "a", Task: "a", Attempt: 1, Repetition: 1},
	}
	var recs []Record
	for _, k := range keys {
		recs = append(recs, Record{Key: k})
	}
	SortRecords(recs)
	var got []string
	for _, r := range recs {
		got = append(got, r.Key.String())
	}
	want := []string{
		"a:a/a", "a:a/a (attempt 1, repetition 2)", "a:a/a (attempt 2, repetition 1)", "a:a/a/g", "a:a/b", "a:b/a", "b:a/a",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if !keys[6].Less(keys[5]) || keys[5].Less(keys[6]) || keys[0].Less(keys[0]) {
		t.Error("Less disagrees with the order")
	}
}

// TestChecksRoundTrip: invariant and failure-class results survive Write
// and Read, unknown ones with their reasons, in a fixed field order.
func TestChecksRoundTrip(t *testing.T) {
	rec := Record{
		Key:        Key{Condition: "m", Task: "t", Attempt: 1, Repetition: 1},
		Utility:    True(),
		Invariants: map[string]Label{"answered": True(), "no_leak": False(), "slow": Unknown("cost limit")},
		Failures:   map[string]Label{"timeout": False(), "format": Unknown("no such key: x")},
	}
	var buf bytes.Buffer
	if err := Write(&buf, []Record{rec}); err != nil {
		t.Fatal(err)
	}
	want := `{"condition":"m","task":"t","goal":null,"attempt":1,"repetition":1,"labels":{"utility":true},"invariants":{"answered":true,"no_leak":false,"slow":null},"failures":{"format":null,"timeout":false},"unknown":{"invariants.slow":"cost limit","failures.format":"no such key: x"}}` + "\n"
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
	got, err := Read("r.jsonl", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []Record{rec}) {
		t.Errorf("read back %+v", got)
	}
	if v := got[0].Violated(); !reflect.DeepEqual(v, []string{"no_leak"}) {
		t.Errorf("Violated() = %q", v)
	}
	for _, bad := range []struct{ line, want string }{
		{`{"condition":"m","task":"t","labels":{"utility":true},"invariants":{"a":null}}`, `r.jsonl:1: run m/t: invariants.a is null without a reason in unknown`},
		{`{"condition":"m","task":"t","labels":{"utility":true},"invariants":{"a":"yes"}}`, `r.jsonl:1: run m/t: invariants.a is a string, want true, false, or null with a reason in unknown`},
		{`{"condition":"m","task":"t","labels":{"utility":true},"failures":{"a":true},"unknown":{"failures.a":"x"}}`, `r.jsonl:1: run m/t: unknown.failures.a gives a reason but failures.a is true, not null`},
	} {
		_, err := Read("r.jsonl", strings.NewReader(bad.line))
		if err == nil || err.Error() != bad.want {
			t.Errorf("%s:\ngot  %v\nwant %s", bad.line, err, bad.want)
		}
	}
}

// TestGoalTaskRoundTrip: goal_task is written only when true, after
// repetition, and read back; false and null read as absent.
func TestGoalTaskRoundTrip(t *testing.T) {
	r := Record{Key: Key{Condition: "m", Task: "injection_task_3", Attempt: 1, Repetition: 1}, Utility: True(), GoalTask: true}
	var b bytes.Buffer
	if err := Write(&b, []Record{r}); err != nil {
		t.Fatal(err)
	}
	want := `{"condition":"m","task":"injection_task_3","goal":null,"attempt":1,"repetition":1,"goal_task":true,"labels":{"utility":true}}` + "\n"
	if b.String() != want {
		t.Fatalf("wrote %s want %s", b.String(), want)
	}
	got, err := Read("runs.jsonl", &b)
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], r) {
		t.Fatalf("read %+v %v", got, err)
	}
	for _, v := range []string{"false", "null"} {
		got, err := Read("runs.jsonl", strings.NewReader(`{"condition":"m","task":"t","goal_task":`+v+`,"labels":{"utility":true}}`))
		if err != nil || got[0].GoalTask {
			t.Errorf("goal_task %s: %+v %v", v, got, err)
		}
	}
}
