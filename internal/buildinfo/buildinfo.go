// Package buildinfo says which tenet binary is running: the version of the
// build (a release tag, a pseudo-version, or a development build's VCS
// revision) and the toolchain that built it, read from the build
// information the Go linker embeds (runtime/debug.ReadBuildInfo).
//
// This is the tool's version, printed by `tenet version` and `tenet
// --version`. It is deliberately not what bundles and reports record: they
// record compiler.Version, a constant of the source tree, so that a bundle
// is byte-identical however and from which commit its tenet was built
// (docs/release.md, "Versions").
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Devel is the version of a build that carries no version: a test binary,
// a build without module or VCS information.
const Devel = "(devel)"

// linked is set at link time by release builds
// (-ldflags "-X github.com/tenetlang/tenet/internal/buildinfo.linked=v1.2.3",
// .goreleaser.yaml) and wins over the build information when non-empty. It
// is a variable only because -X can set nothing else; nothing assigns it.
var linked string

// LinkedVar is the -X path of the variable release builds set; a test
// checks that .goreleaser.yaml names it.
const LinkedVar = "github.com/tenetlang/tenet/internal/buildinfo.linked"

// Info is what a binary knows of its own build.
type Info struct {
	Version   string `json:"version"`                 // Version's result
	GoVersion string `json:"go"`                      // the toolchain, "go1.26.0"
	Platform  string `json:"platform"`                // the running binary's GOOS/GOARCH
	Revision  string `json:"revision,omitempty"`      // vcs.revision, when the build recorded one
	Time      string `json:"revision_time,omitempty"` // vcs.time, RFC 3339
	Modified  bool   `json:"modified,omitempty"`      // vcs.modified: built from a tree with uncommitted changes
}

// Current is the running binary's Info.
func Current() Info {
	bi, _ := debug.ReadBuildInfo()
	return From(bi, linked)
}

// From is the Info of a build with build information bi (nil when the
// binary has none) and the link-time version override (empty when none).
func From(bi *debug.BuildInfo, override string) Info {
	info := Info{Version: Version(bi), GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if override != "" {
		info.Version = override
	}
	if bi == nil {
		return info
	}
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// Version is the version of a build with build information bi:
//
//   - the main module's version when the go command recorded one: the tag
//     for `go install …@v1.2.3`, a pseudo-version for a build of an untagged
//     commit (the go command appends "+dirty" to a modified tree's; it is
//     appended here too when it is missing);
//   - otherwise, for a build from a checkout, "(devel)" and the revision's
//     first 12 hex digits, "+dirty" when the tree was modified:
//     "(devel) 0123456789ab+dirty";
//   - otherwise Devel (test binaries, builds with -buildvcs=false, a nil bi).
func Version(bi *debug.BuildInfo) string {
	if bi == nil {
		return Devel
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	dirty := ""
	if modified {
		dirty = "+dirty"
	}
	if v := bi.Main.Version; v != "" && v != Devel {
		if !strings.HasSuffix(v, "+dirty") {
			v += dirty
		}
		return v
	}
	if rev == "" {
		return Devel
	}
	return Devel + " " + rev[:min(12, len(rev))] + dirty
}
