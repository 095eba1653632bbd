package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The codec of the runs file (docs/runs-format.md), one JSON object per
// line. encodeLine writes the fields in the order of the docs (toWire,
// with encoding/json, whose bytes the runs files in tenet's goldens are),
// leaving out empty optional fields; decodeLine reads any order with the
// strict decoder github.com/go-json-experiment/json, as the transcript
// reader does. Write, Read and the Writer go through them: there is no
// other file encoding of a record (eval/runsort keeps runs in memory and
// in its temporary files in a binary encoding of its own).

type wireRecord struct {
	Contract   string                       `json:"contract,omitempty"`
	Condition  string                       `json:"condition"`
	Attack     string                       `json:"attack,omitempty"`
	Task       string                       `json:"task"`
	Goal       *string                      `json:"goal"`
	Attempt    int                          `json:"attempt"`
	Repetition int                          `json:"repetition"`
	GoalTask   bool                         `json:"goal_task,omitempty"`
	Labels     wireLabels                   `json:"labels"`
	Invariants *wireChecks                  `json:"invariants,omitempty"`
	Failures   *wireChecks                  `json:"failures,omitempty"`
	Witnesses  map[string]map[string]string `json:"witnesses,omitempty"`
	Unknown    *wireUnknown                 `json:"unknown,omitempty"`
	Given      *wireGiven                   `json:"given,omitempty"`
	Origin     *wireOrigin                  `json:"origin,omitempty"`
	Bundle     string                       `json:"bundle,omitempty"`
	Budget     int                          `json:"attempt_budget,omitempty"`
	Grant      string                       `json:"grant,omitempty"`
	Audit      []wireAudit                  `json:"audit,omitempty"`
	Excerpt    map[string]string            `json:"excerpt,omitempty"`
}

// wireAudit is an AuditEntry: detail left out when empty, parent when -1,
// hazard when false.
type wireAudit struct {
	Call     int    `json:"call"`
	Tool     string `json:"tool"`
	Decision string `json:"decision"`
	Detail   string `json:"detail,omitempty"`
	Parent   *int   `json:"parent,omitempty"`
	Hazard   bool   `json:"hazard,omitempty"`
	Mismatch string `json:"mismatch,omitempty"`
}

// wireLabels and wireGiven, whose member names are the label names, are
// in labels.go with the table.

// wireUnknown holds the reasons of unknown labels and checks, in file
// order: the labels, then invariants.NAME and failures.NAME by name.
type wireUnknown []wireReason

type wireReason struct{ key, reason string }

func (u wireUnknown) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, r := range u {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSONString(&b, r.key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSONString(&b, r.reason); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// wireChecks is a name → true/false/null map (json sorts its keys).
type wireChecks map[string]json.RawMessage

func writeJSONString(b *bytes.Buffer, s string) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

type wireOrigin struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
}

func wireLabel(l Label, present bool) (json.RawMessage, string) {
	switch {
	case !present:
		return nil, ""
	case !l.Known:
		return json.RawMessage("null"), l.Reason
	case l.Value:
		return json.RawMessage("true"), ""
	default:
		return json.RawMessage("false"), ""
	}
}

func toWire(r Record) wireRecord {
	w := wireRecord{
		Contract:   r.Key.Contract,
		Condition:  r.Key.Condition,
		Attack:     r.Key.Attack,
		Task:       r.Key.Task,
		Attempt:    r.Key.Attempt,
		Repetition: r.Key.Repetition,
		GoalTask:   r.GoalTask,
		Bundle:     r.Bundle,
		Budget:     r.AttemptBudget,
		Grant:      r.Grant,
	}
	for _, e := range r.Audit {
		a := wireAudit{Call: e.Call, Tool: e.Tool, Decision: e.Decision, Detail: e.Detail, Hazard: e.Hazard, Mismatch: e.Mismatch}
		if e.Parent != -1 {
			p := e.Parent
			a.Parent = &p
		}
		w.Audit = append(w.Audit, a)
	}
	if r.Key.Goal != "" {
		g := r.Key.Goal
		w.Goal = &g
	}
	var u wireUnknown
	reason := func(key string) func(json.RawMessage, string) json.RawMessage {
		return func(raw json.RawMessage, why string) json.RawMessage {
			if why != "" {
				u = append(u, wireReason{key, why})
			}
			return raw
		}
	}
	w.Labels.Utility = reason(string(Utility))(wireLabel(r.Utility, true))
	w.Labels.AttackSuccess = reason(string(AttackSuccess))(wireLabel(r.AttackSuccess, !r.AttackSuccess.Absent()))
	w.Labels.SideEffect = reason(string(SideEffect))(wireLabel(r.SideEffect, !r.SideEffect.Absent()))
	w.Labels.Exposed = reason(string(Exposed))(wireLabel(r.Exposed, r.HasExposed))
	for _, g := range checkGroups {
		m := *r.group(g)
		if len(m) == 0 {
			continue
		}
		wc := wireChecks{}
		for _, n := range slices.Sorted(maps.Keys(m)) {
			wc[n] = reason(g + "." + n)(wireLabel(m[n], true))
		}
		if g == "invariants" {
			w.Invariants = &wc
		} else {
			w.Failures = &wc
		}
	}
	if len(u) > 0 {
		w.Unknown = &u
	}
	if len(r.Witnesses) > 0 {
		w.Witnesses = r.Witnesses
	}
	if len(r.Excerpt) > 0 {
		w.Excerpt = r.Excerpt
	}
	if g := r.Given; g.Utility != nil || g.AttackSuccess != nil || g.SideEffect != nil {
		w.Given = &wireGiven{Utility: g.Utility, AttackSuccess: g.AttackSuccess, SideEffect: g.SideEffect}
	}
	if r.OriginFile != "" {
		w.Origin = &wireOrigin{File: r.OriginFile, Line: r.OriginLine}
	}
	return w
}

// encodable reports why the runs file cannot hold r exactly (Read would
// reject its line or give back another record), or nil: r is invalid
// (Validate), or holds what no line can say — text that is not valid
// UTF-8, an unknown label with a value, a reason on a known check, a
// witness of an invariant that is not violated. Validate does not check
// these, so that a Go program may compute metrics over records a runs file
// could not hold; the Sorter, whose records may become runs-file lines, must.
func encodable(r Record) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if err := r.encodable(); err != nil {
		return fmt.Errorf("run %s: %s; a runs file cannot hold it", r.Key, err)
	}
	return nil
}

func (r Record) encodable() error {
	texts := []struct{ what, s string }{
		{"contract", r.Key.Contract}, {"condition", r.Key.Condition}, {"attack", r.Key.Attack}, {"task", r.Key.Task}, {"goal", r.Key.Goal},
		{"origin.file", r.OriginFile}, {"grant", r.Grant},
	}
	for _, name := range LabelNames() {
		l := *r.Label(name)
		texts = append(texts, struct{ what, s string }{"the reason of label " + string(name), l.Reason})
		if !l.Known && l.Value {
			return fmt.Errorf("label %s is unknown but has value true", name)
		}
	}
	for _, g := range checkGroups {
		for n, l := range *r.group(g) {
			switch {
			case n == "":
				return fmt.Errorf("field %s has an empty name", g)
			case l.Known && l.Reason != "":
				return fmt.Errorf("%s.%s is %s but has an unknown-reason %q", g, n, l, l.Reason)
			case !l.Known && (l.Value || l.Reason == ""):
				return fmt.Errorf("%s.%s is unknown without a reason, or with value true", g, n)
			}
			texts = append(texts, struct{ what, s string }{g + " name", n}, struct{ what, s string }{"the reason of " + g + "." + n, l.Reason})
		}
	}
	for w, steps := range r.Witnesses {
		name, ok := strings.CutPrefix(w, "invariants.")
		if l, found := r.Invariants[name]; !ok || !found || !l.Known || l.Value {
			return fmt.Errorf("witnesses.%s: want invariants.NAME of a violated invariant", w)
		}
		if steps == nil {
			return fmt.Errorf("witnesses.%s is nil, want an object of step → item", w)
		}
		for step, it := range steps {
			if !validItem(it) {
				return fmt.Errorf("witnesses.%s.%s is %q, want \"event:N\" or \"call:N\"", w, step, it)
			}
			texts = append(texts, struct{ what, s string }{"a witness step", step})
		}
		texts = append(texts, struct{ what, s string }{"a witness", w})
	}
	for _, e := range r.Audit {
		texts = append(texts, struct{ what, s string }{"an audit tool", e.Tool}, struct{ what, s string }{"an audit detail", e.Detail})
	}
	if err := excerptEncodable(r.Excerpt); err != nil {
		return err
	}
	for _, t := range texts {
		if !utf8.ValidString(t.s) {
			return fmt.Errorf("%s is not valid UTF-8", t.what)
		}
	}
	return nil
}

// Write writes recs as a runs file: one JSON object per line, sorted by key
// (Key.Compare), fields in the fixed order of docs/runs-format.md, no HTML
// escaping. The bytes depend only on the set of records, not on their order.
// Write does not modify recs. It first runs Check and writes nothing when
// the records are invalid, so everything it writes, Read accepts.
func Write(w io.Writer, recs []Record) error {
	if err := Check(recs); err != nil {
		return err
	}
	sorted := append([]Record(nil), recs...)
	SortRecords(sorted)
	bw := bufio.NewWriter(w)
	for _, r := range sorted {
		if err := encodeLine(bw, r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// encodeLine writes rec's runs-file line, "\n" included, to w.
func encodeLine(w io.Writer, rec Record) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(toWire(rec))
}

// ---------------------------------------------------------------- decoding

// decodeOptions are the decoder's defaults — a duplicate member name at any
// depth is an error — with every member of a record's top level named (an
// unknown one is an error) and invalid UTF-8 in a string read as U+FFFD, as
// encoding/json reads it (docs/runs-format.md).
func decodeOptions() jsonv2.Options {
	return jsonv2.JoinOptions(jsonv2.RejectUnknownMembers(true), jsontext.AllowInvalidUTF8(true))
}

// topFields are the members of a record, in file order.
var topFields = [...]string{"contract", "condition", "attack", "task", "goal", "attempt", "repetition", "goal_task", "labels", "invariants", "failures", "witnesses", "unknown", "given", "origin", "bundle", "attempt_budget", "grant", "audit", "excerpt"}

// auditFields are the members of an audit entry, in file order.
var auditFields = [...]string{"call", "tool", "decision", "detail", "parent", "hazard", "mismatch"}

// wireIn is a record as the decoder reads it: each member kept as its JSON
// text (nil when absent), so that body and key check its type and value
// with a message that names it.
type wireIn struct {
	Contract   jsontext.Value `json:"contract"`
	Condition  jsontext.Value `json:"condition"`
	Attack     jsontext.Value `json:"attack"`
	Task       jsontext.Value `json:"task"`
	Goal       jsontext.Value `json:"goal"`
	Attempt    jsontext.Value `json:"attempt"`
	Repetition jsontext.Value `json:"repetition"`
	GoalTask   jsontext.Value `json:"goal_task"`
	Labels     jsontext.Value `json:"labels"`
	Invariants jsontext.Value `json:"invariants"`
	Failures   jsontext.Value `json:"failures"`
	Witnesses  jsontext.Value `json:"witnesses"`
	Unknown    jsontext.Value `json:"unknown"`
	Given      jsontext.Value `json:"given"`
	Origin     jsontext.Value `json:"origin"`
	Bundle     jsontext.Value `json:"bundle"`
	Budget     jsontext.Value `json:"attempt_budget"`
	Grant      jsontext.Value `json:"grant"`
	Audit      jsontext.Value `json:"audit"`
	Excerpt    jsontext.Value `json:"excerpt"`
}

// decodeLine decodes one runs-file line into a valid record
// (Record.Validate). Errors read "reason" until the key is read, then "run
// KEY: reason"; the key's own fields are checked first, then the rest in
// file order of the fields (docs/runs-format.md).
func decodeLine(line []byte) (Record, error) {
	var w wireIn
	if err := jsonv2.Unmarshal(line, &w, decodeOptions()); err != nil {
		return Record{}, lineError(line, err)
	}
	var rec Record
	var err error
	if rec.Key, err = w.key(); err != nil {
		return rec, err
	}
	if err := w.body(&rec); err != nil {
		return rec, fmt.Errorf("run %s: %w", rec.Key, err)
	}
	return rec, rec.Validate()
}

// lineError says why the decoder refused line: encoding/json's words for
// malformed JSON (the messages of tenet's goldens, kept when the strict
// decoder replaced it), then the shape of the line, then the duplicate or
// unknown member the decoder met — after the run's key when it can be read
// and the member is not a duplicate at the top level.
func lineError(line []byte, err error) error {
	if !jsontext.Value(line).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
		var v json.RawMessage
		if err1 := json.Unmarshal(line, &v); err1 != nil {
			return fmt.Errorf("invalid JSON: %v", err1)
		}
		return fmt.Errorf("invalid JSON: %v", err)
	}
	if k := kind(line); k != "an object" {
		return fmt.Errorf("want a JSON object, got %s", k)
	}
	var msg string
	var se *jsontext.SyntacticError
	var me *jsonv2.SemanticError
	switch {
	case errors.As(err, &se) && errors.Is(se.Err, jsontext.ErrDuplicateName):
		msg = fmt.Sprintf("duplicate field %q", se.JSONPointer.LastToken())
		where := wherePath(se.JSONPointer.Parent())
		if where == "" {
			return errors.New(msg)
		}
		msg += " in " + where
	case errors.As(err, &me) && errors.Is(me.Err, jsonv2.ErrUnknownName):
		msg = fmt.Sprintf("unknown field %q (want %s)", me.JSONPointer.LastToken(), strings.Join(topFields[:], ", "))
	default:
		return fmt.Errorf("invalid JSON: %v", err)
	}
	var w wireIn
	if jsonv2.Unmarshal(line, &w, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) != nil {
		return errors.New(msg)
	}
	k, err := w.key()
	if err != nil {
		return err
	}
	return fmt.Errorf("run %s: %s", k, msg)
}

// wherePath renders a JSON pointer as messages name a place in a record:
// "labels", "audit[0]", "witnesses.invariants.x".
func wherePath(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// key decodes the run's key.
func (w *wireIn) key() (k Key, err error) {
	if k.Contract, _, err = stringField(w.Contract, "field contract", "a string"); err != nil {
		return k, err
	}
	for _, f := range []struct {
		name string
		raw  jsontext.Value
		dst  *string
	}{{"condition", w.Condition, &k.Condition}, {"task", w.Task, &k.Task}} {
		s, ok, err := stringField(f.raw, "field "+f.name, "a non-empty string")
		switch {
		case err != nil:
			return k, err
		case !ok:
			return k, fmt.Errorf("missing field %s", f.name)
		case s == "":
			return k, fmt.Errorf("field %s is empty, want a non-empty string", f.name)
		}
		*f.dst = s
	}
	attack, ok, err := stringField(w.Attack, "field attack", "a string, or null for no attack named")
	if err != nil {
		return k, err
	}
	if ok && attack == "" {
		return k, errors.New("field attack is empty, want an attack name, or null for no attack named")
	}
	k.Attack = attack
	goal, ok, err := stringField(w.Goal, "field goal", "a string, or null for a benign run")
	if err != nil {
		return k, err
	}
	if ok && goal == "" {
		return k, errors.New("field goal is empty, want a goal id, or null for a benign run")
	}
	k.Goal = goal
	if k.Attempt, err = countField(w.Attempt, "field attempt", MaxAttempt, "runs.MaxAttempt"); err != nil {
		return k, err
	}
	k.Repetition, err = countField(w.Repetition, "field repetition", MaxRepetition, "runs.MaxRepetition")
	return k, err
}

// body decodes everything but the key: labels and checks with their
// reasons, given labels, origin, bundle, budget and audit.
func (w *wireIn) body(rec *Record) error {
	switch k := kind(w.GoalTask); {
	case k == "a boolean":
		rec.GoalTask = isTrue(w.GoalTask)
	case k != "null" && w.GoalTask != nil:
		return fmt.Errorf("field goal_task is %s, want true or false", k)
	}
	if w.Labels == nil {
		return errors.New("missing field labels")
	}
	labels, err := members(w.Labels, "field labels", "an object")
	if err != nil {
		return err
	}
	nulls, present := map[string]bool{}, map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(labels)) {
		l := rec.Label(LabelName(name))
		if l == nil {
			return fmt.Errorf("unknown label %q (want %s)", name, joinNames(LabelNames()))
		}
		present[name] = true
		switch raw := labels[name]; kind(raw) {
		case "a boolean":
			*l = Bool(isTrue(raw))
		case "null":
			nulls[name] = true
		default:
			return fmt.Errorf("label %s is %s, want true, false, or null with a reason in unknown", name, kind(raw))
		}
	}
	rec.HasExposed = present[string(Exposed)]
	for _, g := range checkGroups {
		raw := w.Invariants
		if g == "failures" {
			raw = w.Failures
		}
		if isNull(raw) {
			continue
		}
		checks, err := members(raw, "field "+g, "an object of true, false or null by name")
		if err != nil {
			return err
		}
		m := map[string]Label{}
		for _, n := range slices.Sorted(maps.Keys(checks)) {
			switch raw := checks[n]; {
			case n == "":
				return fmt.Errorf("field %s has an empty name", g)
			case kind(raw) == "a boolean":
				m[n] = Bool(isTrue(raw))
			case kind(raw) == "null":
				nulls[g+"."+n] = true
				m[n] = Unknown("") // the reason comes from unknown
			default:
				return fmt.Errorf("%s.%s is %s, want true, false, or null with a reason in unknown", g, n, kind(raw))
			}
			present[g+"."+n] = true
		}
		// An empty object says what an absent field says (no names), and
		// reads as it does, so that a record survives Write and Read.
		if len(m) > 0 {
			*rec.group(g) = m
		}
	}
	if err := w.witnesses(rec); err != nil {
		return err
	}
	if err := w.reasons(rec, nulls, present); err != nil {
		return err
	}
	if err := w.given(rec); err != nil {
		return err
	}
	if err := w.origin(rec); err != nil {
		return err
	}
	if rec.Bundle, _, err = stringField(w.Bundle, "field bundle", "a string"); err != nil {
		return err
	}
	if !isNull(w.Budget) {
		if rec.AttemptBudget, err = countField(w.Budget, "field attempt_budget", 0, ""); err != nil {
			return err
		}
	}
	g, ok, err := stringField(w.Grant, "field grant", "the name of the grant the calls were audited against")
	if err != nil {
		return err
	}
	if ok && g == "" {
		return errors.New("field grant is empty, want the name of the grant the calls were audited against")
	}
	rec.Grant = g
	if err := w.audit(rec); err != nil {
		return err
	}
	return w.excerpt(rec)
}

// witnesses decodes the witnesses of violated invariants.
func (w *wireIn) witnesses(rec *Record) error {
	if isNull(w.Witnesses) {
		return nil
	}
	ws, err := members(w.Witnesses, "field witnesses", "an object of step → item by invariant")
	if err != nil {
		return err
	}
	rec.Witnesses = map[string]map[string]string{}
	for _, wn := range slices.Sorted(maps.Keys(ws)) {
		name, ok := strings.CutPrefix(wn, "invariants.")
		if !ok || rec.Invariants == nil {
			return fmt.Errorf("witnesses.%s: want invariants.NAME of an invariant in field invariants", wn)
		}
		if l, ok := rec.Invariants[name]; !ok || !l.Known || l.Value {
			return fmt.Errorf("witnesses.%s: the invariant is not recorded as violated", wn)
		}
		steps, err := members(ws[wn], "witnesses."+wn, "an object of step → \"event:N\" or \"call:N\"")
		if err != nil {
			return err
		}
		items := make(map[string]string, len(steps))
		for _, step := range slices.Sorted(maps.Keys(steps)) {
			it, ok, _ := stringField(steps[step], "", "")
			if !ok || !validItem(it) {
				v := kind(steps[step])
				if ok {
					v = strconv.Quote(it)
				}
				return fmt.Errorf("witnesses.%s.%s is %s, want \"event:N\" or \"call:N\"", wn, step, v)
			}
			items[step] = it
		}
		rec.Witnesses[wn] = items
	}
	return nil
}

// reasons decodes unknown, the reasons of the null labels and checks
// (nulls), and gives each its reason: a null without one, and a reason for
// anything but a null, are errors. present holds the labels and checks the
// record has.
func (w *wireIn) reasons(rec *Record, nulls, present map[string]bool) error {
	reasons := map[string]string{}
	if !isNull(w.Unknown) {
		us, err := members(w.Unknown, "field unknown", "an object of reasons by label")
		if err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(us)) {
			if rec.Label(LabelName(name)) == nil && !present[name] {
				return fmt.Errorf("unknown label %q in field unknown (want %s, or invariants.NAME or failures.NAME of a null check)", name, joinNames(LabelNames()))
			}
			raw := us[name]
			if isNull(raw) {
				continue
			}
			s, _, err := stringField(raw, "unknown."+name, "the reason the label is unknown (a non-empty string)")
			if err != nil {
				return err
			}
			if s == "" {
				return fmt.Errorf("unknown.%s is empty, want the reason the label is unknown", name)
			}
			reasons[name] = s
		}
	}
	for _, name := range LabelNames() {
		n := string(name)
		reason, hasReason := reasons[n]
		switch {
		case nulls[n] && !hasReason:
			return fmt.Errorf("label %s is null without a reason in unknown", name)
		case nulls[n]:
			*rec.Label(name) = Unknown(reason)
		case hasReason && !present[n]:
			return fmt.Errorf("unknown.%s gives a reason but label %s is absent", name, name)
		case hasReason:
			return fmt.Errorf("unknown.%s gives a reason but label %s is %s, not null", name, name, rec.Label(name))
		}
	}
	for _, g := range checkGroups {
		m := *rec.group(g)
		for _, n := range slices.Sorted(maps.Keys(m)) {
			key := g + "." + n
			reason, hasReason := reasons[key]
			switch {
			case nulls[key] && !hasReason:
				return fmt.Errorf("%s is null without a reason in unknown", key)
			case nulls[key]:
				m[n] = Unknown(reason)
			case hasReason:
				return fmt.Errorf("unknown.%s gives a reason but %s is %s, not null", key, key, m[n])
			}
		}
	}
	return nil
}

// given decodes the labels another harness gave.
func (w *wireIn) given(rec *Record) error {
	if isNull(w.Given) {
		return nil
	}
	gs, err := members(w.Given, "field given", "an object of labels")
	if err != nil {
		return err
	}
	if err := unknownField(gs, givenNames(), "given"); err != nil {
		return err
	}
	for _, name := range givenNames() {
		switch raw := gs[string(name)]; kind(raw) {
		case "empty", "null":
		case "a boolean":
			v := isTrue(raw)
			*rec.Given.given(name) = &v
		default:
			return fmt.Errorf("given.%s is %s, want true, false, or null (not given)", name, kind(raw))
		}
	}
	return nil
}

// origin decodes where the transcript came from.
func (w *wireIn) origin(rec *Record) error {
	if isNull(w.Origin) {
		return nil
	}
	of, err := members(w.Origin, "field origin", "an object with file and line")
	if err != nil {
		return err
	}
	if err := unknownField(of, []string{"file", "line"}, "origin"); err != nil {
		return err
	}
	file, ok, err := stringField(of["file"], "origin.file", "a non-empty string")
	if err != nil {
		return err
	}
	if !ok || file == "" {
		return errors.New("origin.file is missing or empty")
	}
	rec.OriginFile = file
	if !isNull(of["line"]) {
		rec.OriginLine, err = countField(of["line"], "origin.line", 0, "")
	}
	return err
}

// audit decodes the authorization audit, entry by entry. The rules between
// fields (decisions, details, parents) are Validate's.
func (w *wireIn) audit(rec *Record) error {
	if isNull(w.Audit) {
		return nil
	}
	if kind(w.Audit) != "an array" {
		return fmt.Errorf("field audit is %s, want an array of {call, tool, decision, ...} objects, one per call", kind(w.Audit))
	}
	var items []jsontext.Value
	if err := jsonv2.Unmarshal(w.Audit, &items, jsontext.AllowInvalidUTF8(true)); err != nil {
		return err
	}
	for i, it := range items {
		e, err := auditEntry(it, fmt.Sprintf("audit[%d]", i))
		if err != nil {
			return err
		}
		rec.Audit = append(rec.Audit, e)
	}
	return nil
}

// auditEntry decodes one member of audit; where names it in errors.
func auditEntry(raw jsontext.Value, where string) (AuditEntry, error) {
	e := AuditEntry{Parent: -1}
	fs, err := members(raw, where, "an object with call, tool and decision")
	if err != nil {
		return e, err
	}
	if err := unknownField(fs, auditFields[:], where); err != nil {
		return e, err
	}
	if isNull(fs["call"]) {
		return e, fmt.Errorf("%s: missing field call", where)
	}
	if e.Call, err = indexValue(fs["call"]); err != nil || e.Call < 0 {
		return e, fmt.Errorf("%s.call is %s, want an integer ≥ 0", where, describe(fs["call"]))
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"tool", &e.Tool}, {"decision", &e.Decision}} {
		var ok bool
		if *f.dst, ok, err = stringField(fs[f.name], where+"."+f.name, "a string"); err != nil {
			return e, err
		}
		if !ok {
			return e, fmt.Errorf("%s: missing field %s", where, f.name)
		}
	}
	if e.Detail, _, err = stringField(fs["detail"], where+".detail", "a string"); err != nil {
		return e, err
	}
	if e.Mismatch, _, err = stringField(fs["mismatch"], where+".mismatch", "a string"); err != nil {
		return e, err
	}
	if raw := fs["parent"]; !isNull(raw) {
		if e.Parent, err = indexValue(raw); err != nil || e.Parent < -1 {
			return e, fmt.Errorf("%s.parent is %s, want the call index (an integer ≥ 0) of the call that holds this one, or -1", where, describe(raw))
		}
	}
	if raw := fs["hazard"]; !isNull(raw) {
		if kind(raw) != "a boolean" {
			return e, fmt.Errorf("%s.hazard is %s, want true or false", where, kind(raw))
		}
		e.Hazard = isTrue(raw)
	}
	return e, nil
}

// members decodes a JSON object into its members by name; any other value
// is the error "WHAT is KIND, want WANT". The line was checked whole
// (duplicate names, syntax) before.
func members(raw jsontext.Value, what, want string) (map[string]jsontext.Value, error) {
	if k := kind(raw); k != "an object" {
		return nil, fmt.Errorf("%s is %s, want %s", what, k, want)
	}
	var m map[string]jsontext.Value
	if err := jsonv2.Unmarshal(raw, &m, jsontext.AllowInvalidUTF8(true)); err != nil {
		return nil, err
	}
	return m, nil
}

// kind names the JSON type of raw for messages: "a string", "a number",
// "a boolean", "an object", "an array", "null", or "empty" (absent).
func kind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// isNull reports whether raw is absent or null: for an optional field the
// same thing.
func isNull(raw jsontext.Value) bool { k := kind(raw); return k == "null" || k == "empty" }

func isTrue(raw jsontext.Value) bool { return string(bytes.TrimSpace(raw)) == "true" }

// unknownField returns the error for the first member of fs (by name) not
// in allowed; where names the object.
func unknownField[S ~string](fs map[string]jsontext.Value, allowed []S, where string) error {
	for _, name := range slices.Sorted(maps.Keys(fs)) {
		if !slices.Contains(allowed, S(name)) {
			return fmt.Errorf("unknown field %q in %s (want %s)", name, where, joinNames(allowed))
		}
	}
	return nil
}

// stringField decodes an optional string; null or absent is not there
// (false). what names the field in errors ("field task", "origin.file"),
// want says what it should be.
func stringField(raw jsontext.Value, what, want string) (string, bool, error) {
	if isNull(raw) {
		return "", false, nil
	}
	if k := kind(raw); k != "a string" {
		return "", false, fmt.Errorf("%s is %s, want %s", what, k, want)
	}
	var s string
	if err := jsonv2.Unmarshal(raw, &s, jsontext.AllowInvalidUTF8(true)); err != nil {
		return "", false, err
	}
	return s, true, nil
}

// countField decodes an optional integer ≥ 1 (default 1); null counts as
// absent. what names the field in errors. Only digits are an integer here
// (1e2 and 1.0 are refused), but a number of any form above the field's
// maximum (limit, named by limitName; 0: none but int's) is refused as
// above it, as Validate refuses 4000000000: 1e16, 1e300 and 20 nines read
// "above the maximum of 1000000", not "want an integer".
func countField(raw jsontext.Value, what string, limit int, limitName string) (int, error) {
	if isNull(raw) {
		return 1, nil
	}
	if k := kind(raw); k != "a number" {
		return 0, fmt.Errorf("%s is %s, want an integer ≥ 1", what, k)
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil || n < 1 {
		// ParseFloat reads any JSON number: one beyond float64 is ±Inf
		// with ErrRange, still ordered right.
		if f, _ := strconv.ParseFloat(string(raw), 64); limit > 0 && f > float64(limit) {
			return 0, fmt.Errorf("%s is %s, above the maximum of %d (%s)", what, raw, limit, limitName)
		}
		return 0, fmt.Errorf("%s is %s, want an integer ≥ 1", what, raw)
	}
	return n, nil
}

// indexValue decodes an integer written as such (no fraction, no exponent).
func indexValue(raw jsontext.Value) (int, error) {
	if kind(raw) != "a number" {
		return 0, errors.New("not a number")
	}
	return strconv.Atoi(string(bytes.TrimSpace(raw)))
}

// describe renders a JSON value for messages: a number as written, other
// values by kind.
func describe(raw jsontext.Value) string {
	if kind(raw) == "a number" {
		return string(bytes.TrimSpace(raw))
	}
	return kind(raw)
}

// validItem reports whether s names an item: "event:N" or "call:N".
func validItem(s string) bool {
	_, n, ok := strings.Cut(s, ":")
	if !ok || !(strings.HasPrefix(s, "event:") || strings.HasPrefix(s, "call:")) {
		return false
	}
	i, err := strconv.Atoi(n)
	return err == nil && i >= 0 && strconv.Itoa(i) == n
}
