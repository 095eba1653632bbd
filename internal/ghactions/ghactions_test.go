package ghactions

import (
	"bytes"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		a    Annotation
		want string
	}{
		{Annotation{Level: Error, File: "c/main.tenet.hcl", Line: 12, Column: 3, Title: "[unknown-block] Unsupported block type", Message: "Blocks of type \"tsk\" are not expected here."},
			`::error file=c/main.tenet.hcl,line=12,col=3,title=[unknown-block] Unsupported block type::Blocks of type "tsk" are not expected here.`},
		// Properties escape , and : besides %, CR and LF; the message only
		// the last three.
		{Annotation{Level: Warning, File: "a,b:c.hcl", Line: 1, Title: "50% of a: b, c", Message: "line 1\r\nline 2: 100%, done"},
			`::warning file=a%2Cb%3Ac.hcl,line=1,title=50%25 of a%3A b%2C c::line 1%0D%0Aline 2: 100%25, done`},
		{Annotation{Level: Notice, Message: "no file"}, `::notice::no file`},
		// A column without a line, or a line without a file, says nothing.
		{Annotation{Level: Error, File: "f", Column: 4, Message: "m"}, `::error file=f::m`},
		{Annotation{Level: Error, Line: 4, Title: "t", Message: "m"}, `::error title=t::m`},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestWriteAndEnabled(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, []Annotation{{Level: Error, Message: "a"}, {Level: Warning, Message: "b"}}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "::error::a\n::warning::b\n" {
		t.Errorf("Write: %q", got)
	}
	for v, want := range map[string]bool{"true": true, "": false, "1": false, "false": false} {
		if got := Enabled(func(k string) string { return map[string]string{"GITHUB_ACTIONS": v}[k] }); got != want {
			t.Errorf("GITHUB_ACTIONS=%q: Enabled %v", v, got)
		}
	}
}
