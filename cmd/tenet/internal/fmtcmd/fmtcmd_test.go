package fmtcmd

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args []string
		want Options
		help bool
		err  string
	}{
		{args: []string{"."}, want: Options{Paths: []string{"."}}},
		{args: []string{"-check", "--diff", "-r", "a", "b"}, want: Options{Check: true, Diff: true, Tree: true, Paths: []string{"a", "b"}}},
		{args: []string{"--check", "-d", "--recursive", "--", "-weird", "-"}, want: Options{Check: true, Diff: true, Tree: true, Paths: []string{"-weird", "-"}}, err: "- (standard input) is one file: give it alone"},
		{args: []string{"-"}, want: Options{Paths: []string{"-"}}},
		{args: []string{"a", "-h"}, help: true},
		{args: nil, err: "name the contract files or directories to format (tenet fmt . for the current directory, - for standard input)"},
		{args: []string{"-r", "-"}, err: "-r walks directories and - reads standard input: give one of them"},
		{args: []string{"-check", "--check", "a"}, err: "-check given twice; give it once"},
		{args: []string{"-w", "a"}, err: "unknown flag: -w"},
	} {
		opt, help, err := Parse(c.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err || help != c.help {
			t.Errorf("Parse(%q): help %v, error %q; want %v, %q", c.args, help, got, c.help, c.err)
			continue
		}
		if err == nil && !help && (opt.Check != c.want.Check || opt.Diff != c.want.Diff || opt.Tree != c.want.Tree || !slices.Equal(opt.Paths, c.want.Paths)) {
			t.Errorf("Parse(%q) = %+v, want %+v", c.args, opt, c.want)
		}
	}
}
