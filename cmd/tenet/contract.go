package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/internal/cliflags"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// diagsTo has tenet.Build and tenet.Open print a contract directory's
// diagnostics to w as every command shows them (diag.WriteText).
func diagsTo(w io.Writer) tenet.LoadOption {
	return tenet.WithDiagnostics(func(dir string, files map[string]*hcl.File, diags hcl.Diagnostics) {
		diag.WriteText(w, dir, files, diag.SyntaxOnly(diags))
	})
}

// buildFailed is exit 2 for a *tenet.BuildError, whose diagnostics diagsTo
// has printed, and err itself otherwise.
func buildFailed(err error) error {
	if be := (*tenet.BuildError)(nil); errors.As(err, &be) {
		return exitError{exitBad}
	}
	return err
}

// openContract opens a bundle file or a contract directory under pol
// (tenet.Open), the directory's diagnostics on stderr; c is the compile
// cache (nil: none).
func openContract(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache) (*tenet.Bundle, error) {
	b, err := tenet.Open(path, tenet.WithPolicy(pol), diagsTo(stderr), tenet.WithCache(c))
	te, ude := (*readlimit.FileTypeError)(nil), (*tenet.UnsignedDirError)(nil)
	switch {
	case errors.As(err, &te):
		return nil, fmt.Errorf("%w: want a contract directory or a bundle file", err)
	case errors.As(err, &ude):
		return nil, fmt.Errorf("%s is a contract directory, compiled here, and carries no signature: --verify-key (or %s) accepts only bundles signed with tenet build --sign KEY", ude.Dir, cliflags.VerifyKeyEnv)
	case err != nil:
		return nil, buildFailed(err)
	}
	return b, nil
}

// loadPrograms opens the contract at path (openContract) and plans it
// for judging; with dirs (eval and report) path may also be a directory of
// contract directories (lang.ContractDirs), each opened and planned. The
// contracts are opened and planned in parallel, one per CPU; their
// diagnostics are written, and the first error returned, in order, as if
// they were opened one after the other.
func loadPrograms(path string, stderr io.Writer, pol bundle.Policy, c *cache.Cache, dirs bool) ([]*eval.Program, error) {
	paths := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() && dirs {
		if paths, err = lang.ContractDirs(path); err != nil {
			return nil, err
		}
	}
	progs, errs, diags := make([]*eval.Program, len(paths)), make([]error, len(paths)), make([]bytes.Buffer, len(paths))
	inParallel(len(paths), func(i int) {
		b, err := openContract(paths[i], &diags[i], pol, c)
		if err == nil {
			if progs[i], err = b.Program(); err != nil {
				err = fmt.Errorf("%s: %w", paths[i], err)
			}
		}
		errs[i] = err
	})
	for i := range paths {
		if _, err := diags[i].WriteTo(stderr); err != nil {
			return nil, err
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return progs, nil
}

// inParallel calls f(0) … f(n-1), at most one call per CPU at a time, and
// returns when all have returned.
func inParallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}
