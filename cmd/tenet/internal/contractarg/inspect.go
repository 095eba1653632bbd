package contractarg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/describe"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/eval/consistency"
)

// ErrPrinted is the error of a command whose failure has been written to
// stderr already: the command exits 2 without another message.
var ErrPrinted = errors.New("the failure is printed")

// InspectFormats are inspect's --format values: the listing
// (bundle.Disassemble) and the description (compiler/bundle/describe).
var InspectFormats = []string{"text", "json"}

// Inspect writes what the contracts at path hold (tenet inspect) to
// stdout: as text, each contract's listing, under a "== PATH ==" heading
// when the argument is a directory of contracts; as JSON, one
// describe.Document with an entry per contract. Every contract is first
// checked as eval checks it (tenet.Bundle.Inspect, with verify the full
// check): a mismatch is reported on stderr, naming the contract (prog is
// the command's name), and the error is then ErrPrinted. In JSON, nothing
// is written unless every contract passes.
func Inspect(path, format string, verify bool, stdout, stderr io.Writer, pol bundle.Policy, c *cache.Cache, prog string) error {
	a, err := Resolve(path)
	if err != nil {
		return err
	}
	bs, err := OpenAll(a, stderr, pol, c)
	if err != nil {
		return err
	}
	// The contracts are checked (and listed) in parallel, one per CPU,
	// and written in order, up to the first that fails, as if one after
	// the other.
	type inspected struct {
		listing bytes.Buffer
		issues  consistency.TextIssues
		size    int
		err     error
	}
	res := make([]inspected, len(bs))
	InParallel(len(bs), func(i int) {
		r := &res[i]
		if st, err := os.Stat(a.Paths[i]); err == nil && !st.IsDir() {
			r.size = int(st.Size())
		}
		w := io.Writer(&r.listing)
		if format == "json" {
			w = io.Discard
		}
		r.issues, r.err = bs[i].Inspect(w, r.size, verify)
	})
	doc := describe.Document{Schema: describe.Schema, Contracts: []describe.Contract{}}
	for i, tb := range bs {
		p, r := a.Paths[i], &res[i]
		if format != "json" {
			if a.Several() {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "== %s ==\n", p)
			}
			if _, err := r.listing.WriteTo(stdout); err != nil {
				return err
			}
		}
		if r.err != nil {
			return fmt.Errorf("%s: %w", p, r.err)
		}
		if n := r.issues.Len(); n > 0 {
			b, where := tb.Contract(), "marked MISMATCH above"
			if format == "json" {
				where = "listed by inspect without --format json"
			}
			fmt.Fprintf(stderr, "%s: %s: %d of %d expressions and %d of %d patterns do not run what their text says (%s): the bundle was altered after it was compiled, and eval refuses it\n",
				prog, p, len(r.issues.Exprs), len(b.Exprs), len(r.issues.Patterns), len(b.Plan.Patterns), where)
			return ErrPrinted
		}
		signers := make([]string, len(tb.Signers()))
		for j, s := range tb.Signers() {
			signers[j] = s.Fingerprint()
		}
		doc.Contracts = append(doc.Contracts, describe.Of(tb.Contract(), tb.ID(), p, r.size, signers))
	}
	if format != "json" {
		return nil
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(out, '\n'))
	return err
}
