package tenet

import (
	"fmt"
	"os"
)

// UnsignedDirError is Open's error for a contract directory when the trust
// policy requires a signature: the bundle compiled from a directory
// carries none. The directory is refused before it is compiled.
type UnsignedDirError struct{ Dir string }

func (e *UnsignedDirError) Error() string {
	return fmt.Sprintf("%s is a contract directory, compiled here, and carries no signature: the trust policy accepts only signed bundles", e.Dir)
}

// Open opens a contract given as a path, as every tenet command that takes
// (DIR|X.tnb) does: a bundle file with OpenBundle, a contract directory
// with Build, its bundle then held to the trust policy like a file's (so
// its id is the one `tenet build` gives). Its errors are those of
// OpenBundle and Build, a malformed option's first, an *fs.PathError when
// path does not exist, and an *UnsignedDirError for a directory when
// TrustKeys (or a WithPolicy with keys) requires a signature. With
// WithCache, a directory's bundle comes from the cache when its sources
// are unchanged; then no diagnostics are handed to WithDiagnostics's
// function (the cache holds only compiles that had none).
func Open(path string, opts ...LoadOption) (*Bundle, error) {
	if c := configOf(opts); c.err != nil {
		return nil, c.err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return OpenBundle(path, opts...)
	}
	c := configOf(opts)
	if len(c.pol.Keys) > 0 {
		return nil, &UnsignedDirError{Dir: path}
	}
	if c.cache == nil {
		return Build(path, opts...)
	}
	if data, ok := c.cache.Bundle(path); ok {
		// An entry that does not decode is compiled again, as a miss.
		if b, err := LoadBundle(data); err == nil {
			if err := c.check(b.id, b.signers); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err) // as Build's
			}
			b.dir, b.consistent, b.cached, b.cache = path, true, true, c.cache
			return b, nil
		}
	}
	b, mod, err := build(path, opts)
	if err == nil && len(b.warnings) == 0 {
		c.cache.Put(path, mod, b.data) // a failed write only costs a compile next time
	}
	return b, err
}
