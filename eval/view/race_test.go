//go:build race

package view

// raceEnabled: the race detector makes sync.Pool drop a quarter of the
// values it is given, on purpose (to find code that relies on reuse).
const raceEnabled = true
