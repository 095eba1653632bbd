//go:build !go1.27

package literal

import textseg "github.com/apparentlymart/go-textseg/v15/textseg"

// scanGraphemeCluster is the grapheme segmentation HCL itself uses to count
// columns; hcl v2.25 picks the Unicode 15 tables before Go 1.27 and the
// Unicode 17 ones from Go 1.27 on, and so do we, so that our columns agree
// with HCL's own diagnostics.
var scanGraphemeCluster = textseg.ScanGraphemeClusters
