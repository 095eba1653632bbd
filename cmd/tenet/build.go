package main

import (
	"crypto/ed25519"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
	"github.com/tenetlang/tenet/internal/atomicfile"
	"github.com/tenetlang/tenet/internal/paths"
	"github.com/tenetlang/tenet/lang"
)

func buildCmd() *cobra.Command {
	var out string
	var signKeys []string
	cmd := &cobra.Command{
		Use:   "build DIR [-o NAME.tnb] [--sign KEY]",
		Short: "Compile a contract into a deterministic, sha256-identified bundle",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			keys, err := trust.ReadPrivateKeys(trust.KeyFiles("--sign", signKeys...))
			if err != nil {
				return err
			}
			b, err := tenet.Build(dir, diagsTo(cmd.ErrOrStderr()))
			if err != nil {
				return buildFailed(err)
			}
			data := b.Bytes()
			for _, k := range keys {
				if data, err = bundle.Sign(data, k); err != nil {
					return err
				}
			}
			if out == "" {
				abs, err := filepath.Abs(dir)
				if err != nil {
					return err
				}
				out = filepath.Base(abs) + ".tnb"
			}
			if err := paths.CheckOutput(out, lang.SourceFiles(dir)); err != nil {
				return err
			}
			if err := atomicfile.Write(out, data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\n%s %s (%d bytes)\n", b.Contract().Summary(), b.ID(), out, len(data))
			for _, k := range keys {
				fmt.Fprintf(cmd.OutOrStdout(), "signed by %s\n", bundle.Fingerprint(k.Public().(ed25519.PublicKey)))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "bundle file to write (default: DIR's base name + .tnb)")
	cmd.Flags().StringArrayVar(&signKeys, "sign", nil, "sign the bundle id with the ed25519 private key in this file, made by tenet keygen (repeatable)")
	return cmd
}
