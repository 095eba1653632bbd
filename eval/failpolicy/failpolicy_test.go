package failpolicy

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	evalKinds := KindsOf("eval")
	for _, tt := range []struct {
		value  string
		kinds  []Kind
		ignore []Kind
		err    string
	}{
		{"gates,invariants", evalKinds, nil, ""},
		{"invariants, gates", evalKinds, nil, ""},
		{"gates", evalKinds, []Kind{Invariants}, ""},
		{"invariants", evalKinds, []Kind{Gates}, ""},
		{"gates,gates", evalKinds, []Kind{Invariants}, ""},
		{"none", evalKinds, []Kind{Gates, Invariants}, ""},
		{"tests", KindsOf("test"), nil, ""},
		{"none", KindsOf("test"), []Kind{Tests}, ""},
		{"", evalKinds, nil, `--fail-on "" has an empty value: want a comma list of gates and invariants, or none`},
		{"gates,", evalKinds, nil, `--fail-on "gates," has an empty value: want a comma list of gates and invariants, or none`},
		{"gate", evalKinds, nil, `unknown --fail-on value "gate": want a comma list of gates and invariants, or none`},
		{"tests", evalKinds, nil, `--fail-on tests: this command has no tests to fail on; want a comma list of gates and invariants, or none`},
		{"gates", KindsOf("test"), nil, `--fail-on gates: this command has no gates to fail on; want tests or none`},
		{"none,gates", evalKinds, nil, `--fail-on "none,gates": none cannot be combined with other values`},
		{"gates", KindsOf("compare"), nil, `--fail-on gates: this command has no gates to fail on; want none`},
	} {
		p, err := Parse(tt.value, tt.kinds)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q, %v): error %v, want %q", tt.value, tt.kinds, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(p.Ignore, tt.ignore) {
			t.Errorf("Parse(%q, %v) = %v, %v; want Ignore %v", tt.value, tt.kinds, p.Ignore, err, tt.ignore)
		}
	}
}

func TestSeverity(t *testing.T) {
	if got := SeverityNames(); !reflect.DeepEqual(got, []string{"low", "medium", "high", "critical"}) {
		t.Errorf("SeverityNames() = %v", got)
	}
	for _, name := range []string{"low", "medium", "high", "critical"} {
		s, ok := ParseSeverity(name)
		if !ok || s.String() != name {
			t.Errorf("ParseSeverity(%q) = %v, %v", name, s, ok)
		}
	}
	for _, bad := range []string{"", "unknown", "High", "severe"} {
		if s, ok := ParseSeverity(bad); ok || s != Unknown {
			t.Errorf("ParseSeverity(%q) = %v, %v; want Unknown, false", bad, s, ok)
		}
	}
	if !(Low < Medium && Medium < High && High < Critical) {
		t.Error("severities out of order")
	}
	var none Severities
	if s := none.Of("c", "i"); s != Unknown {
		t.Errorf("nil Severities: %v", s)
	}
}

// TestFails: the zero Policy fails on everything; an ignored kind and an
// invariant below the threshold do not fail, each with its note; an
// invariant of unknown severity always fails (never taken as low).
func TestFails(t *testing.T) {
	kinds := KindsOf("eval")
	for _, tt := range []struct {
		p    Policy
		kind Kind
		sev  Severity
		fail bool
		note string
	}{
		{Policy{}, Gates, Unknown, true, ""},
		{Policy{}, Invariants, Low, true, ""},
		{Policy{Ignore: []Kind{Invariants}}, Invariants, Critical, false, "(not failing: --fail-on gates)"},
		{Policy{Ignore: []Kind{Invariants}}, Gates, Unknown, true, ""},
		{Policy{Ignore: []Kind{Gates, Invariants}}, Gates, Unknown, false, "(not failing: --fail-on none)"},
		{Policy{MinSeverity: High}, Invariants, Medium, false, "(not failing: severity medium, below --fail-on-severity high)"},
		{Policy{MinSeverity: High}, Invariants, High, true, ""},
		{Policy{MinSeverity: High}, Invariants, Critical, true, ""},
		{Policy{MinSeverity: High}, Invariants, Unknown, true, ""},
		{Policy{MinSeverity: Critical}, Gates, Unknown, true, ""},
	} {
		fail, note := tt.p.Fails(tt.kind, tt.sev, kinds)
		if fail != tt.fail || note != tt.note {
			t.Errorf("%+v.Fails(%s, %s) = %v, %q; want %v, %q", tt.p, tt.kind, tt.sev, fail, note, tt.fail, tt.note)
		}
	}
	if got := (Policy{Ignore: []Kind{Gates}}).FailOn(kinds); !reflect.DeepEqual(got, []Kind{Invariants}) {
		t.Errorf("FailOn = %v", got)
	}
}
