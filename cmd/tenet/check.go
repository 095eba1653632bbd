package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/checkcmd"
	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/internal/termstyle"
)

func checkCmd() *cobra.Command {
	return checkcmd.Command(checkcmd.Env{Help: help("check"), Version: compiler.Version, Exit: func(code int) error { return exitError{code} },
		Getenv: os.Getenv, Style: func(w io.Writer) termstyle.Style { return termstyle.For(w, os.Getenv) }})
}
