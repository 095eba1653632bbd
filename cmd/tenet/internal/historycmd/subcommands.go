package historycmd

import "github.com/spf13/cobra"

// subcommands are the commands of `tenet history`, in help order: each
// builds its command from the group's Context. A new subcommand is a file
// of its own and one line here.
var subcommands = []func(*Context) *cobra.Command{
	listCmd,
	showCmd,
	diffCmd,
	trendCmd,
	exportCmd,
}
