// Package explain shows how one run's labels came about (tenet explain):
// Find locates the run in transcript files, judging every record as tenet
// eval would, and Write renders the explanation eval.Program.Explain gives
// as text.
//
// It takes a planned program, its source plan and transcript file names,
// and gives an *eval.Explanation and its text; it decides no exit code and
// reads no flags. It imports compiler/bundle, eval, eval/runs,
// eval/transcript and internal/inputs.
package explain

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/common/types/ref"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/runs"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/inputs"
)

// Find streams the files and explains the first run whose key (or
// file:line) is key. The files must be input tenet eval accepts: a
// malformed record, one the source cannot map, or a second record with the
// key of an earlier one (a duplicate run), is bad input at its file:line
// (the first one found), wherever it is, even after the run — eval refuses
// such a file, and an explanation must not come from one. So every record
// is judged, as eval judges it, to know its key.
//
// open opens each file (an inputs.List's Open: standard input's copy too);
// nil is os.Open. Its bytes are decompressed by content (inputs.Decompress).
func Find(p *eval.Program, src *bundle.SourcePlan, files []string, open func(string) (io.ReadCloser, error), key string) (*eval.Explanation, error) {
	if open == nil {
		open = func(name string) (io.ReadCloser, error) { return os.Open(name) }
	}
	var found *eval.Explanation
	header := false // key is FILE:LINE of a header line
	seen := map[runs.Key]runs.Pos{}
	var held heldRuns // the judged runs, for the error
	for _, name := range files {
		f, err := open(name)
		if err != nil {
			return nil, err
		}
		dr := inputs.Decompress(f)
		ex, h, err := scanRuns(p, src, name, dr, key, found == nil, seen, &held)
		dr.Close()
		f.Close()
		if err != nil {
			return nil, err
		}
		header = header || h
		if found == nil {
			found = ex
		}
	}
	if found == nil && header {
		// Said apart from "no judged run": the line exists and is valid,
		// it just holds no transcript (docs/transcripts.md, header lines).
		return nil, fmt.Errorf("%s is a header line (a record without messages, as tenet eval counts it): it holds no run to explain", key)
	}
	if found == nil {
		return nil, &NotFoundError{fmt.Sprintf("no judged run %s in %s; %s", key, strings.Join(files, ", "), &held)}
	}
	return found, nil
}

// NotFoundError is Find's error when the files hold no run the key names
// that the program judges (FindAmong then tries the next contract).
type NotFoundError struct{ msg string }

func (e *NotFoundError) Error() string { return e.msg }

// FindAmong is Find for the contracts of a directory of contracts
// (srcs[i] is progs[i]'s source plan): the run the key names, and the
// contract that judges it. A key with a contract prefix ("name:cond/task")
// looks only at that contract; otherwise each contract reads the files in
// turn, as tenet eval's collection judges every file with each, and the
// key must name a run of exactly one of them. An error other than "no
// such run" (a bad record, a duplicate) is the first contract's that has
// one, as Find gives it.
func FindAmong(progs []*eval.Program, srcs []*bundle.SourcePlan, files []string, open func(string) (io.ReadCloser, error), key string) (*eval.Explanation, *eval.Program, error) {
	if len(progs) == 1 {
		ex, err := Find(progs[0], srcs[0], files, open, key)
		return ex, progs[0], err
	}
	var found *eval.Explanation
	var by *eval.Program
	var names []string
	for i, p := range progs {
		name := p.Bundle.Manifest.Contract
		names = append(names, name)
		if c, _, ok := strings.Cut(key, ":"); ok && slices.Contains(contractNames(progs), c) && c != name {
			continue
		}
		ex, err := Find(p, srcs[i], files, open, key)
		var nf *NotFoundError
		switch {
		case errors.As(err, &nf):
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("contract %s: %w", name, err)
		case found != nil:
			return nil, nil, fmt.Errorf("%s names a run of contract %s (%s) and one of contract %s (%s): name one with its contract, --run %s:…", key, by.Bundle.Manifest.Contract, found.Record.Key, name, ex.Record.Key, name)
		}
		found, by = ex, p
	}
	if found == nil {
		return nil, nil, &NotFoundError{fmt.Sprintf("no judged run %s in %s for any of the contracts %s", key, strings.Join(files, ", "), strings.Join(names, ", "))}
	}
	return found, by, nil
}

func contractNames(progs []*eval.Program) []string {
	out := make([]string, len(progs))
	for i, p := range progs {
		out[i] = p.Bundle.Manifest.Contract
	}
	return out
}

// maxHeld bounds the runs a "no judged run" error lists.
const maxHeld = 10

// heldRuns counts the judged runs and keeps the first maxHeld, each as
// "KEY (FILE:LINE)", for the error of a key that names none.
type heldRuns struct {
	first []string
	n     int
}

func (h *heldRuns) add(k runs.Key, at runs.Pos) {
	if h.n++; len(h.first) < maxHeld {
		h.first = append(h.first, fmt.Sprintf("%s (%s:%d)", k, at.File, at.Line))
	}
}

// String lists the judged runs the files hold, so that a user whose key
// or FILE:LINE names none can pick one: a run's origin is the line its
// record starts on, which in formats whose runs are not one a line
// (inspect, tau-bench, a pretty-printed array) is not line 1.
func (h *heldRuns) String() string {
	if h.n == 0 {
		return "there is none"
	}
	s := "the judged runs there (--run takes a key or FILE:LINE): " + strings.Join(h.first, ", ")
	if more := h.n - len(h.first); more > 0 {
		s += fmt.Sprintf(", and %d more", more)
	}
	return s
}

// scanRuns reads one file, explaining the first run whose key (or
// file:line) is key while look is set, and returns the first bad record as
// an error. seen holds the key of every judged run read so far (in any
// file) with where it was read: a run whose key is there is a duplicate,
// refused as tenet eval refuses it (the same rule — one run per key of a
// program — and the same words, runs.Duplicate). header reports that key
// is the file:line of a record that carries no transcript (a header line),
// which eval skips. held gets every judged run, in file order. It frames and decodes the records itself
// (transcript.Open is the same two steps) to know the line of each skipped
// one.
func scanRuns(p *eval.Program, src *bundle.SourcePlan, name string, f io.Reader, key string, look bool, seen map[runs.Key]runs.Pos, held *heldRuns) (found *eval.Explanation, header bool, err error) {
	format, f, err := transcript.ResolveFormat(src.Format, name, f) // under auto, the file's own
	if err != nil {
		return nil, false, fmt.Errorf("%w (tenet eval refuses this file too)", err)
	}
	rd, err := transcript.OpenRecords(format, name, f, transcript.Options{})
	if err != nil {
		return nil, false, err
	}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return found, header, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("%w (tenet eval refuses this file too)", err)
		}
		r, skip, err := transcript.Decode(format, rec.Origin, rec.Data)
		if err != nil {
			return nil, false, fmt.Errorf("%w (tenet eval refuses this file too)", err)
		}
		at := fmt.Sprintf("%s:%d", rec.Origin.File, rec.Origin.Line)
		if skip {
			header = header || at == key
			continue
		}
		var j eval.Judgement
		if look && found == nil && at == key {
			// Judged first, so that a record this contract does not
			// judge (its select is false) is "not found" here, which a
			// directory of contracts (FindAmong) passes over.
			if j, err = p.Judge(src, r); err != nil {
				return nil, false, err
			}
			if j.Skip != eval.Judged {
				return nil, false, &NotFoundError{fmt.Sprintf("%s:%d is not judged: %s", rec.Origin.File, rec.Origin.Line, j.Skip)}
			}
			ex, err := p.Explain(src, r)
			if err != nil {
				return nil, false, err
			}
			found, j = ex, eval.Judgement{Record: ex.Record}
		} else {
			if j, err = p.Judge(src, r); err != nil {
				return nil, false, fmt.Errorf("%w (tenet eval refuses this file too)", err)
			}
			if j.Skip != eval.Judged {
				continue
			}
		}
		k := j.Record.Key
		if first, dup := seen[k]; dup {
			d := runs.Duplicate{Key: k, OriginFile: rec.Origin.File, OriginLine: rec.Origin.Line, FirstFile: first.File, FirstLine: first.Line}
			return nil, false, fmt.Errorf("%w (tenet eval refuses these files too: which record is the run is not decidable; remove or re-key one of the two)", d)
		}
		seen[k] = runs.Pos{File: rec.Origin.File, Line: rec.Origin.Line}
		held.add(k, seen[k])
		if look && found == nil && keyMatches(k, key) {
			if found, err = p.Explain(src, r); err != nil {
				return nil, false, err
			}
		}
	}
}

func keyMatches(k runs.Key, s string) bool {
	if k.String() == s {
		return true
	}
	k.Contract = ""
	return k.String() == s
}

// Write renders an explanation as text: predicates, then each label's
// parts in evaluation order.
func Write(w io.Writer, b *bundle.Bundle, ex *eval.Explanation) {
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	r := ex.Record
	pf("run %s  (%s:%d)\n", r.Key, r.OriginFile, r.OriginLine)
	calls := 0
	for _, it := range ex.Items {
		if it.Call >= 0 {
			calls++
		}
	}
	pf("%d items: %d messages, %d calls\n", len(ex.Items), len(ex.Items)-calls, calls)
	pf("utility %s", labelText(r.Utility))
	if r.Key.Attacked() {
		pf(" · attack_success %s · side_effect %s", labelText(r.AttackSuccess), labelText(r.SideEffect))
	}
	if r.HasExposed {
		pf(" · exposed %s", labelText(r.Exposed))
	}
	if v := r.Violated(); len(v) > 0 {
		pf(" · violated %s", strings.Join(v, ", "))
	}
	pf("\n")
	writeGiven(w, &r)
	if len(ex.Predicates) > 0 {
		pf("\npredicates\n")
	}
	for _, pv := range ex.Predicates {
		where := ""
		if pv.Expr != bundle.NoExpr {
			e := b.Exprs[pv.Expr]
			where = fmt.Sprintf("  (%s:%d)", e.Range.File, e.Range.Line)
		} else {
			where = fmt.Sprintf("  (pattern %d)", pv.Pattern)
		}
		pf("  %s = %s%s\n", bundle.ScopedName(pv.Scope, pv.Name), clip(valueText(pv.Value), 100), where)
	}
	pf("\nlabels\n")
	for _, part := range ex.Parts {
		pf("  %s = %s\n", part.Label, labelText(part.Result))
		if part.Expr != bundle.NoExpr {
			e := b.Exprs[part.Expr]
			pf("    %s of %s  %s:%d:%d  → %s\n", e.Kind, e.Owner, e.Range.File, e.Range.Line, e.Range.Column, labelText(part.ExprResult))
			for _, line := range strings.Split(strings.TrimRight(e.Text, "\n"), "\n") {
				pf("    | %s\n", line)
			}
		}
		for _, pp := range part.Patterns {
			pt := b.Plan.Patterns[pp.Pattern]
			verb := "must match"
			if pp.Negate {
				verb = "must not match"
			}
			pf("    pattern %d (%s, %s)  %s:%d:%d  → %s\n", pp.Pattern, pt.Owner, verb, pt.Range.File, pt.Range.Line, pt.Range.Column, patternText(pp.Result))
			pf("    | %s\n", pt.Text)
			for k, pos := range pp.Witness {
				if pos < 0 {
					continue
				}
				pf("      %-10s %s\n", pt.Steps[k].Name, itemText(ex, pos))
			}
		}
	}
}

func labelText(l runs.Label) string {
	if !l.Known {
		return "unknown: " + l.Reason
	}
	return l.String()
}

func patternText(l runs.Label) string {
	switch {
	case !l.Known:
		return "unknown: " + l.Reason
	case l.Value:
		return "matched; witness:"
	}
	return "no match"
}

// itemText describes an item: its reference, role or tool, and a trimmed
// excerpt of its text or arguments.
func itemText(ex *eval.Explanation, pos int) string {
	it := ex.Items[pos]
	if it.Call >= 0 {
		c := ex.Run.Calls[it.Call]
		args, _ := json.Marshal(c.Args)
		state := "ran"
		switch {
		case c.OkUnknown != "":
			state = "unknown whether it ran"
		case !c.Ok:
			state = "did not run"
			if c.Error != "" {
				state = "failed: " + clip(c.Error, 40)
			}
		}
		if c.Mismatch != "" {
			state += "; " + clip(c.Mismatch, 60)
		}
		return fmt.Sprintf("call:%d  %s %s  (%s)", it.Call, c.Tool, clip(string(args), 60), state)
	}
	e := ex.Run.Events[it.Event]
	who := e.Role
	if e.Tool != "" {
		who += " " + e.Tool
	}
	return fmt.Sprintf("event:%d  %s  %q", it.Event, who, clip(e.Content, 60))
}

// valueText renders a CEL value as JSON-like text.
func valueText(v ref.Val) string {
	if v == nil {
		return "—"
	}
	if err, ok := v.Value().(error); ok {
		return "error: " + err.Error()
	}
	// Through google.protobuf.Value, any CEL value becomes plain Go data,
	// which encoding/json renders with sorted keys.
	if native, err := v.ConvertToNative(reflect.TypeOf(&structpb.Value{})); err == nil {
		if b, err := json.Marshal(native.(*structpb.Value).AsInterface()); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v.Value())
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
