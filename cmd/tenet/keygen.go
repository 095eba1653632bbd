package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/bundle/trust"
)

func keygenCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "keygen [-o NAME]",
		Short: "Make an ed25519 key pair for signing bundles (tenet build --sign, --verify-key)",
		Long:  help("keygen"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			pubPath, pub, err := trust.WriteKeyPair(out)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: private key (keep it secret)\n%s: public key %s\n", out, pubPath, bundle.Fingerprint(pub))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "tenet-signing.key", "private key file to write; the public key goes to this name + .pub")
	return cmd
}
