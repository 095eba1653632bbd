package markdown

import "testing"

func TestMdText(t *testing.T) {
	for in, want := range map[string]string{
		"gpt-4o":             "gpt-4o",
		"user_task_0":        "user_task_0",
		"_x_ *y*":            `\_x\_ \*y\*`,
		"a|b<script>":        `a\|b&lt;script&gt;`,
		"x & y":              "x &amp; y",
		"`code`":             "\\`code\\`",
		"[l](http://e)":      `\[l\](http://e)`,
		"$x$ ~y~ \\":         `\$x\$ \~y\~ \\`,
		"a\nb\r\tc":          "a b  c",
		"\x1b[31m\xff\u202e": "\uFFFD\\[31m\uFFFD\uFFFD",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"# h":    `\# h`,
		"- x":    `\- x`,
		"+ x":    `\+ x`,
		"12. x":  `12\. x`,
		"3) x":   `3\) x`,
		"2 runs": "2 runs",
		" #x":    `\#x`,
	} {
		if got := mdItem(in); got != want {
			t.Errorf("mdItem(%q) = %q, want %q", in, got, want)
		}
	}
}
