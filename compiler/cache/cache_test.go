package cache

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tenetlang/tenet/lang"
)

// sources copies the banking contract and the directory it imports
// (../../common) into a temporary tree and parses it (lang.ParseDir, as a
// compile reads it); it returns the contract directory and its module.
func sources(t *testing.T) (string, *lang.Module) {
	t.Helper()
	tmp := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "contracts", "agentdojo", "banking"), filepath.Join(tmp, "agentdojo", "banking"))
	copyDir(t, filepath.Join("..", "..", "contracts", "common"), filepath.Join(tmp, "common"))
	dir := filepath.Join(tmp, "agentdojo", "banking")
	return dir, parse(t, dir)
}

func parse(t *testing.T, dir string) *lang.Module {
	t.Helper()
	m, diags := lang.ParseDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(m.Imported()) != 1 {
		t.Fatalf("want the banking contract to import one directory, got %d", len(m.Imported()))
	}
	return m
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), lang.FileSuffix) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// bundleBytes stands for a compiled bundle: the cache stores bytes and
// never decodes them.
var bundleBytes = []byte("TNB bundle bytes\x00\x01\x02 as compiled")

func wantHit(t *testing.T, c *Cache, dir string, want []byte) {
	t.Helper()
	got, ok := c.Bundle(dir)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("Bundle(%s) = %q, %v; want %q, true", dir, got, ok, want)
	}
}

func wantMiss(t *testing.T, c *Cache, dir string) {
	t.Helper()
	if got, ok := c.Bundle(dir); ok {
		t.Fatalf("Bundle(%s) = %q, true; want a miss", dir, got)
	}
}

func TestMissThenHit(t *testing.T) {
	dir, m := sources(t)
	c := New(t.TempDir(), "binary A")
	wantMiss(t, c, dir)
	if err := c.Put(dir, m, bundleBytes); err != nil {
		t.Fatal(err)
	}
	wantHit(t, c, dir, bundleBytes)
	// A relative spelling of the same directory is the same entry.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantHit(t, c, rel, bundleBytes)
	// Another binary never reads it.
	wantMiss(t, New(c.dir, "binary B"), dir)
}

// TestChangedSourcesMiss: any change to what the compile read — a byte of
// a file, of a file of the imported directory, a contract file added or
// removed in either — is a miss; other files are not read.
func TestChangedSourcesMiss(t *testing.T) {
	common := func(dir string) string { return filepath.Join(dir, "..", "..", "common") }
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		hit    bool
	}{
		{"a byte of a file", func(t *testing.T, dir string) { appendTo(t, filepath.Join(dir, "tasks.tenet.hcl"), " ") }, false},
		{"a byte of an imported file", func(t *testing.T, dir string) { appendTo(t, filepath.Join(common(dir), "invariants.tenet.hcl"), "\n") }, false},
		{"a file added", func(t *testing.T, dir string) { appendTo(t, filepath.Join(dir, "new.tenet.hcl"), "") }, false},
		{"a file added to the imported directory", func(t *testing.T, dir string) { appendTo(t, filepath.Join(common(dir), "more.tenet.hcl"), "") }, false},
		{"a file removed", func(t *testing.T, dir string) { remove(t, filepath.Join(dir, "goals.tenet.hcl")) }, false},
		{"the imported directory removed", func(t *testing.T, dir string) { remove(t, common(dir)) }, false},
		{"a file that is no contract file", func(t *testing.T, dir string) { appendTo(t, filepath.Join(dir, "notes.txt"), "x") }, true},
		{"a subdirectory named like a contract file", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "sub.tenet.hcl"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, m := sources(t)
			c := New(t.TempDir(), "binary A")
			if err := c.Put(dir, m, bundleBytes); err != nil {
				t.Fatal(err)
			}
			tc.change(t, dir)
			if tc.hit {
				wantHit(t, c, dir, bundleBytes)
			} else {
				wantMiss(t, c, dir)
			}
		})
	}
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptEntry: an entry cut short, or with a byte changed anywhere,
// is a miss — never a bundle other than the one stored — and Put
// rewrites it.
func TestCorruptEntry(t *testing.T) {
	dir, m := sources(t)
	c := New(t.TempDir(), "binary A")
	if err := c.Put(dir, m, bundleBytes); err != nil {
		t.Fatal(err)
	}
	p := c.entryPath("compile", root(dir))
	whole, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := map[string][]byte{
		"empty":             {},
		"cut in the bundle": whole[:len(whole)-1],
		"cut in the header": whole[:len(magic)+10],
		"bundle byte":       flip(whole, len(whole)-3),
		"header byte":       flip(whole, 2),
		"manifest byte":     flip(whole, len(magic)+5),
		"bytes appended":    append(append([]byte(nil), whole...), "more"...),
	}
	for name, b := range corrupt {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			wantMiss(t, c, dir)
			if err := c.Put(dir, m, bundleBytes); err != nil {
				t.Fatal(err)
			}
			wantHit(t, c, dir, bundleBytes)
		})
	}
}

func flip(b []byte, i int) []byte {
	out := append([]byte(nil), b...)
	out[i] ^= 0x20
	return out
}

// TestConcurrent: processes (here goroutines) writing and reading one
// entry at once never read anything but a whole entry: each read is a
// miss or one of the bundles written, and no temporary file is left.
func TestConcurrent(t *testing.T) {
	dir, m := sources(t)
	cdir := t.TempDir()
	const writers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds*2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := New(cdir, "binary A") // one Cache per process
			mine := []byte(fmt.Sprintf("bundle of writer %d %s", w, bytes.Repeat([]byte{byte(w)}, 4096*w)))
			for range rounds {
				if err := c.Put(dir, m, mine); err != nil {
					errs <- err
				}
				if got, ok := c.Bundle(dir); ok && !strings.HasPrefix(string(got), "bundle of writer ") {
					errs <- fmt.Errorf("read %q, not a bundle written", got[:min(len(got), 40)])
				} else if ok {
					var n int
					fmt.Sscanf(string(got), "bundle of writer %d", &n)
					if want := fmt.Sprintf("bundle of writer %d %s", n, bytes.Repeat([]byte{byte(n)}, 4096*n)); string(got) != want {
						errs <- fmt.Errorf("read a bundle of writer %d of %d bytes, not the %d it wrote", n, len(got), len(want))
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, ok := New(cdir, "binary A").Bundle(dir); !ok {
		t.Error("no entry after the writes")
	}
	var temps []string
	filepath.WalkDir(cdir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			temps = append(temps, p)
		}
		return nil
	})
	if len(temps) > 0 {
		t.Errorf("temporary files left: %q", temps)
	}
}

func TestVerified(t *testing.T) {
	c := New(t.TempDir(), "binary A")
	const id, other = "sha256:" + "ab12", "sha256:" + "cd34"
	if c.Verified(id) {
		t.Fatal("verified before MarkVerified")
	}
	if err := c.MarkVerified(id); err != nil {
		t.Fatal(err)
	}
	if !c.Verified(id) || c.Verified(other) || New(c.dir, "binary B").Verified(id) {
		t.Fatalf("Verified(id) %v, Verified(other) %v, another binary's %v; want true, false, false",
			c.Verified(id), c.Verified(other), New(c.dir, "binary B").Verified(id))
	}
	// An entry that names another bundle vouches for nothing.
	if err := os.WriteFile(c.entryPath("verified", id), c.verifiedRecord(other), 0o600); err != nil {
		t.Fatal(err)
	}
	if c.Verified(id) {
		t.Fatal("an entry recording another id verified id")
	}
}

func TestDir(t *testing.T) {
	t.Setenv(EnvDir, "/some/where")
	if d, err := Dir(); err != nil || d != "/some/where" {
		t.Fatalf("Dir() = %q, %v with %s set", d, err, EnvDir)
	}
	for _, rel := range []string{"relcache", "./c", "../c", "~/c"} {
		t.Setenv(EnvDir, rel)
		d, err := Dir()
		want := EnvDir + "=\"" + rel + "\": not an absolute path"
		if d != "" || err == nil || err.Error() != want || !errors.Is(err, ErrRelativeDir) {
			t.Fatalf("Dir() = %q, %v with %s=%s; want %q", d, err, EnvDir, rel, want)
		}
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	t.Setenv("HOME", "/home/u")
	want := filepath.Join("/xdg", "tenet")
	if d, _ := os.UserCacheDir(); d != "/xdg" {
		want = filepath.Join(d, "tenet") // not Linux's rule
	}
	if d, err := Dir(); err != nil || d != want {
		t.Fatalf("Dir() = %q, %v; want %q", d, err, want)
	}
}

// TestIdentity: the running binary (this test's) has a build id, and
// reading it twice gives the same identity.
func TestIdentity(t *testing.T) {
	a, err := Identity("x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Identity("x")
	if a != b || !strings.Contains(a, " x ") || strings.HasSuffix(a, " ") {
		t.Fatalf("Identity = %q then %q", a, b)
	}
	if c, _ := Identity("y"); c == a {
		t.Fatalf("extra does not change the identity: %q", c)
	}
}
