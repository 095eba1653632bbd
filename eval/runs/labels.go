package runs

import (
	"encoding/json"
	"strings"
)

// LabelName names one of a run's labels. The constants below are the one
// table of label names: their text is how the runs file, messages and
// reports spell them (docs/runs-format.md); code outside this file refers
// to a label by its constant, never by its text.
type LabelName string

// The labels of a run (docs/metrics.md).
const (
	Utility       LabelName = "utility"
	AttackSuccess LabelName = "attack_success"
	SideEffect    LabelName = "side_effect"
	Exposed       LabelName = "exposed"
)

// String returns the label's name as the runs file spells it.
func (n LabelName) String() string { return string(n) }

// LabelNames returns the labels in file order: utility, attack_success,
// side_effect, exposed.
func LabelNames() []LabelName { return []LabelName{Utility, AttackSuccess, SideEffect, Exposed} }

// givenNames are the labels another harness may give (Record.Given).
func givenNames() []LabelName { return []LabelName{Utility, AttackSuccess, SideEffect} }

// wireLabels is a record's labels object in the runs file (codec.go), its
// members in LabelNames order: a label's value, or null when it is unknown
// (its reason then in unknown); an absent label is left out.
type wireLabels struct {
	Utility       json.RawMessage `json:"utility,omitempty"`
	AttackSuccess json.RawMessage `json:"attack_success,omitempty"`
	SideEffect    json.RawMessage `json:"side_effect,omitempty"`
	Exposed       json.RawMessage `json:"exposed,omitempty"`
}

// wireGiven is a record's given object (codec.go), in givenNames order; a
// label not given is left out.
type wireGiven struct {
	Utility       *bool `json:"utility,omitempty"`
	AttackSuccess *bool `json:"attack_success,omitempty"`
	SideEffect    *bool `json:"side_effect,omitempty"`
}

// Label returns the label called name, or nil for a name that is not one
// of LabelNames.
func (r *Record) Label(name LabelName) *Label {
	switch name {
	case Utility:
		return &r.Utility
	case AttackSuccess:
		return &r.AttackSuccess
	case SideEffect:
		return &r.SideEffect
	case Exposed:
		return &r.Exposed
	}
	return nil
}

// given returns the given label called name (one of givenNames), or nil.
func (g *Given) given(name LabelName) **bool {
	switch name {
	case Utility:
		return &g.Utility
	case AttackSuccess:
		return &g.AttackSuccess
	case SideEffect:
		return &g.SideEffect
	}
	return nil
}

// checkGroups are the named-check maps of a record: per invariant, whether
// it held; per failure class, whether the run belongs to it. Their unknown
// reasons are keyed "invariants.NAME" and "failures.NAME" in unknown.
var checkGroups = [...]string{"invariants", "failures"}

func (r *Record) group(name string) *map[string]Label {
	if name == "invariants" {
		return &r.Invariants
	}
	return &r.Failures
}

// joinNames joins names with ", ", for messages.
func joinNames[S ~string](names []S) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// AllOf is Kleene AND: false if any is false, else the first unknown if
// any, else true.
func AllOf(ls []Label) Label {
	var unknown *Label
	for i, l := range ls {
		if l.Known && !l.Value {
			return False()
		}
		if !l.Known && unknown == nil {
			unknown = &ls[i]
		}
	}
	if unknown != nil {
		return *unknown
	}
	return True()
}

// AnyOf is Kleene OR: true if any is true, else unknown if any is unknown
// (with the first reason), else false.
func AnyOf(ls []Label) Label {
	var unknown *Label
	for i, l := range ls {
		if l.Known && l.Value {
			return True()
		}
		if !l.Known && unknown == nil {
			unknown = &ls[i]
		}
	}
	if unknown != nil {
		return *unknown
	}
	return False()
}
