package beampipe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// A run is all or nothing as far as its filesystem allows: the pipeline
// writes every shard and the report under a temporary name of its own
// (TempPath); after a pipeline that succeeded, Commit renames them (a copy
// then a removal where the filesystem has no rename), removes the shards
// an earlier run left at the prefix, writes the manifest and renames the
// report last; after a failure, Abort removes the temporaries, so that
// nothing at the prefix or the report changes.

// globChars are the characters a Beam filesystem's List reads as a glob.
const globChars = "*?[\\"

var runIDRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// NewRunID is a fresh Options.RunID: 16 random hex digits.
func NewRunID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// TempPath is where the run runID writes the file it publishes at path.
func TempPath(path, runID string) string { return path + ".tmp-" + runID }

// ManifestPath is the manifest of the runs shards at prefix: their paths,
// one a line, sorted (what tenet report is given).
func ManifestPath(prefix string) string { return prefix + ".shards" }

// shardName matches exactly the names ShardPath gives under prefix.
func shardName(prefix string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `-[0-9a-f]{16}\.jsonl$`)
}

// Committed is what Commit published.
type Committed struct {
	Shards   []string // the runs shards, sorted (the manifest's lines)
	Manifest string   // ManifestPath(Out)
	Removed  []string // the shards of an earlier run at Out, removed
}

// Commit publishes the files of the run o.RunID after its pipeline
// succeeded: each temporary shard renamed to its name, the shards at
// o.Out of an earlier run that this run did not write removed (their names
// are exactly ShardPath's, so they are tenet-beam's own), the manifest
// written, then the report renamed, last. An error leaves what it could
// not do undone (the temporaries of the steps not reached: Abort removes
// them).
func Commit(ctx context.Context, o Options) (Committed, error) {
	c := Committed{Manifest: ManifestPath(o.Out)}
	fs, err := filesystem.New(ctx, o.Out)
	if err != nil {
		return c, err
	}
	defer fs.Close()
	temps, err := list(ctx, fs, TempPath(o.Out+"-*.jsonl", o.RunID))
	if err != nil {
		return c, err
	}
	final := shardName(o.Out)
	for _, t := range temps {
		if s := strings.TrimSuffix(t, ".tmp-"+o.RunID); final.MatchString(s) {
			c.Shards = append(c.Shards, s)
		}
	}
	slices.Sort(c.Shards)
	old, err := list(ctx, fs, o.Out+"-*.jsonl")
	if err != nil {
		return c, err
	}
	for _, s := range c.Shards {
		if err := filesystem.Rename(ctx, fs, TempPath(s, o.RunID), s); err != nil {
			return c, fmt.Errorf("runs shard %s: %w", s, err)
		}
	}
	for _, s := range old {
		if !final.MatchString(s) || slices.Contains(c.Shards, s) {
			continue
		}
		rm, ok := fs.(filesystem.Remover)
		if !ok {
			return c, fmt.Errorf("runs shard %s of an earlier run: the filesystem cannot remove files; remove it, or give another --out", s)
		}
		if err := rm.Remove(ctx, s); err != nil {
			return c, fmt.Errorf("runs shard %s of an earlier run: %w", s, err)
		}
		c.Removed = append(c.Removed, s)
	}
	var manifest strings.Builder
	for _, s := range c.Shards {
		manifest.WriteString(s + "\n")
	}
	if err := writeFile(ctx, c.Manifest, []byte(manifest.String())); err != nil {
		return c, err
	}
	rfs, err := filesystem.New(ctx, o.Report)
	if err != nil {
		return c, err
	}
	defer rfs.Close()
	if err := filesystem.Rename(ctx, rfs, TempPath(o.Report, o.RunID), o.Report); err != nil {
		return c, fmt.Errorf("the report %s: %w", o.Report, err)
	}
	return c, nil
}

// Abort removes the temporary files of the run o.RunID (after its
// pipeline failed, or Commit did): nothing at o.Out or o.Report changes.
func Abort(ctx context.Context, o Options) error {
	var errs []error
	for _, glob := range []string{TempPath(o.Out+"-*.jsonl", o.RunID), TempPath(o.Report, o.RunID)} {
		fs, err := filesystem.New(ctx, glob)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		temps, err := list(ctx, fs, glob)
		rm, ok := fs.(filesystem.Remover)
		switch {
		case err != nil:
			errs = append(errs, err)
		case !ok && len(temps) > 0:
			errs = append(errs, fmt.Errorf("%s: the filesystem cannot remove files", temps[0]))
		case ok:
			for _, t := range temps {
				if err := rm.Remove(ctx, t); err != nil {
					errs = append(errs, err)
				}
			}
		}
		fs.Close()
	}
	return errors.Join(errs...)
}

// list is the files glob matches on fs, sorted.
func list(ctx context.Context, fs filesystem.Interface, glob string) ([]string, error) {
	names, err := fs.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", glob, err)
	}
	slices.Sort(names)
	return names, nil
}
