package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/internal/atomicfile"
)

func keygenCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "keygen [-o NAME]",
		Short: "Make an ed25519 key pair for signing bundles (tenet build --sign, --verify-key)",
		Long: `Make an ed25519 key pair: the private key in NAME (mode 0600; give it to
tenet build --sign) and the public key in NAME.pub (give it to --verify-key
or TENET_VERIFY_KEY). Both are one-line text files (docs/bundle.md).
keygen never replaces an existing file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			pubPath := out + ".pub"
			for _, p := range []string{out, pubPath} {
				if _, err := os.Lstat(p); err == nil {
					return fmt.Errorf("%s exists: keygen does not replace a key file (remove it or choose another name with -o)", p)
				}
			}
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			if err != nil {
				return err
			}
			// The private key first: a public key whose private key was
			// not written would be useless.
			if err := atomicfile.Write(out, bundle.MarshalPrivateKey(priv), 0o600); err != nil {
				return err
			}
			if err := atomicfile.Write(pubPath, bundle.MarshalPublicKey(pub), 0o644); err != nil {
				os.Remove(out)
				return fmt.Errorf("%v (%s, written first, was removed)", err, out)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: private key (keep it secret)\n%s: public key %s\n", out, pubPath, bundle.Fingerprint(pub))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "tenet-signing.key", "private key file to write; the public key goes to this name + .pub")
	return cmd
}

// readSigningKeys reads private key files for build --sign.
func readSigningKeys(paths []string) ([]ed25519.PrivateKey, error) {
	var keys []ed25519.PrivateKey
	for _, p := range paths {
		data, err := readKeyFile(p)
		if err != nil {
			return nil, fmt.Errorf("--sign: %v", err)
		}
		k, err := bundle.ParsePrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("--sign %s: %v", p, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}
