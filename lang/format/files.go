package format

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
	"github.com/tenetlang/tenet/lang/diag"
)

// Result says what Run found.
type Result struct {
	// Changed are the files not in canonical layout, as named by Files:
	// rewritten when Run writes.
	Changed []string
	// Failed are the files that do not parse, left as they are.
	Failed []Failure
}

// Failure is a file Format refused, with its diagnostics (unsorted) and
// the file as far as it parsed, which gives snippets their block context.
type Failure struct {
	Name  string // slash-separated, as in the diagnostics' ranges
	File  *hcl.File
	Diags hcl.Diagnostics
}

// Run formats the contract files of paths (see Files) and, with write,
// rewrites each one not in canonical layout, keeping its permissions. The
// rewritten files are one set of outputs: none is replaced unless every
// one could be written (a full disk halfway leaves every file as it was).
// A file that does not parse is left alone and reported in Failed. An
// error (a path that cannot be listed, a file that cannot be read or
// written) stops Run; the Result then holds the failures found before it.
func Run(paths []string, write bool) (Result, error) {
	return RunFunc(paths, write, nil)
}

// RunFunc is Run that also calls changed, when not nil, for each file not
// in canonical layout, in order, with its content and its canonical
// layout (tenet fmt -d prints their difference).
func RunFunc(paths []string, write bool, changed func(name string, src, out []byte)) (Result, error) {
	var res Result
	files, err := Files(paths)
	if err != nil {
		return res, err
	}
	var outputs atomicfile.Set
	defer outputs.Abort() // after Commit, a no-op
	for _, f := range files {
		src, err := readlimit.ReadFile(f, lang.MaxFileBytes)
		if err != nil {
			return res, outputs.Cancel(err)
		}
		name := filepath.ToSlash(f)
		out, diags := Format(src, name)
		if diags.HasErrors() {
			file := &hcl.File{Bytes: src}
			// A file that nests too deep is not parsed, even for snippets.
			if !hasCode(diags, diag.NestingTooDeep) {
				if pf, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos); pf != nil {
					file = pf
				}
			}
			res.Failed = append(res.Failed, Failure{Name: name, File: file, Diags: diags})
			continue
		}
		if bytes.Equal(out, src) {
			continue
		}
		res.Changed = append(res.Changed, f)
		if changed != nil {
			changed(f, src, out)
		}
		if !write {
			continue
		}
		st, err := os.Stat(f)
		if err != nil {
			return res, outputs.Cancel(err)
		}
		w, err := outputs.Create(f, st.Mode().Perm())
		if err != nil {
			return res, err
		}
		w.Write(out) // an error stays with w: Commit returns it, naming the other files
	}
	return res, outputs.Commit()
}

// hasCode reports whether a diagnostic has the code.
func hasCode(diags hcl.Diagnostics, code diag.Code) bool {
	for _, d := range diags {
		if diag.Of(d) == code {
			return true
		}
	}
	return false
}

// Files lists the files to format: the contract files (lang.FileSuffix)
// directly in each directory of paths, sorted, and each file named, each
// once. A named file without the suffix, or a directory without contract
// files, is an error.
func Files(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[filepath.Clean(f)] {
			seen[filepath.Clean(f)] = true
			out = append(out, f)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if !strings.HasSuffix(p, lang.FileSuffix) {
				return nil, fmt.Errorf("%s is not a contract file (*%s)", p, lang.FileSuffix)
			}
			add(p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), lang.FileSuffix) {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s holds no *%s file", p, lang.FileSuffix)
		}
		sort.Strings(names)
		for _, n := range names {
			add(filepath.Join(p, n))
		}
	}
	return out, nil
}

// Tree lists root and every directory below it that holds contract files
// (lang.FileSuffix), in lexical order, for tenet fmt -r. Hidden
// directories (".git") and directories named testdata are skipped, as Go's
// tools skip them: they hold other tools' state and fixtures, such as
// contracts that are wrong on purpose. A tree without contract files is an
// error.
func Tree(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if len(lang.SourceFiles(path)) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no *%s file, nor do its subdirectories", root, lang.FileSuffix)
	}
	return dirs, nil
}
