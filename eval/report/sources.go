package report

// Source is where one contract is written: its directory and the line of
// each invariant, for the formats that point at source lines (sarif,
// github). A gate's line is its GateResult's Range, relative to the Dir
// of the Source of its Contract.
type Source struct {
	Contract string // the contract's name
	// Dir is the contract directory as named on the command line; "" when
	// the contract was a bundle file, whose ranges are then shown relative
	// to the directory it was compiled from.
	Dir        string
	Invariants []InvariantSource // by name
}

// InvariantSource is one invariant's declaration: its severity and
// description, and the line of its first criterion (assert, or else its
// match or forbid pattern), relative to the contract directory.
type InvariantSource struct {
	Name, Description, Severity string
	File                        string
	Line, Column                int
}

// SourceOf returns the Source of the contract named contract, and false
// when the Document has none (tenet report without --contract).
func (d *Document) SourceOf(contract string) (Source, bool) {
	for _, s := range d.Sources {
		if s.Contract == contract {
			return s, true
		}
	}
	return Source{}, false
}

// Invariant returns the invariant called name of s.
func (s Source) Invariant(name string) (InvariantSource, bool) {
	for _, inv := range s.Invariants {
		if inv.Name == name {
			return inv, true
		}
	}
	return InvariantSource{}, false
}
