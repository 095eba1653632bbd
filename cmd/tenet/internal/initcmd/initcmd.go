// Package initcmd is the command tenet init: a starter contract directory
// that passes tenet check, tenet test and tenet eval as written, for a new
// user to change into their own.
package initcmd

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/internal/atomicfile"
)

// starter holds the files init writes, as they are written: a contract
// (a tool, a task, an injection goal, an invariant, a gate, a source and
// test blocks) and the transcripts its tests and tenet eval read.
//
//go:embed starter
var starter embed.FS

// Files are the names of the files init writes, in the order it names them.
var Files = []string{"contract.tenet.hcl", "transcripts.jsonl"}

// shownEntries is how many entries of a non-empty directory the refusal
// names.
const shownEntries = 5

// Command is `tenet init [DIR]`.
func Command(help string) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a starter contract, with tests and transcripts, into a new directory",
		Long:  help,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if dir == "-" { // every command's "-" is a stream; init writes files
				return errors.New("- is standard input or output, not a directory: tenet init writes two files into the directory it is given")
			}
			if err := Write(dir); err != nil {
				return err
			}
			NextSteps(cmd.OutOrStdout(), dir)
			return nil
		},
	}
}

// Write writes the starter files into dir, created if missing. A
// directory that holds anything is refused, naming what it holds: init
// never replaces or mixes with existing files (another *.tenet.hcl file
// beside the starter would join its contract). The files are written as
// one set (atomicfile.Set): either all of them or, on any failure, none;
// a directory Write created is then removed.
func Write(dir string) error {
	created, err := prepare(dir)
	if err != nil {
		return err
	}
	var set atomicfile.Set
	defer set.Abort() // after Commit, a no-op
	for _, name := range Files {
		data, err := starter.ReadFile("starter/" + name)
		if err != nil {
			return err // the embedded files are listed in Files: not reached
		}
		w, err := set.Create(filepath.Join(dir, name), 0o644)
		if err != nil {
			return cleanup(dir, created, err)
		}
		w.Write(data) // an error stays with w: Commit returns it
	}
	return cleanup(dir, created, set.Commit())
}

// prepare makes sure dir exists and is empty; created says it made it.
func prepare(dir string) (created bool, err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return false, err
		}
		return true, nil
	case err != nil:
		if st, serr := os.Stat(dir); serr == nil && !st.IsDir() {
			return false, fmt.Errorf("%s is a file: name a new or empty directory", dir)
		}
		return false, err
	case len(entries) > 0:
		var names []string
		for i, e := range entries {
			if i == shownEntries {
				names = append(names, fmt.Sprintf("and %d more", len(entries)-shownEntries))
				break
			}
			names = append(names, e.Name())
		}
		return false, fmt.Errorf("%s is not empty (it holds %s): init writes only into a new or empty directory, such as %s",
			dir, strings.Join(names, ", "), filepath.Join(dir, "contract"))
	}
	return false, nil
}

// cleanup removes dir when Write created it and failed.
func cleanup(dir string, created bool, err error) error {
	if err != nil && created {
		os.Remove(dir) // empty after a failed set; otherwise it stays, and err says why
	}
	return err
}

// NextSteps tells what init wrote and what to run next, with dir quoted
// for a POSIX shell when it needs to be.
func NextSteps(w io.Writer, dir string) {
	contract, runs := quote(filepath.Join(dir, Files[0])), quote(filepath.Join(dir, Files[1]))
	d := quote(dir)
	fmt.Fprintf(w, "wrote %s and %s\n\nnext:\n", contract, runs)
	steps := [][2]string{
		{"tenet check " + d, "compile the contract"},
		{"tenet test " + d, "run its test blocks"},
		{"tenet eval " + d + " " + runs, "judge the transcripts, apply the gate"},
	}
	width := 0
	for _, s := range steps {
		width = max(width, len(s[0]))
	}
	for _, s := range steps {
		fmt.Fprintf(w, "  %-*s  # %s\n", width, s[0], s[1])
	}
	fmt.Fprintf(w, "\nthen describe your own agent in %s (docs/language.md) and judge its transcripts.\n", contract)
}

// plain are the arguments a POSIX shell takes as they are.
var plain = regexp.MustCompile(`^[A-Za-z0-9_./+-]+$`)

// quote is s as one POSIX shell word.
func quote(s string) string {
	if plain.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
