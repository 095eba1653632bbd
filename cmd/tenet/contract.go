package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/eval"
)

// diagsTo has tenet.Build and tenet.Open print a contract directory's
// diagnostics to w as every command shows them.
func diagsTo(w io.Writer) tenet.LoadOption { return contractarg.Diagnostics(w) }

// buildFailed is exit 2 for a *tenet.BuildError, whose diagnostics
// diagsTo has printed, and for contractarg.ErrPrinted; err itself
// otherwise.
func buildFailed(err error) error {
	if be := (*tenet.BuildError)(nil); errors.As(err, &be) || errors.Is(err, contractarg.ErrPrinted) {
		return exitError{exitBad}
	}
	return err
}

// openContract opens a bundle file or a contract directory
// (contractarg.Open).
func openContract(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache) (*tenet.Bundle, error) {
	b, err := contractarg.Open(path, stderr, pol, c)
	return b, buildFailed(err)
}

// loadPrograms opens the contracts at path (contractarg: a contract
// directory, a bundle file, a directory of either) and plans them for
// judging; without dirs (explain) path must name one contract.
func loadPrograms(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache, dirs bool) ([]*eval.Program, error) {
	a, err := contractarg.Resolve(path)
	if err == nil && !dirs && len(a.Paths) > 1 {
		_, err = contractarg.One(path, "a run is explained with one contract")
	}
	if err != nil {
		return nil, err
	}
	bs, err := contractarg.OpenAll(a, stderr, pol, c)
	if err != nil {
		return nil, buildFailed(err)
	}
	// Planned in parallel too (eval.Plan is most of a cold start's work),
	// the first error in order.
	progs, errs := make([]*eval.Program, len(bs)), make([]error, len(bs))
	inParallel(len(bs), func(i int) { progs[i], errs[i] = bs[i].Program() })
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Paths[i], err)
		}
	}
	return progs, nil
}

// inParallel calls f(0) … f(n-1), at most one call per CPU at a time.
func inParallel(n int, f func(i int)) { contractarg.InParallel(n, f) }
