package decisionlog

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/internal/jsonl"
)

// VersionPrefix starts the "log" member of every version of the format:
// a file whose first line carries it is a decision log (Claims), read or
// refused as one, never as a runs file.
const VersionPrefix = "tenet-decisions/"

// NoOutcome is the reason of the utility label of every run read from a
// decision log: it is unknown, never false.
const NoOutcome = "a decision log records authorization decisions, not task outcomes"

// NoSessionTask is the task prefix of the run that holds the calls a
// grant decided outside any session: its task is NoSessionTask + grant.
const NoSessionTask = "no-session."

// maxErrors bounds the errors Read reports before it stops.
const maxErrors = 20

// Claims reports whether a file whose first line is first is a decision
// log: the line is a JSON object whose "log" member is a string starting
// with VersionPrefix.
func Claims(first []byte) bool {
	if !bytes.Contains(first, []byte(VersionPrefix)) {
		return false // most runs files: no decoding
	}
	var head struct {
		Log jsontext.Value `json:"log"`
	}
	if jsonv2.Unmarshal(first, &head) != nil {
		return false
	}
	var v string
	return jsonv2.Unmarshal(head.Log, &v) == nil && strings.HasPrefix(v, VersionPrefix)
}

// decodeOptions: every member named (an unknown one is an error, at any
// depth of the entry's own structure; a call's arguments are free), no
// duplicate member names (the decoder's default).
func decodeOptions() jsonv2.Options { return jsonv2.RejectUnknownMembers(true) }

// decodeEntry reads one line of a decision log.
func decodeEntry(line []byte) (Entry, error) {
	var head struct {
		Log *string `json:"log"`
	}
	if err := jsonv2.Unmarshal(line, &head); err != nil {
		if sy := (*jsontext.SyntacticError)(nil); !errors.As(err, &sy) {
			return Entry{}, fmt.Errorf("not a decision log line: a line is a JSON object, got %s", jsonKind(jsontext.Value(line).Kind()))
		}
		return Entry{}, fmt.Errorf("not a decision log line: %v", jsonError(err))
	}
	switch {
	case head.Log == nil:
		return Entry{}, fmt.Errorf(`no "log" member: every line of a decision log names its version (%q)`, Version)
	case *head.Log != Version:
		return Entry{}, fmt.Errorf("log version %q: this tenet reads %q (a decision log written by another tenet?)", runs.Printable(*head.Log), Version)
	}
	var e Entry
	if err := jsonv2.Unmarshal(line, &e, decodeOptions()); err != nil {
		return Entry{}, jsonError(err)
	}
	return e, check(e)
}

// check holds what every entry must say for its call to be read as a run.
func check(e Entry) error {
	if e.Listed != nil {
		return checkListed(e)
	}
	switch {
	case e.Origin != FromAuthorize && e.Origin != FromServer && e.Origin != FromGateway:
		return fmt.Errorf("origin %q: want %s, %s or %s", runs.Printable(string(e.Origin)), FromAuthorize, FromServer, FromGateway)
	case e.Contract == "":
		return errors.New("contract is empty: the run's contract")
	case e.Condition == "":
		return errors.New("condition is empty: the run's condition")
	case e.Seq < 1:
		return fmt.Errorf("seq is %d, want ≥ 1", e.Seq)
	case e.Decision == nil && e.Error == "":
		return errors.New("no decision and no error: an entry says how its call was decided, or why it was not")
	case e.Decision != nil && e.Allowed && !e.Decision.Allowed:
		return errors.New("allowed is true but the decision refuses the call")
	case e.Decision == nil && e.Allowed:
		return errors.New("allowed is true but no decision was made")
	}
	return nil
}

// checkListed holds what a tools/list check's line (tenet gateway) must
// say: it decides no call, so it has none, no seq and no decision.
func checkListed(e Entry) error {
	switch {
	case e.Origin != FromGateway:
		return fmt.Errorf("origin %q: a listed line is written by %s only", runs.Printable(string(e.Origin)), FromGateway)
	case e.Contract == "":
		return errors.New("contract is empty: the contract the tools were checked against")
	case e.Seq != 0 || e.Decision != nil || e.Allowed || e.Call.Tool != "" || e.Call.ID != "" || e.Call.Arguments != nil:
		return errors.New("a listed line (a tools/list check) decides no call: it has no call, seq, decision or allowed")
	case len(e.Listed.Undeclared) == 0 && len(e.Listed.Drift) == 0:
		return errors.New("listed: neither undeclared tools nor drift: a listed line reports one or the other")
	}
	return nil
}

// jsonError is a decoding error without the decoder's Go type names.
func jsonError(err error) error {
	var se *jsonv2.SemanticError
	if errors.As(err, &se) {
		where := string(se.JSONPointer)
		if errors.Is(err, jsonv2.ErrUnknownName) {
			return fmt.Errorf("unknown member %q (at %s): %s has no such member", runs.Printable(se.JSONPointer.LastToken()), where, Version)
		}
		if where == "" {
			where = "the entry"
		}
		if se.Err != nil {
			return fmt.Errorf("%s: %v", where, se.Err)
		}
		return fmt.Errorf("%s: want %s, got %s", where, goKind(se.GoType), jsonKind(se.JSONKind))
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		return fmt.Errorf("invalid JSON (offset %d): %v", sy.ByteOffset, sy.Err)
	}
	return err
}

// goKind names in JSON's words what a Go type is read from.
func goKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		return "an array"
	}
	return "another value"
}

// jsonKind names a JSON value's kind.
func jsonKind(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

// Read reads a decision log; name names it in errors ("name:line:
// reason"). It is strict: a line of another "log" version, an unknown
// member, a member of the wrong type or a duplicate member is an error.
// It reports every bad line (after 20 it stops and says so) and on any
// error returns no entries.
func Read(r io.Reader, name string) ([]Entry, error) {
	lines := jsonl.NewReader(r, jsonl.DefaultMaxLine)
	var out []Entry
	var errs []error
	for len(errs) < maxErrors {
		line, err := lines.Next()
		var tooLong *jsonl.TooLongError
		switch {
		case err == io.EOF:
			return finishRead(out, errs)
		case err == nil:
			var e Entry
			if e, err = decodeEntry(bytes.TrimSpace(line)); err == nil {
				out = append(out, e)
				continue
			}
		case !errors.As(err, &tooLong):
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, lines.Line(), err))
			return finishRead(out, errs) // a read error ends the input
		}
		errs = append(errs, fmt.Errorf("%s:%d: %s", name, lines.Line(), jsonl.Clip(err.Error())))
	}
	errs = append(errs, fmt.Errorf("too many errors, stopped reading after the first %d", maxErrors))
	return finishRead(out, errs)
}

// finishRead is Read's result: the entries, or every error and none.
func finishRead(out []Entry, errs []error) ([]Entry, error) {
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// group is the key of one run of a log.
type group struct {
	bundle, contract, condition, grant, session, instance string
}

// sessionName is a session name in one contract and condition: the task names
// its runs take.
type sessionName struct{ contract, condition, session string }

// Records reads a log's entries as runs records: one run per (bundle,
// contract, condition, grant, session, instance) — docs/runs-format.md,
// "Decision logs read as runs". A session's run is the task named as the
// session when the log holds one instance of that name (in its contract
// and condition); otherwise the instances are numbered by first
// appearance, the first keeping the name and the others SESSION#2,
// SESSION#3, … (so that appending to a log renames no run). Entries are
// numbered by their place in entries (from 1) in errors; ReadRuns names
// their lines.
func Records(entries []Entry) ([]runs.Record, error) {
	lines := make([]int, len(entries))
	for i := range lines {
		lines[i] = i + 1
	}
	recs, _, err := records(entries, lines)
	return recs, err
}

// records is Records with each entry's line.
func records(entries []Entry, lines []int) ([]runs.Record, []int, error) {
	byGroup := map[group][]int{}
	var order []group
	instances := map[sessionName][]string{} // a session name's instances, by first appearance
	for i, e := range entries {
		if e.Listed != nil {
			continue // a tools/list check: no call, no run of its own
		}
		g := group{e.Bundle, e.Contract, e.Condition, e.Grant, e.Session, e.Instance}
		if e.Session == "" {
			g.instance = "" // the calls outside sessions: one run per grant
		}
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
			if g.session != "" {
				n := sessionName{g.contract, g.condition, g.session}
				if !slices.Contains(instances[n], g.instance) {
					instances[n] = append(instances[n], g.instance)
				}
			}
		}
		byGroup[g] = append(byGroup[g], i)
	}
	var recs []runs.Record
	var at []int
	var errs []error
	first := map[runs.Key]int{} // run key → the first line of its group
	named := checkedNames(entries)
	for _, g := range order {
		idx := byGroup[g]
		if g.session != "" {
			// A session's calls in its order, whatever order concurrent
			// deciders wrote them in.
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(entries[a].Seq, entries[b].Seq) })
		}
		line := lines[idx[0]]
		task := g.session
		if task == "" {
			task = NoSessionTask + g.grant
		} else if k := slices.Index(instances[sessionName{g.contract, g.condition, g.session}], g.instance); k > 0 {
			task += "#" + strconv.Itoa(k+1)
		}
		key := runs.Key{Contract: g.contract, Condition: g.condition, Task: task, Attempt: 1, Repetition: 1}
		if l, dup := first[key]; dup {
			errs = append(errs, &runs.LineError{Line: line, Err: fmt.Errorf("run %s: its calls were decided by bundle %s under grant %q, and the calls of the run at line %d by another bundle or grant: a run is judged by one bundle under one grant (a session that spans a bundle reload, or a session named like the calls outside sessions?)", key, g.bundle, g.grant, l)})
			continue
		}
		first[key] = line
		rec := runs.Record{Bundle: g.bundle, Key: key, Utility: runs.Unknown(NoOutcome), Grant: g.grant}
		for j, i := range idx {
			e := entries[i]
			if g.session != "" && j > 0 && e.Seq == entries[idx[j-1]].Seq {
				errs = append(errs, &runs.LineError{Line: lines[i], Err: fmt.Errorf("session %q: seq %d again (first at line %d): two sessions of one name and instance in one log?", runs.Printable(g.session), e.Seq, lines[idx[j-1]])})
				break
			}
			if e.Decision == nil {
				continue // not a call: nothing was decided
			}
			base := len(rec.Audit)
			for _, a := range e.Decision.Entries() {
				a.Call += base
				if a.Parent >= 0 {
					a.Parent += base
				}
				rec.Audit = append(rec.Audit, a)
			}
		}
		labelRun(&rec, entries, idx, lines, named[g.bundle])
		recs = append(recs, rec)
		at = append(at, line)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return recs, at, nil
}

// Foreign is the runs.ReadOptions.Foreign of readers that accept decision
// logs wherever runs files are accepted (tenet report, tenet compare).
func Foreign(first []byte) runs.FileReader {
	if !Claims(first) {
		return nil
	}
	return &fileReader{}
}

// fileReader reads a decision log as runs, line by line.
type fileReader struct {
	entries []Entry
	lines   []int
}

func (f *fileReader) Line(line []byte, n int) error {
	e, err := decodeEntry(line)
	if err != nil {
		return err
	}
	f.entries = append(f.entries, e)
	f.lines = append(f.lines, n)
	return nil
}

func (f *fileReader) Runs() ([]runs.Record, []int, error) {
	return records(f.entries, f.lines)
}

// AnyRead reports whether some of recs was read from a decision log (its
// utility unknown for NoOutcome, with or without labelRun's count of
// lines not decided): a report of them shows rates as bounds
// unless told otherwise, since no outcome is missing by mistake.
func AnyRead(recs []runs.Record) bool {
	return slices.ContainsFunc(recs, func(r runs.Record) bool { return !r.Utility.Known && strings.HasPrefix(r.Utility.Reason, NoOutcome) })
}
