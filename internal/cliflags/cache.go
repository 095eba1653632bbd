package cliflags

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/cache"
)

// Cache is --no-cache, of the commands that open a contract (eval,
// report --contract, explain, inspect) and of check: without it, a
// contract directory compiled before by this binary is taken from the
// compile cache and a bundle file checked before is planned without its
// checks (compiler/cache, docs/performance.md "Cold start (issue 17)").
type Cache struct {
	Off bool
}

// Add declares --no-cache on cmd, and makes a relative $TENET_CACHE_DIR
// an error of cmd before it runs (exit 2) unless --no-cache is given:
// where there is no cache directory at all the command runs without the
// cache, but a directory named wrongly is the user's mistake, said rather
// than ignored.
func (f *Cache) Add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.Off, "no-cache", false, "neither read nor write the compile cache ("+cache.EnvDir+", an absolute path; default tenet/ in the user cache directory)")
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if prev != nil {
			if err := prev(c, args); err != nil {
				return err
			}
		}
		if _, err := cache.Dir(); !f.Off && errors.Is(err, cache.ErrRelativeDir) {
			return err
		}
		return nil
	}
}

// Cache is the cache the command reads and writes: nil with --no-cache,
// or when there is no cache directory or the binary cannot be read (then
// every contract is compiled and checked, as with --no-cache).
func (f *Cache) Cache() *cache.Cache {
	if f.Off {
		return nil
	}
	dir, err := cache.Dir()
	if err != nil {
		return nil
	}
	id, err := cache.Identity(fmt.Sprintf("tenet %s bundle format %d", compiler.Version, bundle.FormatVersion))
	if err != nil {
		return nil
	}
	return cache.New(dir, id)
}
