package runs

import printnames "github.com/tenetlang/tenet/internal/names"

// Names in keys and reports are printed by internal/names (see there);
// these are its functions under the names the rest of tenet has used.

// MaxNameWidth bounds what Printable and Safe show of a name, in characters.
const MaxNameWidth = printnames.MaxNameWidth

// LookAlikeGroup is names that look alike (LookAlikes).
type LookAlikeGroup = printnames.LookAlikeGroup

// Printable is names.Printable: s, quoted when it could be misread, cut.
func Printable(s string) string { return printnames.Printable(s) }

// Safe is names.Safe: Printable for the parts of a key.
func Safe(s string) string { return printnames.Safe(s) }

// Cut is names.Cut: s with its middle cut to width characters.
func Cut(s string, width int) string { return printnames.Cut(s, width) }

// LookAlikes is names.LookAlikes: the groups of names that look alike.
func LookAlikes(ns []string) []LookAlikeGroup { return printnames.LookAlikes(ns) }
