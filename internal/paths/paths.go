// Package paths checks the files a command is given before it reads or
// writes any: inputs are distinct files, and an output is neither a
// directory nor one of the inputs, so that a typo in a flag cannot destroy
// the data it was about to read. It takes path names as given on the
// command line and gives errors naming them; it imports no tenet package.
package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckOutput refuses to write out over one of the command's inputs (a
// transcript, a bundle, a contract file) or over a directory. An output
// that does not exist yet is accepted when its directory exists (there is
// nothing to lose); a missing directory, or a parent that is not a
// directory, is refused now, so that a command does not do all its work
// (tenet eval judging a whole corpus) only to fail when it writes.
func CheckOutput(out string, inputs []string) error {
	st, err := os.Stat(out)
	if err != nil {
		return checkParent(out)
	}
	if st.IsDir() {
		return fmt.Errorf("output %s is a directory; name a file", out)
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return fmt.Errorf("output %s is also an input (%s); choose another file", out, in)
		}
	}
	return nil
}

// checkParent refuses an output whose directory is missing or is not a
// directory (the output itself does not exist yet).
func checkParent(out string) error {
	dir := filepath.Dir(out)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("output %s: directory %s does not exist; create it first", out, dir)
	case err != nil:
		return fmt.Errorf("output %s: %w", out, err)
	case !st.IsDir():
		return fmt.Errorf("output %s: %s is not a directory", out, dir)
	}
	return nil
}

// CheckInputs refuses directories where files are expected, a file
// given twice (its runs would be counted twice), and "-" where no such
// file exists (the commands that call it read no standard input).
func CheckInputs(files []string) error {
	var seen []os.FileInfo
	for _, f := range files {
		st, err := os.Stat(f)
		if f == "-" && errors.Is(err, fs.ErrNotExist) {
			// eval and explain read standard input as "-" (inputs.Expand
			// takes it out before this check); the commands that read
			// runs files by name do not.
			return errors.New("- (standard input) is not read here: give the file by name, or /dev/stdin to read standard input")
		}
		if err != nil {
			return err
		}
		if st.IsDir() {
			return fmt.Errorf("%s is a directory; give the files in it", f)
		}
		for i, prev := range seen {
			if os.SameFile(prev, st) {
				return fmt.Errorf("%s is given twice (also as %s)", f, files[i])
			}
		}
		seen = append(seen, st)
	}
	return nil
}

// SameFile reports whether two output paths name the same file: the same
// existing file, or the same cleaned absolute path.
func SameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
