package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// fileFlags are the string flags that name a file (or a contract) to write
// or read. Their zero value means "not given" (no runs file, the report on
// stdout, no contract), so an empty value given on purpose — `--out ""`,
// often an unset shell variable (`--out "$RUNS"`) — would silently mean
// "write no runs file"; it is refused instead.
var fileFlags = map[string]bool{"out": true, "report-out": true, "contract": true, "log": true}

// refuseEmptyFileFlags is the root command's PersistentPreRunE: a file
// flag given with an empty value is a usage error (exit 2).
func refuseEmptyFileFlags(cmd *cobra.Command, _ []string) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err == nil && fileFlags[f.Name] && f.Value.Type() == "string" && f.Value.String() == "" {
			err = fmt.Errorf("--%s \"\": want a path (the flag is given, but empty: an unset variable?)", f.Name)
		}
	})
	return err
}
