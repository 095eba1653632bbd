package runs

import printnames "github.com/tenetlang/tenet/internal/names"

// Names in keys and reports are printed by internal/names; these are its
// functions under the names the rest of tenet has used.

// MaxNameWidth bounds what Printable and Safe show of a name, in characters.
const MaxNameWidth = printnames.MaxNameWidth

// LookAlikeGroup is names that look alike (LookAlikes).
type LookAlikeGroup = printnames.LookAlikeGroup

// Printable returns s as is when it reads unambiguously, else quoted with
// escapes, cut to MaxNameWidth characters (names.Printable).
func Printable(s string) string { return printnames.Printable(s) }

// Safe is Printable that also quotes an empty name and one holding '/',
// ':' or a space: for keys (names.Safe).
func Safe(s string) string { return printnames.Safe(s) }

// Cut cuts the middle of s to width characters (names.Cut).
func Cut(s string, width int) string { return printnames.Cut(s, width) }

// LookAlikes groups the names that look alike (names.LookAlikes).
func LookAlikes(ns []string) []LookAlikeGroup { return printnames.LookAlikes(ns) }
