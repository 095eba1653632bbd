package buildinfo

import (
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
)

func settings(kv ...string) []debug.BuildSetting {
	var s []debug.BuildSetting
	for i := 0; i < len(kv); i += 2 {
		s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
	}
	return s
}

func TestVersion(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "(devel)"},
		{"go install of a tag", &debug.BuildInfo{Main: debug.Module{Path: "github.com/tenetlang/tenet", Version: "v0.3.0"}}, "v0.3.0"},
		{"pseudo-version of an untagged commit", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.3.1-0.20261202164949-0123456789ab"},
			Settings: settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"),
		}, "v0.3.1-0.20261202164949-0123456789ab"},
		{"pseudo-version of a modified tree, +dirty recorded by go", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261202164949-0123456789ab+dirty"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "v0.0.0-20261202164949-0123456789ab+dirty"},
		{"version of a modified tree without +dirty", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261202164949-0123456789ab"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "v0.0.0-20261202164949-0123456789ab+dirty"},
		{"devel with a clean revision", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"),
		}, "(devel) 0123456789ab"},
		{"devel with a modified revision", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", rev, "vcs.modified", "true"),
		}, "(devel) 0123456789ab+dirty"},
		{"devel with a short revision", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "abc"),
		}, "(devel) abc"},
		{"devel without VCS (a test binary)", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"empty main version", &debug.BuildInfo{}, "(devel)"},
	} {
		if got := Version(tc.bi); got != tc.want {
			t.Errorf("%s: Version = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestFrom(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Version: "(devel)"},
		Settings:  settings("vcs.revision", "0123456789abcdef", "vcs.time", "2026-12-02T16:49:49Z", "vcs.modified", "true"),
	}
	want := Info{Version: "(devel) 0123456789ab+dirty", GoVersion: "go1.26.0", Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Revision: "0123456789abcdef", Time: "2026-12-02T16:49:49Z", Modified: true}
	if got := From(bi, ""); got != want {
		t.Errorf("From = %+v, want %+v", got, want)
	}
	// A release build's -X version wins over the build information.
	want.Version = "v0.3.0"
	if got := From(bi, "v0.3.0"); got != want {
		t.Errorf("From with override = %+v, want %+v", got, want)
	}
	// No build information: the running toolchain, no revision.
	if got, want := From(nil, ""), (Info{Version: Devel, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}); got != want {
		t.Errorf("From(nil) = %+v, want %+v", got, want)
	}
}

// TestCurrentInATestBinary: go test records no module version and, by
// default, no VCS information, so what runs under tests (the CLI goldens
// included) sees Devel, whichever commit is checked out.
func TestCurrentInATestBinary(t *testing.T) {
	if linked != "" {
		t.Skipf("built with -X %s=%s", LinkedVar, linked)
	}
	if bi, _ := debug.ReadBuildInfo(); bi != nil && slices.ContainsFunc(bi.Settings, func(s debug.BuildSetting) bool { return s.Key == "vcs.revision" }) {
		t.Skip("built with VCS information (go test -buildvcs=true)")
	}
	if got := Current().Version; got != Devel {
		t.Errorf("Current().Version = %q in a test binary, want %q", got, Devel)
	}
}
