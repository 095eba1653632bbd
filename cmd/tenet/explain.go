package main

import (
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/explaincmd"
)

// explainCmd is tenet explain, in cmd/tenet/internal/explaincmd.
func explainCmd() *cobra.Command {
	return explaincmd.Command(explaincmd.Env{Help: help, Load: loadPrograms, Exit: func(code int) error { return exitError{code} }})
}
