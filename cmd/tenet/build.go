package main

import (
	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/cmd/tenet/internal/contractarg"
	"github.com/tenetlang/tenet/cmd/tenet/internal/flagcheck"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
)

func buildCmd() *cobra.Command {
	var out string
	var signKeys []string
	cmd := &cobra.Command{
		Use:   "build (DIR|COLLECTION -o OUTDIR) [-o NAME.tnb|-] [--sign KEY]",
		Short: "Compile a contract into a deterministic, sha256-identified bundle",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			keys, err := trust.ReadPrivateKeys(trust.KeyFiles("--sign", signKeys...))
			if err != nil {
				return err
			}
			return buildFailed(contractarg.Build(args[0], out, keys, cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "bundle file to write (default: DIR's base name + .tnb; - for stdout); for a directory of contracts, the directory to write NAME.tnb per contract to (required)")
	flagcheck.AcceptDash(cmd, "out")
	cmd.Flags().StringArrayVar(&signKeys, "sign", nil, "sign the bundle id with the ed25519 private key in this file, made by tenet keygen (repeatable)")
	return cmd
}
