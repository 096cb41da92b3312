package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// CatalogUpdate is what gpuplan catalog update asks of Env.UpdateCatalog
// (main wires data/update.Run): empty lists mean the defaults.
type CatalogUpdate struct {
	Providers []string
	Sources   []string // base URLs tried in order; --source puts a mirror first
	Force     bool     // accept a result that drops more than half of a provider's types
	// Progress is called after each provider; nil when quiet.
	Progress func(done, total int64)
}

func newUpdateCmd(env *Env) *cobra.Command {
	var o CatalogUpdate
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Fetch fresh prices (SkyPilot's catalog, Azure Retail Prices, OCI price list) into dated overlays",
		Long: `update fetches SkyPilot's hosted v8 catalog files (raw GitHub, then its public
S3 mirror) for aws, gcp, lambda and nebius, Azure's Retail Prices API and Oracle's
public OCI price list (all credential-free), checks them with the same importer and guards as the embedded catalog,
and writes one dated overlay per provider to $XDG_DATA_HOME/gpuplan/catalog.d/,
which every later command reads. A provider whose fetch fails keeps its previous
file (exit 1); a result that drops more than half of a provider's types is refused
unless --force. It honours HTTPS_PROXY and runs only when asked.`,
		Example: `  gpuplan catalog update
  gpuplan catalog update --providers aws,gcp
  gpuplan catalog update --source https://mirror.example.com/catalogs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if env.UpdateCatalog == nil {
				return fmt.Errorf("this build cannot update the catalog")
			}
			for i, s := range o.Sources {
				s = strings.TrimRight(strings.TrimSpace(s), "/")
				if !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
					return usage(fmt.Errorf("--source %q: want a base URL such as https://mirror.example.com/catalogs (files are SOURCE/v8/PROVIDER/vms.csv)", s))
				}
				o.Sources[i] = s
			}
			for i, p := range o.Providers {
				o.Providers[i] = strings.ToLower(strings.TrimSpace(p))
			}
			bar := progressBar(env.lang, env.Stderr)
			if bar != nil {
				o.Progress = bar
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			summary, err := env.UpdateCatalog(ctx, o)
			if bar != nil {
				fmt.Fprint(env.Stderr, "\r\x1b[2K") // clear the bar's line
			}
			fmt.Fprint(env.Stdout, localizeLines(env.lang, summary))
			if err != nil {
				return fmt.Errorf("catalog update: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&o.Providers, "providers", nil, "only these providers (default: aws, gcp, lambda, nebius, azure, oci, hyperstack, jarvislabs, seeweb, verda, daytona, shadeform, primeintellect; also runpod, yotta, vast, lium, hyperbolic); comma-separated")
	cmd.Flags().StringArrayVar(&o.Sources, "source", nil, "a mirror's base URL, tried instead of the defaults; repeatable, in order")
	cmd.Flags().BoolVar(&o.Force, "force", false, "accept a result that drops more than half of a provider's types")
	return cmd
}

// progressBar returns a callback drawing a bubbles progress bar on w when
// w is a terminal, or nil (quiet) when it is piped or a file.
func progressBar(p *i18n.Printer, w io.Writer) func(done, total int64) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil
	}
	bar := progress.New(progress.WithWidth(40), progress.WithDefaultBlend())
	return func(done, total int64) {
		if total <= 0 {
			return
		}
		p.Fprintf(w, "\r%s %d/%d providers", bar.ViewAs(float64(done)/float64(total)), done, total)
	}
}
