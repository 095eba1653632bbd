package diag

import "github.com/hashicorp/hcl/v2"

// langCodes are the codes of diagnostics produced while reading contract
// files (package lang).
var langCodes = []Info{
	{Code: "hcl-syntax", Severity: hcl.DiagError, Title: "HCL syntax error", Doc: "The file is not valid HCL; the message says what the parser expected."},
}
