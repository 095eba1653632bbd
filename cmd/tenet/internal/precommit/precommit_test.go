package precommit

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestDirs(t *testing.T) {
	for _, tc := range []struct {
		files, want []string
	}{
		{nil, []string{}},
		{[]string{"contract.tenet.hcl"}, []string{"."}},
		{
			[]string{"contracts/b/x.tenet.hcl", "contracts/a/y.tenet.hcl", "contracts/b/z.tenet.hcl", "./contracts/a//w.tenet.hcl"},
			[]string{"contracts/a", "contracts/b"},
		},
		{[]string{"/abs/c/main.tenet.hcl", "/abs/c/tools.tenet.hcl"}, []string{"/abs/c"}},
	} {
		var want []string
		for _, w := range tc.want {
			want = append(want, filepath.FromSlash(w))
		}
		var files []string
		for _, f := range tc.files {
			files = append(files, filepath.FromSlash(f))
		}
		if got := Dirs(files); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("Dirs(%q) = %q, want %q", files, got, want)
		}
	}
}
