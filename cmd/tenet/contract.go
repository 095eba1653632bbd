package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/transcript"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// compileDir parses and compiles a contract directory, printing every
// diagnostic to w. The bundle is nil when there were errors.
func compileDir(dir string, w io.Writer) (*bundle.Bundle, bool) {
	_, b, ok := compileModule(dir, w)
	return b, ok
}

// compileModule is compileDir that also returns the parsed module (for
// its test blocks).
func compileModule(dir string, w io.Writer) (*lang.Module, *bundle.Bundle, bool) {
	mod, b, diags := compiler.CompileDir(dir, compiler.Options{Formats: transcript.Formats()})
	var files map[string]*hcl.File
	if mod != nil {
		files = mod.FileMap()
	}
	writeDiags(w, dir, files, diags)
	return mod, b, !diags.HasErrors()
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
	b, id, err := loadVerified(path, stderr, pol)
	if err != nil {
		return nil, err
	}
	p, err := eval.Plan(b, id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// loadVerified reads a bundle file, or compiles a contract directory, and
// applies pol: the bundle decoded (signatures verified) and its id. A
// directory carries no signature, so it is refused when pol requires one.
func loadVerified(path string, stderr io.Writer, pol bundle.Policy) (*bundle.Bundle, string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	var data []byte
	if st.IsDir() {
		if len(pol.Keys) > 0 {
			return nil, "", fmt.Errorf("%s is a contract directory, compiled here, and carries no signature: --verify-key (or %s) accepts only bundles signed with tenet build --sign KEY", path, verifyKeyEnv)
		}
		b, ok := compileDir(path, stderr)
		if !ok {
			return nil, "", exitError{exitBad}
		}
		// The in-memory bundle goes through the same encoding as a file,
		// so its id is the id `tenet build` would give.
		if data, _, err = bundle.Encode(b); err != nil {
			return nil, "", err
		}
	} else if data, err = readlimit.ReadFile(path, bundle.MaxFileBytes); err != nil {
		// A bundle is read whole, from a regular file: a named pipe or a
		// device is refused before it is opened (it could block or never end).
		if te := (*readlimit.FileTypeError)(nil); errors.As(err, &te) {
			return nil, "", fmt.Errorf("%w: want a contract directory or a bundle file", err)
		}
		return nil, "", err
	}
	b, id, signers, err := bundle.DecodeSigned(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if err := pol.Check(id, signers); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return b, id, nil
}

// loadBundle plans bundle bytes compiled in this process (tenet test).
func loadBundle(path string, data []byte) (*eval.Program, error) {
	p, err := eval.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// loadPrograms is loadProgram for eval, which also accepts a directory of
// contract directories (e.g. contracts/agentdojo): every subdirectory that
// holds *.tenet.hcl files is one contract, in name order.
func loadPrograms(path string, stderr io.Writer, pol bundle.Policy) ([]*eval.Program, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() || len(contractFiles(path)) > 0 {
		p, err := loadProgram(path, stderr, pol)
		if err != nil {
			return nil, err
		}
		return []*eval.Program{p}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var progs []*eval.Program
	for _, e := range entries {
		dir := filepath.Join(path, e.Name())
		if !e.IsDir() || len(contractFiles(dir)) == 0 {
			continue
		}
		p, err := loadProgram(dir, stderr, pol)
		if err != nil {
			return nil, err
		}
		progs = append(progs, p)
	}
	if len(progs) == 0 {
		return nil, fmt.Errorf("%s holds no *.tenet.hcl files and no contract directories", path)
	}
	return progs, nil
}
