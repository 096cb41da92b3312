package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

func newCatalogCmd(env *Env, overlays *[]string) *cobra.Command {
	var asJSON bool
	var output string
	var provider string
	cmd := &cobra.Command{
		Use:       "catalog gpus|instances|models",
		Short:     "List the GPUs, cloud instances with prices, and model architectures gpuplan knows",
		ValidArgs: []string{"gpus", "instances", "models"},
		Long: `catalog lists the embedded catalog, overlaid with the files in
$XDG_CONFIG_HOME/gpuplan/catalog.d/*.toml and --catalog FILE (our TOML schema or a
SkyPilot vms.csv). Every row carries its source and as_of date.`,
		Example: `  gpuplan catalog gpus
  gpuplan catalog instances --provider aws
  gpuplan catalog instances --json | jq '.[] | select(.gpu == "h100-sxm")'
  gpuplan catalog models --json
  gpuplan catalog instances --catalog ~/.sky/catalogs/v8/aws/vms.csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usage(fmt.Errorf("say which list: gpuplan catalog gpus, instances or models"))
			}
			switch args[0] {
			case "gpus", "instances", "models":
				return nil
			}
			msg := fmt.Sprintf("unknown list %q: want gpus, instances or models", args[0])
			if s := model.Closest(args[0], []string{"gpus", "instances", "models"}, 1); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %q?)", s[0])
			}
			return usage(fmt.Errorf("%s", msg))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			cat, warnings, err := env.LoadCatalog(*overlays)
			if err != nil {
				return err
			}
			printWarnings(env.Stderr, warnings)
			provider = strings.ToLower(strings.TrimSpace(provider))
			if provider != "" {
				if args[0] != "instances" {
					return usage(fmt.Errorf("--provider applies to gpuplan catalog instances"))
				}
				known := map[string]bool{}
				var names []string
				for _, in := range cat.Instances {
					if !known[in.Provider] {
						known[in.Provider] = true
						names = append(names, in.Provider)
					}
				}
				if !known[provider] {
					return usage(fmt.Errorf("unknown provider %q; want one of %s", provider, strings.Join(names, ", ")))
				}
			}
			if output, err = outputFormat(cmd, asJSON, output); err != nil {
				return err
			}
			asJSON = output == outJSON
			if output == outCSV {
				switch args[0] {
				case "gpus":
					return report.WriteCatalogGPUsCSV(env.Stdout, cat)
				case "instances":
					return report.WriteCatalogInstancesCSV(env.Stdout, cat, provider)
				}
				return report.WriteCatalogModelsCSV(env.Stdout, cat)
			}
			r, _ := renderer(env, env.Stdout)
			switch args[0] {
			case "gpus":
				if asJSON {
					return writeJSON(env.Stdout, report.NewGPURows(cat))
				}
				return report.WriteCatalogGPUs(env.Stdout, r, cat)
			case "instances":
				if asJSON {
					return writeJSON(env.Stdout, report.NewInstanceRows(cat, provider))
				}
				return report.WriteCatalogInstances(env.Stdout, r, cat, provider)
			default:
				if asJSON {
					return writeJSON(env.Stdout, report.NewModelRows(cat))
				}
				return report.WriteCatalogModels(env.Stdout, r, cat)
			}
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	addOutputFlag(cmd, &output, outTable, outJSON, outCSV)
	cmd.Flags().StringVar(&provider, "provider", "", "only this provider's instances (aws, gcp, azure, lambda, …)")
	return cmd
}
