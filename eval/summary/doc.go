// Package summary computes, from judged runs, everything a report shows of
// them: each condition's metrics, the agreement with given labels, the
// invariant and failure-class counts, the violations with their
// witnesses, the authorization audit and the leaderboard (Results), with
// the lists of runs cut to a budget. Collector does it from runs given in
// key order, one condition at a time in memory; Collect from a slice.
// GateResult is the shape of a gate's outcome, which eval/gates computes
// from these Results.
//
// It is pure (no I/O, no global state) and imports only eval/metrics,
// eval/runs and compiler/bundle: eval/report, which renders Results,
// depends on neither CEL nor plotting through it.
package summary
