package diag

import "github.com/hashicorp/hcl/v2"

// compilerCodes are the codes of diagnostics produced while checking a
// contract (package compiler).
var compilerCodes = []Info{
	{Code: "cel-syntax", Severity: hcl.DiagError, Title: "CEL syntax error", Doc: "The criterion is not valid CEL; the message says what the parser expected."},
}
