package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteTable writes the Document as plain-text tables, the default format
// of every command (docs/cli.md):
//
//   - eval: per contract "contract NAME VERSION  BUNDLE" and what happened
//     to its records, then the results below;
//   - report: "N runs from M files", then the results: metrics
//     (WriteMetrics), agreement (WriteAgreement), invariants and failure
//     classes (WriteChecks), the authorization audit (WriteAudit), gates
//     (WriteGates) and, for several contracts, the leaderboard;
//   - compare: "N runs from M files" and the comparison (WriteComparison);
//   - test: "FAIL" per failed test with its problems ("ok" per passed test
//     with ListPassed), and a summary line (writeTestsTable).
//
// Under --cases observed, the metrics are followed by one "cases: observed
// — …" line per condition (CasesLine).
// Failures and Errors are not repeated here: the CLI prints them on stderr.
// Warnings (look-alike names) end the report, under "warnings".
func WriteTable(w io.Writer, d *Document) error {
	bw := bufio.NewWriter(w)
	switch d.Command {
	case CommandTest:
		writeTestsTable(bw, d)
		return bw.Flush()
	case CommandCompare:
		fmt.Fprintf(bw, "%s\n\n", InputsLine(d))
		if d.Comparison != nil {
			if err := WriteComparison(bw, *d.Comparison, d.RunsFiles); err != nil {
				return err
			}
		}
		return bw.Flush()
	case CommandReport:
		fmt.Fprintln(bw, InputsLine(d))
	default:
		for _, c := range d.Contracts {
			fmt.Fprintf(bw, "contract %s  %s\n", strings.TrimSpace(c.Name+" "+c.Version), c.Bundle)
			writeStats(bw, c)
		}
		writeUnselected(bw, d)
		if line := ShardLine(d); line != "" {
			fmt.Fprintln(bw, line)
		}
	}
	if len(d.Conditions) > 0 {
		fmt.Fprintln(bw, "\nmetrics (docs/metrics.md; rate (numerator/denominator))")
		if err := WriteMetrics(bw, d.Conditions); err != nil {
			return err
		}
		if len(d.Cases) > 0 {
			fmt.Fprintln(bw)
			for _, line := range d.Cases {
				fmt.Fprintln(bw, line)
			}
		}
	}
	if d.Agreement != nil {
		fmt.Fprintln(bw, "\nagreement with given labels")
		if err := WriteAgreement(bw, d.Agreement, d.RunsFiles); err != nil {
			return err
		}
	}
	for _, write := range []func() error{
		func() error { return WriteChecks(bw, d.Checks, d.RunsFiles) },
		func() error { return WriteAudit(bw, d.Audit, d.RunsFiles) },
		func() error { return WriteGates(bw, d.Gates) },
	} {
		if err := write(); err != nil {
			return err
		}
	}
	if d.Leaderboard != nil {
		if err := WriteLeaderboard(bw, d.Leaderboard); err != nil {
			return err
		}
	}
	WriteProfiles(bw, d.Profiles)
	if len(d.Warnings) > 0 {
		fmt.Fprintln(bw, "\nwarnings")
		for _, w := range d.Warnings {
			fmt.Fprintf(bw, "  %s\n", w)
		}
	}
	return bw.Flush()
}

// InputsLine is "N runs from M files".
func InputsLine(d *Document) string {
	files := "files"
	if len(d.Inputs) == 1 {
		files = "file"
	}
	return fmt.Sprintf("%s from %d %s", Count(d.Runs, "run"), len(d.Inputs), files)
}

// writeStats says what happened to every record a contract read.
func writeStats(w io.Writer, c Contract) {
	skipped := 0
	for _, s := range c.Skipped {
		skipped += s.Count
	}
	fmt.Fprintf(w, "%s judged, %s skipped, %s without messages\n", Count(c.Judged, "run"),
		Pluralize(skipped, "record", "records"), Pluralize(c.Headers, "header line", "header lines"))
	for _, s := range c.Skipped {
		line := fmt.Sprintf("  %d %s", s.Count, s.Reason)
		if len(s.IDs) > 0 {
			var parts []string
			for _, id := range s.IDs {
				parts = append(parts, fmt.Sprintf("%s ×%d", ShownName(id.ID), id.Count))
			}
			if s.MoreIDs > 0 {
				parts = append(parts, fmt.Sprintf("… and %d more ids", s.MoreIDs))
			}
			line += ": " + strings.Join(parts, ", ")
		}
		fmt.Fprintln(w, line)
	}
}

// writeTestsTable writes "FAIL  NAME (file:line)" and its problems per
// failed test ("ok    NAME" per passed test too with ListPassed), then
// "N tests: P passed, F failed". With several contracts, each contract's
// tests come under a "contract NAME" heading with their own count line
// ("no tests run" for none), and a total line ends the table.
func writeTestsTable(w io.Writer, d *Document) {
	if len(d.Contracts) <= 1 {
		writeTests(w, d.Tests, d.ListPassed)
		return
	}
	failed := 0
	for _, c := range d.Contracts {
		var tests []TestResult
		for _, t := range d.Tests {
			if t.Contract == c.Name {
				tests = append(tests, t)
			}
		}
		fmt.Fprintf(w, "contract %s\n", c.Name)
		if len(tests) == 0 {
			fmt.Fprintln(w, "no tests run")
			continue
		}
		failed += writeTests(w, tests, d.ListPassed)
	}
	fmt.Fprintf(w, "total: %s in %s: %d passed, %d failed\n", Count(len(d.Tests), "test"), Count(len(d.Contracts), "contract"), len(d.Tests)-failed, failed)
}

// writeTests writes tests and their count line, and returns how many
// failed.
func writeTests(w io.Writer, tests []TestResult, listPassed bool) int {
	failed := 0
	for _, t := range tests {
		if t.Passed {
			if listPassed {
				fmt.Fprintf(w, "ok    %s\n", t.Name)
			}
			continue
		}
		failed++
		if t.OriginFile != "" {
			fmt.Fprintf(w, "FAIL  %s (%s:%d)\n", t.Name, t.OriginFile, t.OriginLine)
		} else {
			fmt.Fprintf(w, "FAIL  %s\n", t.Name)
		}
		for _, p := range t.Problems {
			fmt.Fprintf(w, "      %s\n", p)
		}
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed\n", Count(len(tests), "test"), len(tests)-failed, failed)
	return failed
}

// Pluralize renders "1 record", "2 records" with an irregular plural.
func Pluralize(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
