// Package version is how tenet tells which binary is running: `tenet
// --version` (one line) and `tenet version` (the build, the compiler
// version bundles record, the bundle format, cel-go, the toolchain and the
// VCS revision; as text or JSON). What a build knows of itself comes from
// internal/buildinfo; docs/release.md says what each version means.
package version

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/tenetlang/tenet/compiler"
	"github.com/tenetlang/tenet/compiler/bundle"
	"github.com/tenetlang/tenet/compiler/celenv"
	"github.com/tenetlang/tenet/internal/buildinfo"
)

// Report is what `tenet version` prints.
type Report struct {
	buildinfo.Info
	// Compiler is compiler.Version, the version bundles and reports record:
	// a constant of the source tree, so that it does not change with the
	// commit or the way the binary was built.
	Compiler     string `json:"compiler"`
	BundleFormat int    `json:"bundle_format"`
	CELGo        string `json:"cel_go"`
}

// Current is the running binary's Report.
func Current() Report {
	return Report{Info: buildinfo.Current(), Compiler: compiler.Version, BundleFormat: int(bundle.FormatVersion), CELGo: celenv.CELVersion}
}

// WriteText writes r as `tenet version` prints it: "tenet VERSION" first,
// so that the first line alone is the answer a script wants.
func (r Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "tenet %s\n", r.Version)
	fmt.Fprintf(w, "compiler: %s (bundle format %d, cel-go %s)\n", r.Compiler, r.BundleFormat, r.CELGo)
	fmt.Fprintf(w, "go: %s %s\n", r.GoVersion, r.Platform)
	switch {
	case r.Revision == "":
		fmt.Fprintln(w, "revision: not recorded (a build from the module cache or without VCS information)")
	default:
		extra := ""
		if r.Time != "" {
			extra = " " + r.Time
		}
		if r.Modified {
			extra += " (modified)"
		}
		fmt.Fprintf(w, "revision: %s%s\n", r.Revision, extra)
	}
}

// Command is `tenet version [--format text|json]`.
func Command() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version [--format text|json]",
		Short: "Print tenet's version, the compiler and bundle format versions, cel-go's, Go's and the revision",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r := Current()
			switch format {
			case "text":
				r.WriteText(cmd.OutOrStdout())
			case "json":
				b, err := json.MarshalIndent(r, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", b)
			default:
				return fmt.Errorf("invalid argument %q for \"--format\" flag: want text or json", format)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// SetRoot gives root a --version flag that prints "tenet VERSION" (the
// first line of `tenet version`). The flag is declared here, without a
// shorthand, so that cobra does not take -v for it: -v means verbose to
// the commands that have it.
func SetRoot(root *cobra.Command) {
	root.Version = buildinfo.Current().Version
	root.SetVersionTemplate("tenet {{.Version}}\n")
	root.Flags().Bool("version", false, "print tenet's version and exit")
}
