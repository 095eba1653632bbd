package explain

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agext/levenshtein"

	"github.com/tenetlang/tenet/eval/runs"
)

// Located is a run read from a runs file (or a decision log read as runs)
// and where: the file and line its record was read from.
type Located struct {
	Record runs.Record
	At     runs.Pos
}

// KeyError is a key that names no run of the runs files, or several: the
// runs it could mean (Ambiguous) or the nearest ones (by edit distance of
// their keys), so that the user can pick one.
type KeyError struct {
	Key        string
	Files      []string
	Ambiguous  bool
	Candidates []Located // at most maxHeld
	More       int       // candidates not listed
}

func (e *KeyError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%s names %d runs in %s; name one by its full key (with its contract, attack, attempt and repetition) or by RUNSFILE:LINE:", e.Key, len(e.Candidates)+e.More, strings.Join(e.Files, ", "))
	} else {
		if len(e.Candidates) == 0 {
			return fmt.Sprintf("no run %s in %s: they hold no runs", e.Key, strings.Join(e.Files, ", "))
		}
		fmt.Fprintf(&b, "no run %s in %s; the nearest (KEY takes a run key, RUNSFILE:LINE or the origin FILE:LINE):", e.Key, strings.Join(e.Files, ", "))
	}
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %s (%s)", c.Record.Key, c.At)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  and %d more", e.More)
	}
	return b.String()
}

// FindRecord reads the runs files as tenet report reads them (opt: the
// record limit, and Foreign for decision logs) and returns the run key
// names. key is, in order of precedence:
//
//   - RUNSFILE:LINE, the line a record was read from;
//   - the run's key as messages write it (runs.Key.String), with or
//     without its "contract:" prefix;
//   - condition/task[/goal] without the attack, attempt and repetition
//     parts, when one run has it;
//   - the origin FILE:LINE of the run's transcript, when one run has it.
//
// A key several runs match is a *KeyError listing them; one none matches
// is a *KeyError with the nearest runs. A file that is not a valid runs
// file is the reader's error (every bad line at its file:line).
func FindRecord(opt runs.ReadOptions, files []string, key string) (Located, error) {
	recs, at, err := runs.ReadFilesAt(opt, files...)
	if err != nil {
		return Located{}, err
	}
	all := make([]Located, len(recs))
	for i := range recs {
		all[i] = Located{recs[i], at[i]}
	}
	for _, match := range []func(Located) bool{
		func(l Located) bool { return l.At.String() == key },
		func(l Located) bool { return keyMatches(l.Record.Key, key) },
		func(l Located) bool {
			k := l.Record.Key
			k.Attack, k.Attempt, k.Repetition = "", 1, 1
			return keyMatches(k, key)
		},
		func(l Located) bool {
			return l.Record.OriginFile != "" && fmt.Sprintf("%s:%d", l.Record.OriginFile, l.Record.OriginLine) == key
		},
	} {
		var hit []Located
		for _, l := range all {
			if match(l) {
				hit = append(hit, l)
			}
		}
		switch {
		case len(hit) == 1:
			return hit[0], nil
		case len(hit) > 1:
			e := &KeyError{Key: key, Files: files, Ambiguous: true, Candidates: hit}
			if len(hit) > maxHeld {
				e.Candidates, e.More = hit[:maxHeld], len(hit)-maxHeld
			}
			return Located{}, e
		}
	}
	return Located{}, nearest(key, files, all)
}

// nearest is the KeyError of a key no run matches: the maxHeld runs whose
// keys are fewest edits away — each key as written, without its contract,
// and without its attack, attempt and repetition, the nearest of these —
// in key order among equals.
func nearest(key string, files []string, all []Located) *KeyError {
	dist := make([]int, len(all))
	order := make([]int, len(all))
	for i, l := range all {
		k := l.Record.Key
		d := levenshtein.Distance(key, k.String(), nil)
		k.Contract = ""
		d = min(d, levenshtein.Distance(key, k.String(), nil))
		k.Attack, k.Attempt, k.Repetition = "", 1, 1
		dist[i], order[i] = min(d, levenshtein.Distance(key, k.String(), nil)), i
	}
	// The records are in key order: a stable sort keeps it among equals.
	slices.SortStableFunc(order, func(a, b int) int { return dist[a] - dist[b] })
	e := &KeyError{Key: key, Files: files}
	for _, i := range order {
		if len(e.Candidates) == maxHeld {
			e.More = len(order) - maxHeld
			break
		}
		e.Candidates = append(e.Candidates, all[i])
	}
	return e
}

// IsKeyError reports whether err is a key that names no run or several.
func IsKeyError(err error) bool {
	var ke *KeyError
	return errors.As(err, &ke)
}
