// Package precommit is `tenet dev precommit check FILE...`, the entry of
// the tenet-check hook in .pre-commit-hooks.yaml. pre-commit passes the
// changed files, but a contract is a directory (its files are read
// together, `use` resolves from it), so the files are mapped to their
// directories, each checked once. The fmt hook needs nothing of the kind:
// `tenet fmt -check` takes files.
//
// The command is hidden (under `tenet dev`) because people type `tenet
// check DIR`; its name and behaviour are still an interface, since the
// hooks file published with each release names it.
package precommit

import (
	"errors"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
)

// Dirs are the directories of files, each once, sorted: the contract
// directories to check for a set of changed contract files.
func Dirs(files []string) []string {
	dirs := make([]string, 0, len(files))
	for _, f := range files {
		dirs = append(dirs, filepath.Dir(filepath.Clean(f)))
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// Command is `tenet dev precommit`, with its subcommand `check FILE...`,
// which runs check (tenet check's RunE) on Dirs(FILE...).
func Command(help func(name string) string, check func(cmd *cobra.Command, dirs []string) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "precommit",
		Short: "Entries of the pre-commit hooks (.pre-commit-hooks.yaml)",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check FILE...",
		Short: "Check the contract directories of the given contract files",
		Long:  help("dev-precommit-check"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			for _, f := range files {
				if f == "" {
					return errors.New("an empty file name (pre-commit passes the changed files' paths)")
				}
			}
			return check(cmd, Dirs(files))
		},
	})
	return cmd
}
