// Package inputs turns the transcript arguments of a command into the
// files it reads, and opens each one decompressed.
//
// Expand takes the arguments as given — files, directories (walked
// recursively, in byte-wise path order, through Options.Include) and "-"
// (standard input, spooled once to a temporary file so that every pass of
// a collection can read it) — and gives a List: the files, each named as
// errors will name it, checked by internal/paths (distinct files). Open
// and Decompress give a file's bytes, gzip and zstd decompressed by their
// content (magic numbers), not by their name. It imports internal/paths
// and internal/readlimit; the transcript readers see only a stream.
package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/internal/readlimit"
)

// StdinArg is the argument that names standard input.
const StdinArg = "-"

// StdinName is how standard input is named in the List, in errors
// (<stdin>:3: …) and in reports.
const StdinName = "<stdin>"

// Options says how Expand reads its arguments.
type Options struct {
	// Include are the globs (path.Match) a file found in a directory must
	// match, one of them, to be read: a glob without "/" is matched
	// against the file's base name, one with "/" against its path
	// relative to the directory argument (slash-separated). None: every
	// file. Files named as arguments are read whatever their name.
	Include []string
	// Stdin is what "-" reads; nil is os.Stdin.
	Stdin *os.File
	// Contract, when set, is the contract argument (a directory or a
	// bundle): given again as transcripts, it is refused, not read as
	// bad records.
	Contract string
}

// contractSuffix is the suffix of contract sources (lang.FileSuffix): such
// a file is never a transcript.
const contractSuffix = ".tenet.hcl"

// List is the files Expand found. Close it to remove the copy of standard
// input.
type List struct {
	Files    []string // in reading order; standard input is StdinName
	stdin    *os.File // the spooled copy of standard input, or nil
	size     int64
	unlinked bool // the copy's name is already removed
}

// Expand checks and expands args (see the package comment) in order. Its
// errors, all before a transcript byte is read: no arguments; the
// contract (Options.Contract) or a contract source (*.tenet.hcl), named or
// found in a directory, given as transcripts; a bad
// --include glob; "-" given twice, or while standard input is a terminal
// (tenet would wait for typing); a directory in which nothing is read
// (naming it); a symbolic link loop (naming the link); a file in a
// directory that is not a regular file (a pipe, a device: it might never
// end) and matches Include; the errors of paths.CheckInputs on the
// expanded list (a file given twice, also through a link or a directory,
// or as standard input redirected from it); a missing file.
func Expand(args []string, opt Options) (*List, error) {
	if len(args) == 0 {
		return nil, errors.New("no transcript files to evaluate")
	}
	for _, g := range opt.Include {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("--include %q: %w", g, err)
		}
	}
	l := &List{}
	var named []string // the files checked by paths.CheckInputs
	stdinAt := -1
	for _, a := range args {
		if a == StdinArg {
			if stdinAt >= 0 {
				return nil, errors.New("- (standard input) is given twice: it can be read once")
			}
			stdinAt = len(l.Files)
			l.Files = append(l.Files, StdinName)
			continue
		}
		st, err := os.Stat(a)
		if err == nil && opt.Contract != "" {
			if cst, cerr := os.Stat(opt.Contract); cerr == nil && os.SameFile(st, cst) {
				return nil, fmt.Errorf("%s is the contract; give the transcripts after it", a)
			}
		}
		if strings.HasSuffix(a, contractSuffix) {
			return nil, fmt.Errorf("%s is a contract source, not a transcript", a)
		}
		if err != nil || !st.IsDir() {
			// A missing file is os.Stat's error, from paths.CheckInputs.
			l.Files, named = append(l.Files, a), append(named, a)
			continue
		}
		found, err := walkDir(a, opt.Include)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no file to read in this directory (%shidden files and directories are skipped)", a, includeNote(opt.Include))
		}
		l.Files, named = append(l.Files, found...), append(named, found...)
	}
	if stdinAt >= 0 && slices.Contains(args, StdinName) {
		return nil, fmt.Errorf("%s names standard input here; write ./%s for the file of that name", StdinName, StdinName)
	}
	if err := paths.CheckInputs(named); err != nil {
		return nil, err
	}
	if stdinAt >= 0 {
		if err := l.spool(opt.Stdin, named); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func includeNote(include []string) string {
	if len(include) == 0 {
		return ""
	}
	return "none matches --include " + strings.Join(include, ", ") + "; "
}

// spool copies standard input to a temporary file: a collection reads its
// files once per transcript format, and a pipe can be read once. It
// refuses a terminal and standard input redirected from a file also named.
func (l *List) spool(in *os.File, named []string) error {
	if in == nil {
		in = os.Stdin
	}
	if term.IsTerminal(int(in.Fd())) {
		return errors.New("- reads standard input, which is a terminal: pipe or redirect the transcripts (tenet eval C - < runs.jsonl)")
	}
	if st, err := in.Stat(); err == nil && st.Mode().IsRegular() {
		for _, n := range named {
			if nst, err := os.Stat(n); err == nil && os.SameFile(st, nst) {
				return fmt.Errorf("%s is given twice (also as -, standard input)", n)
			}
		}
	}
	f, err := os.CreateTemp("", "tenet-stdin-*")
	if err != nil {
		return fmt.Errorf("standard input: a temporary copy: %w", err)
	}
	l.stdin = f
	// Unlinked at once where the system allows it (unix): the open file
	// stays readable, and a tenet killed before Close leaves nothing.
	if os.Remove(f.Name()) == nil {
		l.unlinked = true
	}
	n, err := io.Copy(f, in)
	if err != nil {
		l.Close()
		return fmt.Errorf("standard input: %w", err)
	}
	l.size = n
	return nil
}

// Open opens the file name of the list for reading (compressed bytes as
// they are: Decompress them after counting). Standard input is its copy,
// from its start at each Open. Anything else is os.Open: a named pipe
// given as an argument is streamed.
func (l *List) Open(name string) (io.ReadCloser, error) {
	if name == StdinName && l.stdin != nil {
		return io.NopCloser(io.NewSectionReader(l.stdin, 0, l.size)), nil
	}
	return os.Open(name)
}

// Size is the bytes of the file name (standard input's copy included),
// 0 when unknown: the progress line's total.
func (l *List) Size(name string) int64 {
	if name == StdinName && l.stdin != nil {
		return l.size
	}
	if st, err := os.Stat(name); err == nil {
		return st.Size()
	}
	return 0
}

// Close removes the copy of standard input, if any.
func (l *List) Close() error {
	if l == nil || l.stdin == nil {
		return nil
	}
	name := l.stdin.Name()
	err := l.stdin.Close()
	if !l.unlinked {
		if rerr := os.Remove(name); err == nil {
			err = rerr
		}
	}
	l.stdin = nil
	return err
}

// walkDir lists the files under root that include selects, in byte-wise
// order of their paths. Hidden entries (".name") are skipped; symbolic
// links are followed, to files and to directories, and a link back to a
// directory being walked is an error (a loop would never end).
func walkDir(root string, include []string) ([]string, error) {
	var found []string
	var walk func(dir, rel string, ancestors []fs.FileInfo) error
	walk = func(dir, rel string, ancestors []fs.FileInfo) error {
		entries, err := readlimit.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p, r := filepath.Join(dir, e.Name()), path.Join(rel, e.Name())
			st, err := os.Stat(p) // follows links
			if err != nil {
				if lst, lerr := os.Lstat(p); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
					return fmt.Errorf("%s: a symbolic link that leads nowhere readable: %w", p, err)
				}
				return err
			}
			if st.IsDir() {
				for i, a := range ancestors {
					if os.SameFile(a, st) {
						return fmt.Errorf("%s: symbolic link loop: it leads back to %s", p, ancestorPath(root, r, i))
					}
				}
				if err := walk(p, r, append(ancestors, st)); err != nil {
					return err
				}
				continue
			}
			if !included(include, r) {
				continue
			}
			if strings.HasSuffix(p, contractSuffix) {
				return fmt.Errorf("%s is a contract source, not a transcript (is %s a contract directory? narrow --include)", p, dir)
			}
			if !st.Mode().IsRegular() {
				return fmt.Errorf("%s is %s, not a regular file (it may never end); move it out or narrow --include", p, readlimit.Kind(st.Mode().Type()))
			}
			found = append(found, p)
		}
		return nil
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if err := walk(root, "", []fs.FileInfo{st}); err != nil {
		return nil, err
	}
	slices.Sort(found)
	return found, nil
}

// ancestorPath names the i-th directory above rel (0: root).
func ancestorPath(root, rel string, i int) string {
	parts := strings.Split(rel, "/")
	return filepath.Join(append([]string{root}, parts[:i]...)...)
}

// included reports whether rel (slash-separated, relative to the directory
// argument) is selected by include.
func included(include []string, rel string) bool {
	if len(include) == 0 {
		return true
	}
	for _, g := range include {
		target := path.Base(rel)
		if strings.Contains(g, "/") {
			target = rel
		}
		if ok, _ := path.Match(g, target); ok {
			return true
		}
	}
	return false
}
