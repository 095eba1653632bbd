package report

// Explain says which runs files name every run and how tenet explain
// reads one of them; without runs files (tenet eval without --out), how
// to write one first. The summary table ends with it.
func (f RunsFiles) Explain() string { return f.where() }
