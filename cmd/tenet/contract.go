package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// buildDir builds a contract directory (compiler.BuildDir: parse, compile,
// encode), printing every diagnostic to w; ok is false when one is an error.
func buildDir(dir string, w io.Writer) (*compiler.Built, bool) {
	built, diags := compiler.BuildDir(dir, compiler.Options{Formats: transcript.Formats()})
	var files map[string]*hcl.File
	if built.Module != nil {
		files = built.Module.FileMap()
	}
	diag.WriteText(w, dir, files, diags)
	return built, !diags.HasErrors()
}

// loadProgram returns the evaluation program for a contract directory
// (compiled in memory) or a bundle file (verified, checked against pol,
// then planned).
func loadProgram(path string, stderr io.Writer, pol bundle.Policy) (*eval.Program, error) {
	b, err := openContract(path, stderr, pol)
	if err != nil {
		return nil, err
	}
	p, err := b.Program()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// openContract reads a bundle file, or builds a contract directory, and
// verifies it under pol. The bytes of a directory's bundle are verified
// like a file's, so its id is the id `tenet build` would give; a directory
// carries no signature, so it is refused when pol requires one.
func openContract(path string, stderr io.Writer, pol bundle.Policy) (*tenet.Bundle, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		b, err := tenet.OpenBundle(path, tenet.WithPolicy(pol))
		if te := (*readlimit.FileTypeError)(nil); errors.As(err, &te) {
			return nil, fmt.Errorf("%w: want a contract directory or a bundle file", err)
		}
		return b, err
	}
	if len(pol.Keys) > 0 {
		return nil, fmt.Errorf("%s is a contract directory, compiled here, and carries no signature: --verify-key (or %s) accepts only bundles signed with tenet build --sign KEY", path, verifyKeyEnv)
	}
	built, ok := buildDir(path, stderr)
	if !ok {
		return nil, exitError{exitBad}
	}
	b, err := tenet.LoadBundle(built.Data, tenet.WithPolicy(pol))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// loadPrograms is loadProgram for eval and report, which also accept a
// directory of contract directories (lang.ContractDirs).
func loadPrograms(path string, stderr io.Writer, pol bundle.Policy) ([]*eval.Program, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	paths := []string{path}
	if st.IsDir() {
		if paths, err = lang.ContractDirs(path); err != nil {
			return nil, err
		}
	}
	var progs []*eval.Program
	for _, dir := range paths {
		p, err := loadProgram(dir, stderr, pol)
		if err != nil {
			return nil, err
		}
		progs = append(progs, p)
	}
	return progs, nil
}
