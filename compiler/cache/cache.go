// Package cache keeps, on disk, what a tenet binary need not compute
// twice: the bundle compiled from a contract directory whose sources have
// not changed (Bundle, Put), and the ids of the bundles whose load checks
// it has made in full (Verified, MarkVerified). Every entry is keyed by
// the binary's identity (Identity: its Go build id), so that another
// tenet, or the same one rebuilt, never reads an entry it did not write.
//
// The directory is $TENET_CACHE_DIR, else tenet/ under os.UserCacheDir
// (Dir). Entries are written to a temporary file and renamed into place,
// so that a reader sees a whole entry or none, whatever other processes
// write at the same time; a compiled bundle is read back only when its
// sha256 and length are the ones recorded with it, so that a truncated or
// corrupted entry is a miss (and is rewritten), never trusted. A failed
// write is ignored: the cache only saves work, it never decides a result.
//
// It imports internal/readlimit and lang (the sources of a Module) only.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tenetlang/tenet/internal/readlimit"
	"github.com/tenetlang/tenet/lang"
)

// EnvDir names the environment variable that sets the cache directory.
const EnvDir = "TENET_CACHE_DIR"

// ErrRelativeDir is Dir's error for a relative $TENET_CACHE_DIR: it would
// put the cache under whatever directory each command runs in (a cache per
// checkout, in the checkout), so it is refused as Go refuses a relative
// GOCACHE.
var ErrRelativeDir = errors.New("not an absolute path")

// Dir is the cache directory: $TENET_CACHE_DIR when set and not empty (an
// absolute path, else ErrRelativeDir), else tenet/ under the user cache
// directory (os.UserCacheDir; an error when it has none, as when $HOME is
// unset).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("%s=%q: %w", EnvDir, d, ErrRelativeDir)
		}
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tenet"), nil
}

// Cache is one cache directory, read and written for one binary.
type Cache struct {
	dir      string
	identity string
}

// New returns the cache in dir for the binary whose identity is identity
// (Identity, or any string that changes whenever what tenet compiles or
// checks could change).
func New(dir, identity string) *Cache { return &Cache{dir: dir, identity: identity} }

// maxBundle bounds the bundle bytes of an entry, as bundle.MaxFileBytes
// bounds a bundle file (64 MiB); maxEntry adds room for the manifest.
const (
	maxBundle = 64 << 20
	maxEntry  = maxBundle + 16<<20
)

// magic starts every compile entry; a change of the entry's layout
// changes it, so that an old entry is a miss. The entry is magic, the
// sha256 of the rest (hex) and a newline, the manifest (JSON) and a
// newline, and the bundle file's bytes.
const magic = "tenet compile cache 1\n"

// manifest is what a compile entry records besides the bundle: the
// sources it was compiled from. Dirs are the directories the compile
// listed (relative to the root, slash-separated) with the contract files
// each held; Files every contract file it read with the sha256 of its
// bytes. An entry is a hit only when all are as recorded.
type manifest struct {
	Identity     string   `json:"identity"`
	Root         string   `json:"root"`
	Dirs         []dirRec `json:"dirs"`
	Files        []file   `json:"files"`
	BundleSHA256 string   `json:"bundle_sha256"`
	BundleBytes  int      `json:"bundle_bytes"`
}

type dirRec struct {
	Path  string   `json:"path"`
	Names []string `json:"names"`
}

type file struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// entryPath is where the entry of kind for key lives: two levels, so that
// no directory holds too many files.
func (c *Cache) entryPath(kind string, key ...string) string {
	h := sha256.New()
	for _, k := range append([]string{c.identity, kind}, key...) {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	sum := hex.EncodeToString(h.Sum(nil))
	return filepath.Join(c.dir, kind, sum[:2], sum)
}

// root is the absolute form of a contract directory, the key of its entry
// (the same sources elsewhere are another entry: paths in diagnostics and
// messages are relative to the directory, but its name is not).
func root(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	return abs
}

// Bundle returns the bundle file bytes Put stored for the contract
// directory dir, when the entry is whole (its recorded sha256 and length)
// and every directory and contract file it was compiled from is unchanged:
// the same contract files in each directory, each with the same bytes.
func (c *Cache) Bundle(dir string) ([]byte, bool) {
	data, err := readlimit.ReadFile(c.entryPath("compile", root(dir)), maxEntry)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, []byte(magic))
	if !ok {
		return nil, false
	}
	sum, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || string(sum) != hexSum(rest) {
		return nil, false
	}
	head, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, false
	}
	var m manifest
	if json.Unmarshal(head, &m) != nil || m.Identity != c.identity || m.Root != root(dir) ||
		len(body) != m.BundleBytes || hexSum(body) != m.BundleSHA256 {
		return nil, false
	}
	for _, d := range m.Dirs {
		names, err := contractFiles(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if err != nil || !slices.Equal(names, d.Names) {
			return nil, false
		}
	}
	for _, f := range m.Files {
		b, err := readlimit.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)), lang.MaxFileBytes)
		if err != nil || hexSum(b) != f.SHA256 {
			return nil, false
		}
	}
	return body, true
}

// Put stores data, the bundle file compiled from m, the module lang.ParseDir
// read from dir, with its imports. Only a compile without diagnostics
// should be stored: a hit prints none.
func (c *Cache) Put(dir string, m *lang.Module, data []byte) error {
	if len(data) > maxBundle {
		return errors.New("bundle too large to cache")
	}
	man := manifest{Identity: c.identity, Root: root(dir), BundleSHA256: hexSum(data), BundleBytes: len(data)}
	for _, x := range append([]*lang.Module{m}, m.Imported()...) {
		rel, err := filepath.Rel(dir, x.Dir)
		if err != nil {
			return err
		}
		rec := dirRec{Path: filepath.ToSlash(rel)}
		for _, f := range x.Files {
			rec.Names = append(rec.Names, path.Base(f.Path))
			man.Files = append(man.Files, file{Path: f.Path, SHA256: hexSum(f.Bytes)})
		}
		slices.Sort(rec.Names)
		man.Dirs = append(man.Dirs, rec)
	}
	head, err := json.Marshal(man)
	if err != nil {
		return err
	}
	rest := append(append(head, '\n'), data...)
	entry := append(append([]byte(magic+hexSum(rest)), '\n'), rest...)
	return c.write(c.entryPath("compile", man.Root), entry)
}

// contractFiles lists the names of the contract files directly inside dir
// as lang.ParseDir reads them (every entry but a directory whose name ends
// in lang.FileSuffix), sorted.
func contractFiles(dir string) ([]string, error) {
	entries, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), lang.FileSuffix) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// verifiedRecord is the content of a verified entry: it names what it
// vouches for, so that an entry under the wrong name vouches for nothing.
func (c *Cache) verifiedRecord(id string) []byte {
	return []byte("tenet verified 1\n" + c.identity + "\n" + id + "\n")
}

// Verified says whether MarkVerified recorded the bundle id: this binary
// made every load check on the bundle with that id (eval.Plan) and none
// refused it.
func (c *Cache) Verified(id string) bool {
	b, err := readlimit.ReadFile(c.entryPath("verified", id), 4096)
	return err == nil && bytes.Equal(b, c.verifiedRecord(id))
}

// MarkVerified records that the bundle id passed every load check.
func (c *Cache) MarkVerified(id string) error {
	return c.write(c.entryPath("verified", id), c.verifiedRecord(id))
}

// write writes an entry whole: to a temporary file in its directory, then
// renamed over the entry (atomic on POSIX file systems), so that readers
// and concurrent writers never see part of one. The directories are the
// user's own (0o700): an entry is trusted as the binary is.
func (c *Cache) write(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
