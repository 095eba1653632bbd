// Package pipeline is tenet's file pipeline: it judges transcript files
// with one or more programs and gives back, per program, the judged runs
// in key order, the bad records in input order and the counts of what was
// skipped.
//
// It takes eval.Programs, transcript files and Options (workers, memory
// budget of the judged runs, bad records kept, progress, cancellation).
// One pass per transcript format frames the records (eval/transcript's
// bounded reader), workers decode and judge them (eval.Program.Judge), and
// one collector records every outcome in input order, so a Result does not
// depend on the number of workers. SortResults then yields the judged runs
// of every Result in key order — as the values judged, or from a
// runsort.Sorter once they outgrow the budget — merged with kmerge.New, the
// one k-way merge, and adds the duplicate keys it finds to the Results'
// errors.
//
// It may import eval, eval/run, eval/runs, eval/transcript,
// compiler/bundle and internal/kmerge; nothing in eval imports it. The pipeline is described
// in docs/performance.md, "The evaluation pipeline".
package pipeline
