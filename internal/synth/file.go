package synth

import "github.com/tenetlang/tenet/internal/atomicfile"

// WriteFile is Write to the file path, atomically (atomicfile.Create): the
// file is replaced only once every run is written, and left as it was on
// any error.
func WriteFile(path string, n int, seed int64) (Stats, error) {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return Stats{}, err
	}
	defer f.Abort() // after Commit, a no-op
	st, err := Write(f, n, seed)
	if err != nil {
		return st, err
	}
	return st, f.Commit()
}
