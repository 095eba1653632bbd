package version

import (
	"strings"
	"testing"

	"github.com/tenetlang/tenet/internal/buildinfo"
)

func TestWriteText(t *testing.T) {
	base := Report{Compiler: "0.1.0", BundleFormat: 2, CELGo: "v0.33.2"}
	for _, tc := range []struct {
		info buildinfo.Info
		want string
	}{
		{
			buildinfo.Info{Version: "v0.3.0", GoVersion: "go1.26.0", Platform: "linux/arm64"},
			"tenet v0.3.0\ncompiler: 0.1.0 (bundle format 2, cel-go v0.33.2)\ngo: go1.26.0 linux/arm64\n" +
				"revision: not recorded (a build from the module cache or without VCS information)\n",
		},
		{
			buildinfo.Info{Version: "v0.0.0-20261202170425-b9d3d5e08e7c+dirty", GoVersion: "go1.26.8", Platform: "darwin/amd64",
				Revision: "b9d3d5e08e7c5e0e298909a120d9282e4ad6f46a", Time: "2026-12-02T17:04:25Z", Modified: true},
			"tenet v0.0.0-20261202170425-b9d3d5e08e7c+dirty\ncompiler: 0.1.0 (bundle format 2, cel-go v0.33.2)\ngo: go1.26.8 darwin/amd64\n" +
				"revision: b9d3d5e08e7c5e0e298909a120d9282e4ad6f46a 2026-12-02T17:04:25Z (modified)\n",
		},
		{
			buildinfo.Info{Version: "(devel) b9d3d5e08e7c", GoVersion: "go1.26.8", Platform: "windows/amd64", Revision: "b9d3d5e08e7c"},
			"tenet (devel) b9d3d5e08e7c\ncompiler: 0.1.0 (bundle format 2, cel-go v0.33.2)\ngo: go1.26.8 windows/amd64\nrevision: b9d3d5e08e7c\n",
		},
	} {
		r := base
		r.Info = tc.info
		var b strings.Builder
		r.WriteText(&b)
		if b.String() != tc.want {
			t.Errorf("WriteText(%+v):\n%s\nwant:\n%s", tc.info, b.String(), tc.want)
		}
	}
}
