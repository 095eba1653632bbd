// Package fuzzseed collects the inputs tenet's fuzz targets start from: the
// contracts, transcripts and runs files shipped in the repository (contracts/,
// examples/, lang/testdata) and those embedded in the CLI's golden scripts
// (testdata/*.txtar) and the hostile corpus (testdata/hostile). It is used
// by tests only.
package fuzzseed

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// Root returns the repository root: the nearest directory above the working
// directory that holds go.mod.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "."
		}
		dir = up
	}
}

// A Contract is one contract directory: its *.tenet.hcl files keyed by
// name, and where it came from.
type Contract struct {
	From  string
	Files map[string][]byte
}

// Source returns the contract's files concatenated in name order, as one
// file (use blocks then name directories that do not exist).
func (c Contract) Source() []byte {
	names := make([]string, 0, len(c.Files))
	for n := range c.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []byte
	for _, n := range names {
		out = append(out, c.Files[n]...)
		out = append(out, '\n')
	}
	return out
}

// Contracts returns every contract of the repository: the directories of
// contracts/, examples/ and lang/testdata holding *.tenet.hcl files, and
// the contract directories inside testdata/*.txtar, in a stable order.
func Contracts() []Contract {
	root := Root()
	byDir := map[string]map[string][]byte{}
	for _, top := range []string{"contracts", "examples", "lang/testdata", "testdata/hostile"} {
		filepath.WalkDir(filepath.Join(root, top), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tenet.hcl") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			dir, _ := filepath.Rel(root, filepath.Dir(p))
			if byDir[dir] == nil {
				byDir[dir] = map[string][]byte{}
			}
			byDir[dir][filepath.Base(p)] = b
			return nil
		})
	}
	for _, a := range archives() {
		for _, f := range a.ar.Files {
			if !strings.HasSuffix(f.Name, ".tenet.hcl") {
				continue
			}
			dir := a.name + ":" + path.Dir(f.Name)
			if byDir[dir] == nil {
				byDir[dir] = map[string][]byte{}
			}
			byDir[dir][path.Base(f.Name)] = f.Data
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	out := make([]Contract, len(dirs))
	for i, d := range dirs {
		out[i] = Contract{From: d, Files: byDir[d]}
	}
	return out
}

// Files returns the contents of every file whose name ends in suffix
// inside testdata/*.txtar, and under the repository directories dirs
// (relative to the root), in a stable order. Files over 1 MiB are left
// out: fuzzing starts from small inputs.
func Files(suffix string, dirs ...string) [][]byte {
	const maxSize = 1 << 20
	var out [][]byte
	for _, a := range archives() {
		for _, f := range a.ar.Files {
			if strings.HasSuffix(f.Name, suffix) && len(f.Data) <= maxSize {
				out = append(out, f.Data)
			}
		}
	}
	root := Root()
	for _, top := range dirs {
		var paths []string
		filepath.WalkDir(filepath.Join(root, top), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, suffix) {
				if st, err := d.Info(); err == nil && st.Size() <= maxSize {
					paths = append(paths, p)
				}
			}
			return nil
		})
		sort.Strings(paths)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, b)
			}
		}
	}
	return out
}

type archive struct {
	name string
	ar   *txtar.Archive
}

// archives parses testdata/*.txtar at the repository root.
func archives() []archive {
	paths, _ := filepath.Glob(filepath.Join(Root(), "testdata", "*.txtar"))
	sort.Strings(paths)
	var out []archive
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		out = append(out, archive{filepath.Base(p), ar})
	}
	return out
}
