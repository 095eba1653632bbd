package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// The script commands of testdata/cache_*.txtar: the compile cache's
// entries counted and corrupted, where a script cannot name them (their
// names are hashes).
func init() {
	scriptCmds["cache-entries"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: cache-entries DIR compile|verified N")
		}
		if n := len(cacheEntries(ts, args[0], args[1])); strconv.Itoa(n) != args[2] {
			ts.Fatalf("%s entries in %s: %d, want %s", args[1], args[0], n, args[2])
		}
	}
	scriptCmds["cache-corrupt"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: cache-corrupt DIR compile|verified")
		}
		for _, p := range cacheEntries(ts, args[0], args[1]) {
			data, err := os.ReadFile(p)
			ts.Check(err)
			data[len(data)-1] ^= 0x20 // a byte of the bundle, or of the id
			ts.Check(os.WriteFile(p, data, 0o600))
		}
	}
}

func cacheEntries(ts *testscript.TestScript, dir, kind string) []string {
	var out []string
	filepath.WalkDir(filepath.Join(ts.MkAbs(dir), kind), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}
