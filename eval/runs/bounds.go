package runs

// MaxAttempt and MaxRepetition bound a run's attempt and repetition
// numbers (docs/runs-format.md). Far above any evaluation (an attempt
// budget is a handful; repetitions are tens), they keep a single number
// from standing for billions of runs: a record with attempt 4,000,000,000
// is refused where it is read (Record.Validate: tenet report, compare and
// the runs writer) or judged (tenet eval: a bad record at file:line), before
// any output is written.
const (
	MaxAttempt    = 1_000_000
	MaxRepetition = 1_000_000
)
