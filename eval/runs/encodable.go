package runs

import "io"

// Encodable reports why a runs file cannot hold r exactly (Read would
// reject its line or give back another record): the error Sorter.Add
// refuses r with. It is nil when r can be written and read back equal.
// eval/pipeline, which holds judged runs as values until they outgrow
// their memory budget and only then hands them to a Sorter, checks each
// run with it as it is judged, so that where a run is held changes no
// outcome.
func Encodable(r Record) error { return encodable(r) }

// EncodeLine writes rec's runs-file line, "\n" included, to w, as Write
// does; eval/runsort's Sorted.Line gives it on demand (the Sorter itself
// keeps its own binary encoding, not these lines).
func EncodeLine(w io.Writer, rec Record) error { return encodeLine(w, rec) }
