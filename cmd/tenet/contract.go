package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
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
		diag.WriteText(w, dir, files, diags)
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
// (tenet.Open), the directory's diagnostics on stderr.
func openContract(path string, stderr io.Writer, pol bundle.Policy) (*tenet.Bundle, error) {
	b, err := tenet.Open(path, tenet.WithPolicy(pol), diagsTo(stderr))
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
// contract directories (lang.ContractDirs), each opened and planned.
func loadPrograms(path string, stderr io.Writer, pol bundle.Policy, dirs bool) ([]*eval.Program, error) {
	paths := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() && dirs {
		if paths, err = lang.ContractDirs(path); err != nil {
			return nil, err
		}
	}
	var progs []*eval.Program
	for _, dir := range paths {
		b, err := openContract(dir, stderr, pol)
		if err != nil {
			return nil, err
		}
		p, err := b.Program()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		progs = append(progs, p)
	}
	return progs, nil
}
