package historycmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/eval/history"
	"github.com/tenetlang/tenet/eval/runs"
)

func listCmd(c *Context) *cobra.Command {
	var f history.Filter
	format := FormatTable
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the recorded evaluations, newest (highest id) first",
		Long:  c.Help("history-list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := CheckFormat(format); err != nil {
				return err
			}
			if f.Limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (all) or more", f.Limit)
			}
			db, err := c.Open()
			if err != nil {
				return err
			}
			defer db.Close()
			l, err := db.List(f)
			if err != nil {
				return err
			}
			if len(l) == 0 {
				fmt.Fprintln(cmd.ErrOrStderr(), noneMessage(f, db.Path()))
			}
			if format == FormatJSON {
				return writeJSON(cmd.OutOrStdout(), listJSON{Schema: "tenet-history-list/1", Database: db.Path(), Evaluations: jsonEvaluations(l)})
			}
			if len(l) == 0 {
				return nil
			}
			return writeList(cmd.OutOrStdout(), l)
		},
	}
	cmd.Flags().StringVar(&f.Contract, "contract", "", "only evaluations of this contract (its name)")
	cmd.Flags().StringVar(&f.Condition, "condition", "", `only evaluations with this condition (as reports show it: "baseline" or "baseline @ attack")`)
	cmd.Flags().StringVar(&f.Bundle, "bundle", "", "only evaluations of this bundle (its id, or a prefix of it; sha256: optional)")
	cmd.Flags().IntVar(&f.Limit, "limit", 0, "list at most this many, the newest (0: all)")
	cmd.Flags().StringVar(&format, "format", FormatTable, "table or json")
	return cmd
}

// noneMessage says why the list is empty: nothing recorded, or nothing the
// filters select.
func noneMessage(f history.Filter, path string) string {
	var by []string
	for _, p := range [][2]string{{"--contract", f.Contract}, {"--condition", f.Condition}, {"--bundle", f.Bundle}} {
		if p[1] != "" {
			by = append(by, p[0]+" "+p[1])
		}
	}
	if len(by) == 0 {
		return "no evaluations recorded in " + path
	}
	return fmt.Sprintf("no evaluations in %s match %s", path, strings.Join(by, " "))
}

// shortID is a bundle id cut to 12 hex digits, as reports show it.
func shortID(id string) string {
	h := strings.TrimPrefix(id, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	if h == "" {
		return "—"
	}
	return h
}

// shortCommit is a commit cut to 12 digits, "+" when the tree had
// changes, "—" when unknown.
func shortCommit(e history.Evaluation) string {
	c := e.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if c == "" {
		return "—"
	}
	if e.Dirty {
		c += "+"
	}
	return c
}

func writeList(w io.Writer, l []history.Evaluation) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\trecorded\tcommand\tcontract\tbundle\tconditions\truns\texit\tcommit")
	for _, e := range l {
		var names, ids []string
		for _, c := range e.Contracts {
			names, ids = append(names, runs.Printable(c.Name)), append(ids, shortID(c.BundleID))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", e.ID, e.Recorded.Format(time.RFC3339), e.Command,
			orDash(strings.Join(names, ",")), orDash(strings.Join(ids, ",")), e.Pairs, e.Runs, e.ExitCode, shortCommit(e))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "commit: + when the work tree had changes; tenet history show ID shows one")
	return err
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

type listJSON struct {
	Schema      string           `json:"schema"`
	Database    string           `json:"database"`
	Evaluations []evaluationJSON `json:"evaluations"`
}

type evaluationJSON struct {
	ID        int64          `json:"id"`
	Recorded  string         `json:"recorded"`
	Command   string         `json:"command"`
	Version   string         `json:"version"`
	Commit    *string        `json:"commit"` // null when no git commit was found
	Dirty     bool           `json:"dirty"`
	Contracts []contractJSON `json:"contracts"`
	Inputs    []inputJSON    `json:"inputs"`
	ExitCode  int            `json:"exit_code"`
	Runs      int            `json:"runs"`
	Note      string         `json:"note"`
}

// contractJSON holds its conditions: an evaluation of several contracts
// keeps which condition is whose.
type contractJSON struct {
	Name       string   `json:"name"`
	Version    *string  `json:"version"` // null when the recording command did not know it
	Bundle     string   `json:"bundle"`
	Conditions []string `json:"conditions"`
}

// inputJSON: sha256 and size are null when tenet did not have the bytes
// (a pipe).
type inputJSON struct {
	Path   string  `json:"path"`
	SHA256 *string `json:"sha256"`
	Size   *int64  `json:"size"`
}

func jsonEvaluation(e history.Evaluation) evaluationJSON {
	out := evaluationJSON{ID: e.ID, Recorded: e.Recorded.Format(time.RFC3339Nano), Command: e.Command, Version: e.Version, Dirty: e.Dirty,
		Contracts: []contractJSON{}, Inputs: []inputJSON{}, ExitCode: e.ExitCode, Runs: e.Runs, Note: e.Note}
	if e.Commit != "" {
		out.Commit = &e.Commit
	}
	for _, c := range e.Contracts {
		j := contractJSON{Name: c.Name, Bundle: c.BundleID, Conditions: append([]string{}, c.Conditions...)}
		if !c.VersionUnknown {
			j.Version = &c.Version
		}
		out.Contracts = append(out.Contracts, j)
	}
	for _, in := range e.Inputs {
		j := inputJSON{Path: in.Path}
		if in.Known() {
			j.SHA256, j.Size = &in.SHA256, &in.Size
		}
		out.Inputs = append(out.Inputs, j)
	}
	return out
}

func jsonEvaluations(l []history.Evaluation) []evaluationJSON {
	out := []evaluationJSON{}
	for _, e := range l {
		out = append(out, jsonEvaluation(e))
	}
	return out
}

// writeJSON writes v indented, without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
