package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The runs file (docs/runs-format.md) is JSONL: one JSON object per line,
//
//	{"contract":"agentdojo-banking","condition":"gpt-4o","task":"user_task_0",
//	 "goal":"injection_task_3","attempt":1,"repetition":1,
//	 "labels":{"utility":true,"attack_success":false,"side_effect":false,"exposed":true},
//	 "unknown":{"exposed":"criterion error: ..."},
//	 "given":{"utility":true,"attack_success":false,"side_effect":false},
//	 "origin":{"file":"traces/x.jsonl","line":17},
//	 "bundle":"sha256:...","attempt_budget":3,"grant":"default",
//	 "audit":[{"call":0,"tool":"read_fixture","decision":"authorized"}]}
//
// Write emits the fields in that order, leaving out contract, unknown, given,
// origin, bundle, attempt_budget, grant and audit when empty; Read accepts
// any order.

// labelNames lists the labels in file order.
var labelNames = []string{"utility", "attack_success", "side_effect", "exposed"}

var topFields = []string{"contract", "condition", "task", "goal", "attempt", "repetition", "labels", "invariants", "failures", "witnesses", "unknown", "given", "origin", "bundle", "attempt_budget", "grant", "audit"}

// auditFields lists the members of an audit entry in file order.
var auditFields = []string{"call", "tool", "decision", "detail", "parent", "hazard", "mismatch"}

// checkGroups are the named-check maps of a record: per invariant, whether
// it held; per failure class, whether the run belongs to it. Their unknown
// reasons are keyed "invariants.NAME" and "failures.NAME" in unknown.
var checkGroups = []string{"invariants", "failures"}

func (r *Record) group(name string) *map[string]Label {
	if name == "invariants" {
		return &r.Invariants
	}
	return &r.Failures
}

var givenNames = []string{"utility", "attack_success", "side_effect"}

// maxErrors bounds the errors Read and ReadFiles collect before they stop.
const maxErrors = 20

// ---------------------------------------------------------------- validation

// Validate checks the rules a single record obeys (DESIGN §6,
// docs/runs-format.md): a non-empty condition and task; attempt and
// repetition ≥ 1; a benign run carries only the utility label (and given
// utility); an attacked run carries utility, attack_success and side_effect,
// and exposed when HasExposed; an unknown label has a reason; attack_success
// true implies side_effect true, for our labels and for given labels; the
// origin and bundle are well formed. Errors read "run KEY: reason".
func (r Record) Validate() error {
	if err := r.validate(); err != nil {
		return fmt.Errorf("run %s: %s", r.Key, err)
	}
	return nil
}

func (r Record) validate() error {
	k := r.Key
	switch {
	case k.Condition == "":
		return errors.New("condition is empty")
	case k.Task == "":
		return errors.New("task is empty")
	case k.Attempt < 1:
		return fmt.Errorf("attempt is %d, want an integer ≥ 1", k.Attempt)
	case k.Repetition < 1:
		return fmt.Errorf("repetition is %d, want an integer ≥ 1", k.Repetition)
	case k.Attempt > MaxAttempt:
		return fmt.Errorf("attempt is %d, above the maximum of %d (runs.MaxAttempt)", k.Attempt, MaxAttempt)
	case k.Repetition > MaxRepetition:
		return fmt.Errorf("repetition is %d, above the maximum of %d (runs.MaxRepetition)", k.Repetition, MaxRepetition)
	case r.AttemptBudget < 0:
		return fmt.Errorf("attempt_budget is %d, want an integer ≥ 1 (or 0: none)", r.AttemptBudget)
	case r.AttemptBudget > 0 && k.Attempt > r.AttemptBudget:
		return fmt.Errorf("attempt %d is above attempt_budget %d (the threat model allows attempts 1..%d)", k.Attempt, r.AttemptBudget, r.AttemptBudget)
	}
	for _, name := range labelNames {
		l := r.label(name)
		if l.Known && l.Reason != "" {
			return fmt.Errorf("label %s is %s but has an unknown-reason %q", name, l.String(), l.Reason)
		}
	}
	if !r.HasExposed && !r.Exposed.Absent() {
		return errors.New("label exposed is set but HasExposed is false")
	}
	if r.Utility.Absent() {
		return errors.New("missing label utility")
	}
	if !k.Attacked() {
		for _, name := range labelNames[1:] {
			present := !r.label(name).Absent()
			if name == "exposed" {
				present = r.HasExposed
			}
			if present {
				return fmt.Errorf("label %s on a benign run (goal is null): a benign run carries only utility", name)
			}
		}
		if r.Given.AttackSuccess != nil {
			return errors.New("given.attack_success on a benign run (goal is null): a benign run carries only utility")
		}
		if r.Given.SideEffect != nil {
			return errors.New("given.side_effect on a benign run (goal is null): a benign run carries only utility")
		}
	} else {
		for _, name := range labelNames[1:3] {
			if r.label(name).Absent() {
				return fmt.Errorf("missing label %s (an attacked run needs utility, attack_success and side_effect)", name)
			}
		}
		if r.HasExposed && r.Exposed.Absent() {
			return errors.New("missing label exposed (HasExposed is set)")
		}
		if r.AttackSuccess.Known && r.AttackSuccess.Value && r.SideEffect.Known && !r.SideEffect.Value {
			return errors.New("attack_success is true but side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)")
		}
		g := r.Given
		if g.AttackSuccess != nil && *g.AttackSuccess && g.SideEffect != nil && !*g.SideEffect {
			return errors.New("given attack_success is true but given side_effect is false (side_effect ≥ attack_success: a successful attack is a side effect)")
		}
	}
	if r.OriginLine < 0 {
		return fmt.Errorf("origin line is %d, want ≥ 1", r.OriginLine)
	}
	if r.OriginLine > 0 && r.OriginFile == "" {
		return errors.New("origin has a line but no file")
	}
	if r.Bundle != "" && !validBundle(r.Bundle) {
		return fmt.Errorf("bundle is %q, want sha256:<64 lowercase hex digits>", r.Bundle)
	}
	if err := validateAudit(r.Grant, r.Audit); err != nil {
		return err
	}
	return validateCalls(r)
}

// validateAudit checks the authorization audit of a run: an audit needs a
// grant; every entry has a call index ≥ 0 audited once, a decision of
// Decisions, a detail unless authorized, a parent that is -1 or another
// audited call (no cycles), and a hazard only on a nested call.
func validateAudit(grant string, audit []AuditEntry) error {
	if len(audit) > 0 && grant == "" {
		return errors.New("audit without a grant (grant names the grant the calls were audited against)")
	}
	index := make(map[int]int, len(audit)) // call → entry
	for i, e := range audit {
		switch {
		case e.Call < 0:
			return fmt.Errorf("audit[%d]: call is %d, want an index ≥ 0", i, e.Call)
		case !slices.Contains(Decisions, e.Decision):
			return fmt.Errorf("audit[%d] (call %d): decision is %q, want one of %s", i, e.Call, e.Decision, strings.Join(Decisions, ", "))
		case e.Decision != Authorized && e.Detail == "":
			return fmt.Errorf("audit[%d] (call %d): decision %s has no detail (every decision but authorized says why)", i, e.Call, e.Decision)
		case e.Parent < -1:
			return fmt.Errorf("audit[%d] (call %d): parent is %d, want the index of the call that holds it, or -1", i, e.Call, e.Parent)
		case e.Parent == e.Call:
			return fmt.Errorf("audit[%d] (call %d): the call is its own parent", i, e.Call)
		case e.Hazard && e.Parent == -1:
			return fmt.Errorf("audit[%d] (call %d): hazard on a call that is not nested (parent -1)", i, e.Call)
		}
		if j, dup := index[e.Call]; dup {
			return fmt.Errorf("audit[%d]: call %d is audited twice (also audit[%d])", i, e.Call, j)
		}
		index[e.Call] = i
	}
	for i, e := range audit {
		if e.Parent < 0 {
			continue
		}
		if _, ok := index[e.Parent]; !ok {
			return fmt.Errorf("audit[%d] (call %d): parent call %d is not in the audit", i, e.Call, e.Parent)
		}
		p := e.Parent
		for steps := 0; p >= 0; steps++ {
			if steps == len(audit) {
				return fmt.Errorf("audit[%d] (call %d): its chain of parents is a cycle", i, e.Call)
			}
			p = audit[index[p]].Parent
		}
	}
	return nil
}

func validBundle(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// label returns the label called name (one of labelNames).
func (r *Record) label(name string) *Label {
	switch name {
	case "utility":
		return &r.Utility
	case "attack_success":
		return &r.AttackSuccess
	case "side_effect":
		return &r.SideEffect
	case "exposed":
		return &r.Exposed
	}
	panic("runs: unknown label " + name)
}

// located is a record with where it was read from (file "" when it was not).
type located struct {
	rec  Record
	file string
	line int
}

func (l located) pos() string {
	if l.file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", l.file, l.line)
}

// at renders " at file:line", or "" when the record was not read from a file.
func (l located) at() string {
	if l.file == "" {
		return ""
	}
	return " at " + l.pos()
}

// Check validates every record (Record.Validate) and the rules between
// records: no two records share a key, and within one (contract, condition)
// either every attacked run carries the exposed label or none does. It
// returns all errors joined (at most 20), in key order.
func Check(recs []Record) error {
	ls := make([]located, len(recs))
	for i, r := range recs {
		ls[i] = located{rec: r}
	}
	sortLocated(ls)
	var errs []error
	for _, l := range ls {
		if err := l.rec.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, crossCheck(ls)...)
	if len(errs) > maxErrors {
		errs = append(errs[:maxErrors], fmt.Errorf("too many errors (%d), showing the first %d", len(errs), maxErrors))
	}
	return errors.Join(errs...)
}

// sortLocated sorts by key, stably: among equal keys the record read first
// stays first, so a duplicate names the earlier line as the first.
func sortLocated(ls []located) {
	slices.SortStableFunc(ls, func(a, b located) int { return a.rec.Key.Compare(b.rec.Key) })
}

// crossCheck reports duplicate keys and inconsistent exposure labels. ls is
// sorted by key (and by position among equal keys).
func crossCheck(ls []located) []error {
	var errs []error
	for i := 1; i < len(ls); i++ {
		if ls[i].rec.Key == ls[i-1].rec.Key {
			first := ls[i-1]
			for j := i - 1; j > 0 && ls[j-1].rec.Key == first.rec.Key; j-- {
				first = ls[j-1]
			}
			errs = append(errs, duplicateError(ls[i], first))
		}
	}
	// Exposure: per (contract, condition), over attacked runs.
	for i := 0; i < len(ls); {
		j := i
		var with, without []located
		for ; j < len(ls) && ls[j].rec.Key.Contract == ls[i].rec.Key.Contract && ls[j].rec.Key.Condition == ls[i].rec.Key.Condition; j++ {
			r := ls[j].rec
			if !r.Key.Attacked() {
				continue
			}
			if r.HasExposed {
				with = append(with, ls[j])
			} else {
				without = append(without, ls[j])
			}
		}
		if len(with) > 0 && len(without) > 0 {
			errs = append(errs, fmt.Errorf("condition %s: label exposed is present on %d of %d attacked runs (e.g. run %s%s) and absent on %d (e.g. run %s%s); either every attacked run of a condition carries it or none",
				ls[i].rec.Key.ConditionName(), len(with), len(with)+len(without), with[0].rec.Key, with[0].at(),
				len(without), without[0].rec.Key, without[0].at()))
		}
		i = j
	}
	return errs
}

func duplicateError(dup, first located) error {
	if dup.file == "" {
		return fmt.Errorf("duplicate run %s", dup.rec.Key)
	}
	return fmt.Errorf("%s: duplicate run %s (first at %s)", dup.pos(), dup.rec.Key, first.pos())
}

// ---------------------------------------------------------------- writing

type wireRecord struct {
	Contract   string                       `json:"contract,omitempty"`
	Condition  string                       `json:"condition"`
	Task       string                       `json:"task"`
	Goal       *string                      `json:"goal"`
	Attempt    int                          `json:"attempt"`
	Repetition int                          `json:"repetition"`
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

type wireLabels struct {
	Utility       json.RawMessage `json:"utility,omitempty"`
	AttackSuccess json.RawMessage `json:"attack_success,omitempty"`
	SideEffect    json.RawMessage `json:"side_effect,omitempty"`
	Exposed       json.RawMessage `json:"exposed,omitempty"`
}

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

type wireGiven struct {
	Utility       *bool `json:"utility,omitempty"`
	AttackSuccess *bool `json:"attack_success,omitempty"`
	SideEffect    *bool `json:"side_effect,omitempty"`
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
		Task:       r.Key.Task,
		Attempt:    r.Key.Attempt,
		Repetition: r.Key.Repetition,
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
	w.Labels.Utility = reason("utility")(wireLabel(r.Utility, true))
	w.Labels.AttackSuccess = reason("attack_success")(wireLabel(r.AttackSuccess, !r.AttackSuccess.Absent()))
	w.Labels.SideEffect = reason("side_effect")(wireLabel(r.SideEffect, !r.SideEffect.Absent()))
	w.Labels.Exposed = reason("exposed")(wireLabel(r.Exposed, r.HasExposed))
	for _, g := range checkGroups {
		m := *r.group(g)
		if len(m) == 0 {
			continue
		}
		wc := wireChecks{}
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
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
	if g := r.Given; g.Utility != nil || g.AttackSuccess != nil || g.SideEffect != nil {
		w.Given = &wireGiven{Utility: g.Utility, AttackSuccess: g.AttackSuccess, SideEffect: g.SideEffect}
	}
	if r.OriginFile != "" {
		w.Origin = &wireOrigin{File: r.OriginFile, Line: r.OriginLine}
	}
	return w
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
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, r := range sorted {
		if err := enc.Encode(toWire(r)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ---------------------------------------------------------------- reading

// DefaultMaxRecordBytes is the longest record (line) Read and ReadFiles
// accept: 64 MiB, as for transcripts. ReadOptions.MaxRecordBytes changes it.
const DefaultMaxRecordBytes = 64 << 20

// maxErrorBytes bounds one error message: an error that quotes a field name,
// a number or a run key from the file is cut, so that a hostile line cannot
// make an error of megabytes.
const maxErrorBytes = 1 << 10

// ReadOptions tune ReadFilesWith.
type ReadOptions struct {
	// MaxRecordBytes bounds one record (a line without its line ending); a
	// longer one is an error at its line, and its bytes are skipped without
	// being kept. Zero or negative means DefaultMaxRecordBytes.
	MaxRecordBytes int
}

// Read reads a runs file; file names it in errors. It reads r line by line
// (blank lines are skipped, a UTF-8 byte-order mark and "\r\n" endings are
// accepted; a line longer than DefaultMaxRecordBytes is an error) and
// returns the records sorted by key.
//
// Errors read "file:line: reason", or "file:line: run KEY: reason" once the
// line's key is known; one longer than 1 KiB is cut. Read reports at most
// one error per line but keeps going, and returns every error joined with
// errors.Join (after 20 errors it stops reading and says so); on any error
// it returns no records. After the lines it runs the checks between records
// (duplicate keys, naming both lines, and exposure consistency).
func Read(file string, r io.Reader) ([]Record, error) {
	rd := reader{max: DefaultMaxRecordBytes}
	rd.read(file, r)
	return rd.finish()
}

// ReadFiles reads several runs files as one: duplicate keys and exposure
// consistency are checked across files. It returns the records of all files
// sorted by key, or every error (at most 20) joined.
func ReadFiles(paths ...string) ([]Record, error) {
	return ReadFilesWith(ReadOptions{}, paths...)
}

// ReadFilesWith is ReadFiles with options.
func ReadFilesWith(opt ReadOptions, paths ...string) ([]Record, error) {
	recs, _, err := ReadFilesAt(opt, paths...)
	return recs, err
}

// ReadFilesAt is ReadFilesWith that also returns where each record was
// read: at[i] is the file and line of recs[i].
func ReadFilesAt(opt ReadOptions, paths ...string) (recs []Record, at []Pos, err error) {
	rd := reader{max: opt.MaxRecordBytes}
	if rd.max <= 0 {
		rd.max = DefaultMaxRecordBytes
	}
	for _, p := range paths {
		if rd.stopped {
			break
		}
		f, err := os.Open(p)
		if err != nil {
			rd.add(err)
			rd.unreadable++
			continue
		}
		rd.read(p, f)
		f.Close()
	}
	if recs, err = rd.finish(); err != nil {
		return nil, nil, err
	}
	// finish sorted rd.recs in the order of recs.
	at = make([]Pos, len(rd.recs))
	for i, l := range rd.recs {
		at[i] = Pos{File: l.file, Line: l.line}
	}
	return recs, at, nil
}

// Pos is where a record was read: a runs file and a line (from 1).
type Pos struct {
	File string
	Line int
}

// String renders file:line.
func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

type reader struct {
	recs       []located
	errs       []error
	stopped    bool
	max        int // longest record accepted
	unreadable int // files that could not be opened, among errs
}

// add records an error; the one after maxErrors stops the reading instead.
func (rd *reader) add(err error) {
	if len(rd.errs) == maxErrors {
		rd.stopped = true
		return
	}
	rd.errs = append(rd.errs, clip(err))
}

// ReadError is the error of Read, ReadFiles and ReadFilesWith: its text is
// the errors, one a line, as errors.Join writes them, and it counts them so
// that a command can close the list as tenet eval does ("tenet report: 3
// bad records; nothing written").
type ReadError struct {
	Errs []error // as printed: at most maxErrors, then a line that says more were left out
	// Bad counts the bad records (and duplicate runs), also those left
	// out, and Unreadable the files that could not be opened; when
	// Stopped, reading stopped after Bad+Unreadable errors and there are
	// more.
	Bad, Unreadable int
	Stopped         bool
}

func (e *ReadError) Error() string   { return errors.Join(e.Errs...).Error() }
func (e *ReadError) Unwrap() []error { return e.Errs }

// clip cuts an error message longer than maxErrorBytes.
func clip(err error) error {
	msg := err.Error()
	if len(msg) <= maxErrorBytes {
		return err
	}
	cut := maxErrorBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Errorf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
}

func (rd *reader) read(file string, r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		if rd.stopped {
			return
		}
		line, tooLong, err := readLine(br, rd.max)
		if tooLong {
			rd.add(fmt.Errorf("%s:%d: record longer than the limit of %d bytes (raise it with --max-record-bytes)", file, n, rd.max))
		} else if len(line) > 0 {
			if n == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			}
			line = bytes.TrimSpace(line)
			if len(line) > 0 {
				rec, perr := parseRecord(line)
				if perr != nil {
					rd.add(fmt.Errorf("%s:%d: %w", file, n, perr))
				} else {
					rd.recs = append(rd.recs, located{rec: rec, file: file, line: n})
				}
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			rd.add(fmt.Errorf("%s:%d: %w", file, n, err))
			return
		}
	}
}

// readLine reads one line, its "\n" included, as bufio.Reader.ReadBytes
// does, but keeps at most max bytes of it (a "\r\n" ending does not
// count): a longer line is read to its end and dropped, and tooLong is
// set. err is io.EOF at the end of the input, with the last line, if any.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			content := len(line)
			if content > 0 && line[content-1] == '\n' {
				content--
				if content > 0 && line[content-1] == '\r' {
					content--
				}
			} else if content > 0 && line[content-1] == '\r' && errors.Is(err, bufio.ErrBufferFull) {
				content-- // perhaps a "\r\n" split across reads
			}
			if content > max {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

func (rd *reader) finish() ([]Record, error) {
	if rd.stopped {
		n := len(rd.errs)
		rd.errs = append(rd.errs, fmt.Errorf("too many errors, stopped reading after the first %d", maxErrors))
		return nil, &ReadError{Errs: rd.errs, Bad: n - rd.unreadable, Unreadable: rd.unreadable, Stopped: true}
	}
	sortLocated(rd.recs)
	rd.errs = append(rd.errs, crossCheck(rd.recs)...)
	if len(rd.errs) > 0 {
		n := len(rd.errs)
		if n > maxErrors {
			rd.errs = append(rd.errs[:maxErrors], fmt.Errorf("too many errors (%d), showing the first %d", n, maxErrors))
		}
		return nil, &ReadError{Errs: rd.errs, Bad: n - rd.unreadable, Unreadable: rd.unreadable}
	}
	recs := make([]Record, len(rd.recs))
	for i, l := range rd.recs {
		recs[i] = l.rec
	}
	return recs, nil
}

// field is one member of a JSON object, in source order.
type field struct {
	name string
	raw  json.RawMessage
}

// fields splits a JSON object (already known to be valid) into its members,
// rejecting duplicate names. where names the object in errors ("" for the
// top level).
func fields(raw json.RawMessage, where string) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var fs []field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if seen[name] {
			if where == "" {
				return nil, fmt.Errorf("duplicate field %q", name)
			}
			return nil, fmt.Errorf("duplicate field %q in %s", name, where)
		}
		seen[name] = true
		fs = append(fs, field{name, v})
	}
	return fs, nil
}

// kind names the JSON type of raw for messages: "a string", "a number",
// "a boolean", "an object", "an array" or "null".
func kind(raw json.RawMessage) string {
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

func isNull(raw json.RawMessage) bool { return kind(raw) == "null" }

func lookup(fs []field, name string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.name == name {
			return f.raw, true
		}
	}
	return nil, false
}

func unknownField(fs []field, allowed []string, where string) error {
	for _, f := range fs {
		if !contains(allowed, f.name) {
			if where == "" {
				return fmt.Errorf("unknown field %q (want %s)", f.name, strings.Join(allowed, ", "))
			}
			return fmt.Errorf("unknown field %q in %s (want %s)", f.name, where, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringField decodes an optional string field; null counts as absent.
// what names the field in errors ("field task", "origin.file").
func stringField(fs []field, name, what, want string) (string, bool, error) {
	raw, ok := lookup(fs, name)
	if !ok || isNull(raw) {
		return "", false, nil
	}
	if kind(raw) != "a string" {
		return "", false, fmt.Errorf("%s is %s, want %s", what, kind(raw), want)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
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
func countField(fs []field, name, what string, limit int, limitName string) (int, error) {
	raw, ok := lookup(fs, name)
	if !ok || isNull(raw) {
		return 1, nil
	}
	if kind(raw) != "a number" {
		return 0, fmt.Errorf("%s is %s, want an integer ≥ 1", what, kind(raw))
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

func parseRecord(line []byte) (Record, error) {
	var rec Record
	var raw json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return rec, fmt.Errorf("invalid JSON: %v", err)
	}
	if k := kind(raw); k != "an object" {
		return rec, fmt.Errorf("want a JSON object, got %s", k)
	}
	fs, err := fields(raw, "")
	if err != nil {
		return rec, err
	}
	// The key first, so that later errors can name the run.
	k := &rec.Key
	if k.Contract, _, err = stringField(fs, "contract", "field contract", "a string"); err != nil {
		return rec, err
	}
	var ok bool
	for _, f := range []struct {
		name string
		dst  *string
	}{{"condition", &k.Condition}, {"task", &k.Task}} {
		if *f.dst, ok, err = stringField(fs, f.name, "field "+f.name, "a non-empty string"); err != nil {
			return rec, err
		}
		if !ok {
			return rec, fmt.Errorf("missing field %s", f.name)
		}
		if *f.dst == "" {
			return rec, fmt.Errorf("field %s is empty, want a non-empty string", f.name)
		}
	}
	if k.Goal, ok, err = stringField(fs, "goal", "field goal", "a string, or null for a benign run"); err != nil {
		return rec, err
	}
	if ok && k.Goal == "" {
		return rec, errors.New("field goal is empty, want a goal id, or null for a benign run")
	}
	if k.Attempt, err = countField(fs, "attempt", "field attempt", MaxAttempt, "runs.MaxAttempt"); err != nil {
		return rec, err
	}
	if k.Repetition, err = countField(fs, "repetition", "field repetition", MaxRepetition, "runs.MaxRepetition"); err != nil {
		return rec, err
	}
	if err := parseBody(&rec, fs); err != nil {
		return rec, fmt.Errorf("run %s: %w", rec.Key, err)
	}
	return rec, rec.Validate()
}

// parseBody decodes everything but the key.
func parseBody(rec *Record, fs []field) error {
	if err := unknownField(fs, topFields, ""); err != nil {
		return err
	}
	// labels
	raw, ok := lookup(fs, "labels")
	if !ok {
		return errors.New("missing field labels")
	}
	if kind(raw) != "an object" {
		return fmt.Errorf("field labels is %s, want an object", kind(raw))
	}
	lfs, err := fields(raw, "labels")
	if err != nil {
		return err
	}
	nulls := map[string]bool{}
	present := map[string]bool{}
	for _, f := range lfs {
		if !contains(labelNames, f.name) {
			return fmt.Errorf("unknown label %q (want %s)", f.name, strings.Join(labelNames, ", "))
		}
		present[f.name] = true
		switch kind(f.raw) {
		case "a boolean":
			*rec.label(f.name) = Bool(bytes.Equal(bytes.TrimSpace(f.raw), []byte("true")))
		case "null":
			nulls[f.name] = true
		default:
			return fmt.Errorf("label %s is %s, want true, false, or null with a reason in unknown", f.name, kind(f.raw))
		}
	}
	rec.HasExposed = present["exposed"]
	// invariants, failures
	for _, g := range checkGroups {
		raw, ok := lookup(fs, g)
		if !ok || isNull(raw) {
			continue
		}
		if kind(raw) != "an object" {
			return fmt.Errorf("field %s is %s, want an object of true, false or null by name", g, kind(raw))
		}
		gfs, err := fields(raw, g)
		if err != nil {
			return err
		}
		m := map[string]Label{}
		for _, f := range gfs {
			if f.name == "" {
				return fmt.Errorf("field %s has an empty name", g)
			}
			switch kind(f.raw) {
			case "a boolean":
				m[f.name] = Bool(bytes.Equal(bytes.TrimSpace(f.raw), []byte("true")))
			case "null":
				nulls[g+"."+f.name] = true
				m[f.name] = Unknown("") // the reason comes from unknown
			default:
				return fmt.Errorf("%s.%s is %s, want true, false, or null with a reason in unknown", g, f.name, kind(f.raw))
			}
			present[g+"."+f.name] = true
		}
		// An empty object says what an absent field says (no names), and
		// reads as it does, so that a record survives Write and Read.
		if len(m) > 0 {
			*rec.group(g) = m
		}
	}
	// witnesses
	if raw, ok := lookup(fs, "witnesses"); ok && !isNull(raw) {
		if kind(raw) != "an object" {
			return fmt.Errorf("field witnesses is %s, want an object of step → item by invariant", kind(raw))
		}
		wfs, err := fields(raw, "witnesses")
		if err != nil {
			return err
		}
		rec.Witnesses = map[string]map[string]string{}
		for _, f := range wfs {
			name, ok := strings.CutPrefix(f.name, "invariants.")
			if !ok || rec.Invariants == nil {
				return fmt.Errorf("witnesses.%s: want invariants.NAME of an invariant in field invariants", f.name)
			}
			if l, ok := rec.Invariants[name]; !ok || !l.Known || l.Value {
				return fmt.Errorf("witnesses.%s: the invariant is not recorded as violated", f.name)
			}
			if kind(f.raw) != "an object" {
				return fmt.Errorf("witnesses.%s is %s, want an object of step → \"event:N\" or \"call:N\"", f.name, kind(f.raw))
			}
			var steps map[string]string
			if err := json.Unmarshal(f.raw, &steps); err != nil {
				return fmt.Errorf("witnesses.%s: %v", f.name, err)
			}
			for step, it := range steps {
				if !validItem(it) {
					return fmt.Errorf("witnesses.%s.%s is %q, want \"event:N\" or \"call:N\"", f.name, step, it)
				}
			}
			rec.Witnesses[f.name] = steps
		}
	}
	// unknown
	reasons := map[string]string{}
	if raw, ok := lookup(fs, "unknown"); ok && !isNull(raw) {
		if kind(raw) != "an object" {
			return fmt.Errorf("field unknown is %s, want an object of reasons by label", kind(raw))
		}
		ufs, err := fields(raw, "unknown")
		if err != nil {
			return err
		}
		for _, f := range ufs {
			if !contains(labelNames, f.name) && !present[f.name] {
				return fmt.Errorf("unknown label %q in field unknown (want %s, or invariants.NAME or failures.NAME of a null check)", f.name, strings.Join(labelNames, ", "))
			}
			if isNull(f.raw) {
				continue
			}
			if kind(f.raw) != "a string" {
				return fmt.Errorf("unknown.%s is %s, want the reason the label is unknown (a non-empty string)", f.name, kind(f.raw))
			}
			var s string
			if err := json.Unmarshal(f.raw, &s); err != nil {
				return err
			}
			if s == "" {
				return fmt.Errorf("unknown.%s is empty, want the reason the label is unknown", f.name)
			}
			reasons[f.name] = s
		}
	}
	for _, name := range labelNames {
		reason, hasReason := reasons[name]
		switch {
		case nulls[name] && !hasReason:
			return fmt.Errorf("label %s is null without a reason in unknown", name)
		case nulls[name]:
			*rec.label(name) = Unknown(reason)
		case hasReason && !present[name]:
			return fmt.Errorf("unknown.%s gives a reason but label %s is absent", name, name)
		case hasReason:
			return fmt.Errorf("unknown.%s gives a reason but label %s is %s, not null", name, name, rec.label(name))
		}
	}
	for _, g := range checkGroups {
		m := *rec.group(g)
		for n, l := range m {
			key := g + "." + n
			reason, hasReason := reasons[key]
			switch {
			case nulls[key] && !hasReason:
				return fmt.Errorf("%s is null without a reason in unknown", key)
			case nulls[key]:
				m[n] = Unknown(reason)
			case hasReason:
				return fmt.Errorf("unknown.%s gives a reason but %s is %s, not null", key, key, l)
			}
		}
	}
	// given
	if raw, ok := lookup(fs, "given"); ok && !isNull(raw) {
		if kind(raw) != "an object" {
			return fmt.Errorf("field given is %s, want an object of labels", kind(raw))
		}
		gfs, err := fields(raw, "given")
		if err != nil {
			return err
		}
		if err := unknownField(gfs, givenNames, "given"); err != nil {
			return err
		}
		for _, f := range gfs {
			var dst **bool
			switch f.name {
			case "utility":
				dst = &rec.Given.Utility
			case "attack_success":
				dst = &rec.Given.AttackSuccess
			case "side_effect":
				dst = &rec.Given.SideEffect
			}
			switch kind(f.raw) {
			case "null":
			case "a boolean":
				v := bytes.Equal(bytes.TrimSpace(f.raw), []byte("true"))
				*dst = &v
			default:
				return fmt.Errorf("given.%s is %s, want true, false, or null (not given)", f.name, kind(f.raw))
			}
		}
	}
	// origin
	if raw, ok := lookup(fs, "origin"); ok && !isNull(raw) {
		if kind(raw) != "an object" {
			return fmt.Errorf("field origin is %s, want an object with file and line", kind(raw))
		}
		ofs, err := fields(raw, "origin")
		if err != nil {
			return err
		}
		if err := unknownField(ofs, []string{"file", "line"}, "origin"); err != nil {
			return err
		}
		file, ok, err := stringField(ofs, "file", "origin.file", "a non-empty string")
		if err != nil {
			return err
		}
		if !ok || file == "" {
			return errors.New("origin.file is missing or empty")
		}
		rec.OriginFile = file
		if raw, ok := lookup(ofs, "line"); ok && !isNull(raw) {
			n, err := countField(ofs, "line", "origin.line", 0, "")
			if err != nil {
				return err
			}
			rec.OriginLine = n
		}
	}
	// bundle
	b, _, err := stringField(fs, "bundle", "field bundle", "a string")
	if err != nil {
		return err
	}
	rec.Bundle = b
	// attempt_budget
	if raw, ok := lookup(fs, "attempt_budget"); ok && !isNull(raw) {
		n, err := countField(fs, "attempt_budget", "field attempt_budget", 0, "")
		if err != nil {
			return err
		}
		rec.AttemptBudget = n
	}
	// grant, audit
	g, ok, err := stringField(fs, "grant", "field grant", "the name of the grant the calls were audited against")
	if err != nil {
		return err
	}
	if ok && g == "" {
		return errors.New("field grant is empty, want the name of the grant the calls were audited against")
	}
	rec.Grant = g
	if raw, ok := lookup(fs, "audit"); ok && !isNull(raw) {
		if kind(raw) != "an array" {
			return fmt.Errorf("field audit is %s, want an array of {call, tool, decision, ...} objects, one per call", kind(raw))
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return err
		}
		for i, it := range items {
			e, err := parseAuditEntry(it, fmt.Sprintf("audit[%d]", i))
			if err != nil {
				return err
			}
			rec.Audit = append(rec.Audit, e)
		}
	}
	return nil
}

// parseAuditEntry decodes one member of audit; where names it in errors.
// The rules between fields (decisions, details, parents) are Validate's.
func parseAuditEntry(raw json.RawMessage, where string) (AuditEntry, error) {
	e := AuditEntry{Parent: -1}
	if kind(raw) != "an object" {
		return e, fmt.Errorf("%s is %s, want an object with call, tool and decision", where, kind(raw))
	}
	fs, err := fields(raw, where)
	if err != nil {
		return e, err
	}
	if err := unknownField(fs, auditFields, where); err != nil {
		return e, err
	}
	raw, ok := lookup(fs, "call")
	if !ok || isNull(raw) {
		return e, fmt.Errorf("%s: missing field call", where)
	}
	if e.Call, err = indexValue(raw); err != nil || e.Call < 0 {
		return e, fmt.Errorf("%s.call is %s, want an integer ≥ 0", where, describe(raw))
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"tool", &e.Tool}, {"decision", &e.Decision}} {
		if *f.dst, ok, err = stringField(fs, f.name, where+"."+f.name, "a string"); err != nil {
			return e, err
		}
		if !ok {
			return e, fmt.Errorf("%s: missing field %s", where, f.name)
		}
	}
	if e.Detail, _, err = stringField(fs, "detail", where+".detail", "a string"); err != nil {
		return e, err
	}
	if e.Mismatch, _, err = stringField(fs, "mismatch", where+".mismatch", "a string"); err != nil {
		return e, err
	}
	if raw, ok := lookup(fs, "parent"); ok && !isNull(raw) {
		if e.Parent, err = indexValue(raw); err != nil || e.Parent < -1 {
			return e, fmt.Errorf("%s.parent is %s, want the call index (an integer ≥ 0) of the call that holds this one, or -1", where, describe(raw))
		}
	}
	if raw, ok := lookup(fs, "hazard"); ok && !isNull(raw) {
		if kind(raw) != "a boolean" {
			return e, fmt.Errorf("%s.hazard is %s, want true or false", where, kind(raw))
		}
		e.Hazard = bytes.Equal(bytes.TrimSpace(raw), []byte("true"))
	}
	return e, nil
}

// indexValue decodes an integer written as such (no fraction, no exponent).
func indexValue(raw json.RawMessage) (int, error) {
	if kind(raw) != "a number" {
		return 0, errors.New("not a number")
	}
	return strconv.Atoi(string(bytes.TrimSpace(raw)))
}

// describe renders a JSON value for messages: a number as written, other
// values by kind.
func describe(raw json.RawMessage) string {
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
