// Package completion is the command tenet completion: a shell completion
// script made by cobra's generators from the live command tree, so that
// it always offers the commands and flags tenet has.
package completion

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Shells are the shells a script is made for, in the order help lists them.
var Shells = []string{"bash", "zsh", "fish", "powershell"}

// Command is `tenet completion SHELL`. cobra's own completion command is
// disabled in the root command: this one has tenet's help text and
// refuses an unknown shell in one sentence.
func Command(help string) *cobra.Command {
	return &cobra.Command{
		Use:       "completion (" + strings.Join(Shells, "|") + ")",
		Short:     "Print a shell completion script for tenet",
		Long:      help,
		Args:      cobra.ExactArgs(1),
		ValidArgs: Shells,
		RunE: func(cmd *cobra.Command, args []string) error {
			return Write(cmd.OutOrStdout(), cmd.Root(), args[0])
		},
	}
}

// Write writes root's completion script for shell to w.
func Write(w io.Writer, root *cobra.Command, shell string) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, true)
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	case "powershell":
		return root.GenPowerShellCompletionWithDesc(w)
	}
	return fmt.Errorf("unknown shell %q: want %s", shell, strings.Join(Shells, ", "))
}
