package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/paths"
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
	writeDiags(w, dir, files, diags)
	return built, !diags.HasErrors()
}

// compileDir is buildDir for the bundle alone.
func compileDir(dir string, w io.Writer) (*bundle.Bundle, bool) {
	built, ok := buildDir(dir, w)
	return built.Bundle, ok
}

// compileModule is buildDir for the parsed module (its test blocks) and
// the bundle.
func compileModule(dir string, w io.Writer) (*lang.Module, *bundle.Bundle, bool) {
	built, ok := buildDir(dir, w)
	return built.Module, built.Bundle, ok
}

// writeDiags prints diagnostics as every command shows them (diag.WriteText).
func writeDiags(w io.Writer, dir string, files map[string]*hcl.File, diags hcl.Diagnostics) {
	diag.WriteText(w, dir, files, diags)
}

// addMaxPatternThreads adds --max-pattern-threads to a command that judges
// runs; checkMaxPatternThreads refuses a value below 1.
func addMaxPatternThreads(cmd *cobra.Command, n *int) {
	cmd.Flags().IntVar(n, "max-pattern-threads", eval.MaxThreads, "pattern threads alive at one item of a run before the pattern's result is unknown")
}

func checkMaxPatternThreads(n int) error {
	if n < 1 {
		return fmt.Errorf("--max-pattern-threads %d: want at least 1", n)
	}
	return nil
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

// loadVerified is openContract for the decoded bundle and its id.
func loadVerified(path string, stderr io.Writer, pol bundle.Policy) (*bundle.Bundle, string, error) {
	b, err := openContract(path, stderr, pol)
	if err != nil {
		return nil, "", err
	}
	return b.Contract(), b.ID(), nil
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

// loadBundle plans bundle bytes compiled in this process (tenet test).
func loadBundle(path string, data []byte) (*eval.Program, error) {
	p, err := eval.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
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

// The commands' checks of their files (internal/paths), and a contract
// directory's sources (inputs that an output must not overwrite).
func checkOutput(out string, inputs []string) error { return paths.CheckOutput(out, inputs) }
func checkInputs(files []string) error              { return paths.CheckInputs(files) }
func sameFile(a, b string) bool                     { return paths.SameFile(a, b) }
func contractFiles(dir string) []string             { return lang.SourceFiles(dir) }
