package cli

import (
	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// catalogLists are the subcommands of gpuplan catalog.
var catalogLists = []string{"gpus", "instances", "models", "update"}

func newCatalogCmd(env *Env, overlays *[]string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog gpus|instances|models|update",
		Short: "List the GPUs, cloud instances with prices, and model architectures gpuplan knows; refresh prices",
		Long: `catalog lists the embedded catalog, overlaid with the prices catalog update
fetched, the files in $XDG_CONFIG_HOME/gpuplan/catalog.d/*.toml and --catalog FILE
(our TOML schema or a SkyPilot vms.csv). Every row carries its source and as_of date.`,
		Example: `  gpuplan catalog gpus
  gpuplan catalog instances H100:8 --all-regions
  gpuplan catalog instances --json | jq '.rows[] | select(.gpu == "h100-sxm")'
  gpuplan catalog models --json
  gpuplan catalog update`,
		// A parent with subcommands: an unknown list lands here.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usage(model.Msg("say which list: gpuplan catalog gpus, instances or models (or catalog update)"))
			}
			if s := model.Closest(args[0], catalogLists, 1); len(s) > 0 {
				return usage(model.Msg("unknown list %q: want gpus, instances, models or update (did you mean %q?)", args[0], s[0]))
			}
			return usage(model.Msg("unknown list %q: want gpus, instances, models or update", args[0]))
		},
		RunE: func(cmd *cobra.Command, args []string) error { return nil },
	}
	list := func(name, short string, write func(r *report.Renderer, cat *model.Catalog) error, rows func(cat *model.Catalog) any, csv func(cat *model.Catalog) error) *cobra.Command {
		var asJSON bool
		var output string
		c := &cobra.Command{
			Use:   name,
			Short: short,
			Args:  noArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				out, err := outputFormat(cmd, asJSON, output)
				if err != nil {
					return err
				}
				cat, warnings, err := env.LoadCatalog(*overlays)
				if err != nil {
					return err
				}
				printWarningsIn(env.lang, env.Stderr, warnings)
				switch out {
				case outJSON:
					return writeJSON(env.Stdout, rows(cat))
				case outCSV:
					return csv(cat)
				}
				r, _ := renderer(env, env.Stdout)
				return write(r, cat)
			},
		}
		c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
		addOutputFlag(c, &output, outTable, outJSON, outCSV)
		return c
	}
	cmd.AddCommand(
		list("gpus", "List the GPUs with their datasheet figures",
			func(r *report.Renderer, cat *model.Catalog) error { return report.WriteCatalogGPUs(env.Stdout, r, cat) },
			func(cat *model.Catalog) any { return report.NewGPURows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogGPUsCSV(env.Stdout, cat) }),
		list("models", "List the model architectures",
			func(r *report.Renderer, cat *model.Catalog) error {
				return report.WriteCatalogModels(env.Stdout, r, cat)
			},
			func(cat *model.Catalog) any { return report.NewModelRows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogModelsCSV(env.Stdout, cat) }),
		newOffersCmd(env, overlays, "instances", "offers"),
		newUpdateCmd(env),
	)
	return cmd
}
