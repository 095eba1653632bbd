package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/eval"
	"github.com/tenetlang/tenet/eval/assemble"
	"github.com/tenetlang/tenet/eval/metrics"
	"github.com/tenetlang/tenet/eval/report"
	"github.com/tenetlang/tenet/eval/runs"
)

func reportCmd() *cobra.Command {
	var unknown, contract string
	var maxRecord int
	var rf reportFlags
	var trust trustFlags
	cmd := &cobra.Command{
		Use:   "report [--contract DIR|X.tnb] RUNS.jsonl...",
		Short: "Recompute metrics from runs files (labels from tenet or any harness)",
		Long: `Recompute the metrics of DESIGN §7 from runs files (docs/runs-format.md):
labels written by 'tenet eval --out' or by any other harness. Invalid files
are refused with file:line and the run named: exit 2.

Without --contract the task and case sets are those present in the files.
With --contract (a contract directory, a directory of contracts, or a
bundle) they are the contract's, so a missing run is an error, and the
contract's gates are evaluated: a failed requirement exits 1. Runs of
another contract, and runs judged by another bundle than the contract's,
are refused, and a gate that lists a condition with no runs is an error:
exit 2. A run without a bundle field (labels from another harness) is
refused under --verify-key, TENET_VERIFY_KEY or --expect-bundle-id, and
otherwise counted in a warning.

--verify-key (or TENET_VERIFY_KEY) needs --contract with a signed bundle:
a runs file carries no signature, so without --contract it is an error.
--expect-bundle-id without --contract refuses every run whose bundle
field is not one of the ids. See docs/bundle.md, "Signing".

Unknown labels make the metrics of their condition refuse (exit 2), unless
--unknown=bounds: then every rate is reported as the interval over all
assignments of the unknown labels, with the number of unknowns it reads.
See docs/metrics.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkUnknownFlag(unknown); err != nil {
				return err
			}
			if err := checkInputs(args); err != nil {
				return err
			}
			inputs := args
			if contract != "" {
				inputs = append(append([]string{contract}, args...), contractFiles(contract)...)
			}
			if err := rf.check(inputs); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			if maxRecord < 1 {
				return fmt.Errorf("--max-record-bytes %d: want at least 1", maxRecord)
			}
			// The trust flags are checked before any runs file is read: a
			// key that cannot apply is a usage error, whatever the runs.
			var pol bundle.Policy
			var err error
			if contract == "" {
				pol, err = trust.runsPolicy("To verify them, report with --contract X.tnb, the signed bundle that judged them: the bundle is checked against the key and every run must name its id.")
			} else {
				pol, err = trust.policy()
			}
			if err != nil {
				return err
			}
			recs, at, err := runs.ReadFilesAt(runs.ReadOptions{MaxRecordBytes: maxRecord}, args...)
			if err != nil {
				return readRunsFailed(cmd, err)
			}
			var progs []*eval.Program
			if contract == "" {
				if err := checkRunIDs(recs, at, args, pol.IDs); err != nil {
					fmt.Fprintf(stderr, "%v\n", err)
					return exitError{exitBad}
				}
				if err := mixedBundles(recs); err != nil {
					fmt.Fprintf(stderr, "%v\n", err)
					return exitError{exitBad}
				}
			} else {
				if progs, err = loadPrograms(contract, stderr, pol); err != nil {
					return err
				}
				// Under a trust flag the runs must prove which bundle judged
				// them; otherwise a run without a bundle field (labels from
				// another harness, or a field stripped) passes, counted.
				unnamed, err := sameBundles(recs, at, args, progs, trust.inForce(pol))
				if err != nil {
					fmt.Fprintf(stderr, "%v\n", err)
					return exitError{exitBad}
				}
				if err := contractLabels(recs, at, args, progs); err != nil {
					fmt.Fprintf(stderr, "%v\n", err)
					return exitError{exitBad}
				}
				if unnamed > 0 {
					fmt.Fprintf(stderr, "%s: warning: %d of %d runs carry no bundle id (labels from another harness, or the field removed): nothing shows they were judged by the contract's bundle; --verify-key, %s or --expect-bundle-id refuses them\n",
						cmd.CommandPath(), unnamed, len(recs), verifyKeyEnv)
				}
			}
			d := assemble.Build(assemble.Input{
				Command: report.CommandReport, Version: compiler.Version, Inputs: args,
				Programs: progs, Metrics: metrics.Options{Unknown: unknown}, MaxListed: rf.maxItems,
			}, recs)
			return rf.write(cmd, d)
		},
	}
	cmd.Flags().IntVar(&maxRecord, "max-record-bytes", runs.DefaultMaxRecordBytes, "longest runs-file record (line) accepted, in bytes")
	cmd.Flags().StringVar(&contract, "contract", "", "take task and case sets and gates from this contract (directory, directory of contracts, or bundle)")
	cmd.Flags().StringVar(&unknown, "unknown", metrics.UnknownRefuse, "unknown labels: refuse (the condition's metrics are an error) or bounds (every rate as [low, high] over the unknowns)")
	rf.add(cmd)
	rf.addMaxItems(cmd)
	trust.add(cmd)
	return cmd
}

// sameBundles refuses runs that --contract cannot report, each at its file
// and line (at[i] is where recs[i] was read, files are the runs files as
// given), in the order of the files: runs of another contract (or
// of none: labels from elsewhere without a contract field), whose tasks,
// cases and gates are not the contract's, so its gates would be skipped,
// not evaluated; and runs the contract would have judged with another
// bundle, whose labels may not be the contract's. Runs of the contract
// labelled elsewhere (no bundle field) are refused when strict (a trust
// flag is in force, strict names it: the field is all that ties a run to
// the verified bundle), and otherwise pass and are counted in unnamed.
func sameBundles(recs []runs.Record, at []runs.Pos, files []string, progs []*eval.Program, strict string) (unnamed int, err error) {
	ids := map[string]string{}
	var names []string
	for _, p := range progs {
		ids[p.Bundle.Manifest.Contract] = p.ID
		names = append(names, runs.Safe(p.Bundle.Manifest.Contract))
	}
	var bad []string
	others, missing := false, false
	for _, i := range fileOrder(at, files) {
		r := recs[i]
		id, ok := ids[r.Key.Contract]
		if ok && r.Bundle == id {
			continue
		}
		if ok && r.Bundle == "" && strict == "" {
			unnamed++
			continue
		}
		if len(bad) == 3 {
			bad = append(bad, "…")
			break
		}
		switch {
		case !ok:
			others = true
			of := "of contract " + runs.Safe(r.Key.Contract)
			if r.Key.Contract == "" {
				of = "of no contract (its record has no contract field)"
			}
			bad = append(bad, fmt.Sprintf("%s: run %s is %s, not of --contract %s", at[i], r.Key, of, strings.Join(names, ", ")))
		case r.Bundle == "":
			missing = true
			bad = append(bad, fmt.Sprintf("%s: run %s has no bundle field, so nothing shows it was judged by the contract's bundle %s, as %s requires", at[i], r.Key, id, strict))
		default:
			bad = append(bad, fmt.Sprintf("%s: run %s was judged by %s, not by the contract's bundle %s", at[i], r.Key, r.Bundle, id))
		}
	}
	if len(bad) == 0 {
		return unnamed, nil
	}
	hint := "re-run tenet eval with the contract, or report without --contract"
	switch {
	case others:
		hint = "report the runs of each contract with that contract, or without --contract"
	case missing:
		hint = "re-run tenet eval with the contract's bundle (it writes the bundle field), or report labels from another harness without " + strict
	}
	return 0, fmt.Errorf("%s\n%s", strings.Join(bad, "\n"), hint)
}

// mixedBundles refuses runs of one contract judged by different bundles
// (different versions of the contract, or of tenet): their labels need not
// mean the same, so their metrics would mix two contracts under one name.
// Runs labelled elsewhere (no bundle) pass.
func mixedBundles(recs []runs.Record) error {
	type first struct {
		id  string
		run runs.Key
	}
	seen := map[string][]first{} // contract → its bundles, in run order
	var contracts []string
	for _, r := range recs {
		if r.Bundle == "" {
			continue
		}
		fs := seen[r.Key.Contract]
		if len(fs) == 0 {
			contracts = append(contracts, r.Key.Contract)
		}
		known := false
		for _, f := range fs {
			known = known || f.id == r.Bundle
		}
		if !known {
			seen[r.Key.Contract] = append(fs, first{r.Bundle, r.Key})
		}
	}
	var bad []string
	for _, c := range contracts {
		fs := seen[c]
		if len(fs) < 2 {
			continue
		}
		name := "contract " + c
		if c == "" {
			name = "the runs without a contract"
		}
		var ids []string
		for i, f := range fs {
			if i == 3 {
				ids = append(ids, fmt.Sprintf("and %d more", len(fs)-3))
				break
			}
			ids = append(ids, fmt.Sprintf("%s (e.g. run %s)", f.id, f.run))
		}
		bad = append(bad, fmt.Sprintf("runs of %s were judged by %d bundles: %s", name, len(fs), strings.Join(ids, ", ")))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s\ntheir labels may come from different versions of the contract: report each bundle's runs apart, or re-run tenet eval with one bundle", strings.Join(bad, "\n"))
	}
	return nil
}

// checkUnknownFlag checks the value of --unknown.
func checkUnknownFlag(v string) error {
	if v != metrics.UnknownRefuse && v != metrics.UnknownBounds {
		return fmt.Errorf("unknown --unknown %q: want %s or %s", v, metrics.UnknownRefuse, metrics.UnknownBounds)
	}
	return nil
}
