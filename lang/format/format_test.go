package format

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenetlang/tenet/lang"
)

// formatCases are inputs and their canonical layout.
var formatCases = []struct{ name, in, want string }{
	{
		name: "indentation and alignment",
		in: `contract "c" {
version="1"
    description   =   "x"
}
`,
		want: `contract "c" {
  version     = "1"
  description = "x"
}
`,
	},
	{
		name: "strings and heredocs are kept byte for byte",
		in: `task "t" {
      utility = <<-EOT
      a   ==  b   &&
        "${x}"  
    EOT
   prompt="  two  spaces  "
}
`,
		want: `task "t" {
  utility = <<-EOT
      a   ==  b   &&
        "${x}"  
    EOT
  prompt  = "  two  spaces  "
}
`,
	},
	{
		name: "objects, lists, calls and comments",
		in: `tool "x"{
params={a=string,b=list( string ),c=object({d=optional(int)})}
operation="read"   # trailing
resource = "a" // other
}



# comment
params {
	limits = {
	daily=1000
	currencies=["EUR","USD"]
	}
}
`,
		want: `tool "x" {
  params    = { a = string, b = list(string), c = object({ d = optional(int) }) }
  operation = "read" # trailing
  resource  = "a"    // other
}



# comment
params {
  limits = {
    daily      = 1000
    currencies = ["EUR", "USD"]
  }
}
`,
	},
	{
		name: "trailing spaces, final newline, byte order mark",
		in:   "\ufeffcontract \"c\" {   \n\n  version = \"1\"   \n}   ",
		want: "contract \"c\" {\n\n  version = \"1\"\n}\n",
	},
	{
		name: "windows line endings",
		in:   "contract \"c\" {\r\n    version = \"1\"\r\n}\r\n",
		want: "contract \"c\" {\r\n  version = \"1\"\r\n}\r\n",
	},
	{
		name: "operators",
		in:   "params {\n  a = -1\n  b = 1 - -2\n  c = [for x in [1]: x]\n  d = !true\n  e = [1][0]\n}\n",
		want: "params {\n  a = -1\n  b = 1 - -2\n  c = [for x in [1] : x]\n  d = !true\n  e = [1][0]\n}\n",
	},
	{
		name: "a last comment without newline",
		in:   "contract \"c\" {}   # x",
		want: "contract \"c\" {} # x\n",
	},
	{
		name: "a last comment with trailing spaces",
		in:   "contract \"c\" {}   # x  ",
		want: "contract \"c\" {} # x  \n",
	},
	{
		name: "empty",
		in:   "",
		want: "",
	},
	{
		name: "only spaces",
		in:   "  \t ",
		want: "",
	},
}

func TestFormat(t *testing.T) {
	for _, tt := range formatCases {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := Format([]byte(tt.in), "a.tenet.hcl")
			checkDiags(t, diags)
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			again, _ := Format(got, "a.tenet.hcl")
			if string(again) != string(got) {
				t.Errorf("not idempotent:\n%s", again)
			}
		})
	}
}

func TestFormatErrors(t *testing.T) {
	got, diags := Format([]byte("contract \"c\" {\n  version = \"1\"\n"), "x/a.tenet.hcl")
	if got != nil {
		t.Errorf("output %q", got)
	}
	checkDiags(t, diags, `[hcl-syntax] x/a.tenet.hcl:1:14-1:15: Unclosed configuration block: There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.`)

	got, diags = Format([]byte("params {\n  x = "+nested(lang.MaxNesting+1)+"\n}\n"), "a.tenet.hcl")
	if got != nil {
		t.Errorf("output %q", got)
	}
	checkDiags(t, diags, `[nesting-too-deep] a.tenet.hcl:2:134-2:135: Nesting too deep: Brackets, braces and parentheses nest more than 128 levels deep here; tenet refuses such files.`)

	// Format does not check blocks.
	got, diags = Format([]byte("contrct  \"c\" {}\n"), "a.tenet.hcl")
	checkDiags(t, diags)
	if string(got) != "contrct \"c\" {}\n" {
		t.Errorf("got %q", got)
	}
}

// TestShippedContractsFormatted: every contract file in the repository is
// in canonical layout.
func TestShippedContractsFormatted(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../testdata/*/*.tenet.hcl", "../../contracts/*/*/*.tenet.hcl", "../../examples/*/*.tenet.hcl", "../../examples/*/*/*.tenet.hcl"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no contract files found")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, diags := Format(src, f)
		checkDiags(t, diags)
		if string(got) != string(src) {
			t.Errorf("%s is not formatted", f)
		}
	}
}
