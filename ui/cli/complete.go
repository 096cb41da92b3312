package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuplan/gpuplan/model"
)

// Shell completion of flag values: cobra's __complete protocol, which the
// bash, zsh and fish scripts of `gpuplan completion` call. Catalog values
// come from the catalog the command would load (--catalog overlays
// included); each candidate carries a description after a tab, which zsh
// and fish show and bash drops.

type completeFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective)

const noFile = cobra.ShellCompDirectiveNoFileComp

// registerCompletions gives every flag of every command a completion:
// enums their values, catalog flags the catalog's keys, file flags the
// matching files, and numbers nothing (no file names).
func registerCompletions(root *cobra.Command, env *Env, overlays *[]string) {
	catalog := func() *model.Catalog {
		if env.LoadCatalog == nil {
			return nil
		}
		c, _, err := env.LoadCatalog(*overlays)
		if err != nil {
			return nil
		}
		return c
	}
	byName := map[string]completeFunc{
		"model": func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return modelKeys(catalog(), s), noFile
		},
		"gpu": func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return gpuKeys(catalog()), noFile
		},
		"instance": func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return instanceNames(catalog(), s)
		},
		"providers": func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return list(s, offeredProviders(catalog()))
		},
		"provider": func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return offeredProviders(catalog()), noFile
		},
		"regions": func(cmd *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return list(s, regionWords(catalog(), chosenProviders(cmd)))
		},
		"country": func(cmd *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return list(s, countryCodes(catalog(), chosenProviders(cmd)))
		},
		"region": func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			typ := ""
			if in, _ := cmd.Flags().GetString("instance"); in != "" {
				_, typ, _ = strings.Cut(in, "/")
			}
			return regionNames(catalog(), chosenProviders(cmd), typ), noFile
		},
		"lora-targets": func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return list(s, []string{"q", "k", "v", "o", "gate", "up", "down"})
		},
		"config":      files("toml"),
		"catalog":     files("toml", "csv"),
		"hf-config":   files("json"),
		"safetensors": files("safetensors"),
		"lang":        cobra.FixedCompletions([]cobra.Completion{"en", "zh-CN"}, cobra.ShellCompDirectiveNoFileComp),
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if _, ok := c.GetFlagCompletionFunc(f.Name); ok {
					return
				}
				fn := byName[f.Name]
				if e, ok := f.Value.(interface{ choices() []string }); ok && fn == nil {
					fn = cobra.FixedCompletions(e.choices(), noFile)
				}
				switch {
				case fn != nil:
				case f.Name == "output" && c.Name() == "export":
					return // a file name: the shell's default
				case f.Value.Type() != "bool":
					fn = cobra.NoFileCompletions // a number or a name of the user's
				default:
					return
				}
				_ = c.RegisterFlagCompletionFunc(f.Name, byPrefix(fn))
			})
		}
		switch c.Annotations[argsAnnotation] {
		case argsGPUSpecs:
			c.ValidArgsFunction = byPrefix(func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return gpuSpecs(catalog(), s)
			})
		case argsGPUKeys:
			c.ValidArgsFunction = byPrefix(func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return gpuKeys(catalog()), noFile
			})
		case argsModelKeys:
			c.ValidArgsFunction = byPrefix(func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return modelKeys(catalog(), s), noFile
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// argsAnnotation names, in a command's Annotations, what its positional
// arguments are, for their completion.
const (
	argsAnnotation = "gpuplan/args"
	argsGPUSpecs   = "gpu-specs"  // GPU[:COUNT], comma-separated: gpuplan offers
	argsGPUKeys    = "gpu-keys"   // GPU names: gpuplan catalog gpus
	argsModelKeys  = "model-keys" // model names: gpuplan catalog models
)

// byPrefix keeps the candidates of fn that start with what was typed,
// ignoring case: cobra hands the typed word to the function and prints
// whatever it returns, and zsh and fish show unfiltered candidates (fish
// even matches inside words). File-extension and directory directives
// return filters, not candidates, and pass through.
func byPrefix(fn completeFunc) completeFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		out, d := fn(cmd, args, toComplete)
		if toComplete == "" || d&(cobra.ShellCompDirectiveFilterFileExt|cobra.ShellCompDirectiveFilterDirs) != 0 {
			return out, d
		}
		typed := strings.ToLower(toComplete)
		kept := out[:0:0]
		for _, c := range out {
			v, _, _ := strings.Cut(c, "\t")
			if strings.HasPrefix(strings.ToLower(v), typed) {
				kept = append(kept, c)
			}
		}
		return kept, d
	}
}

// gpuSpecs completes the GPU of the last comma-separated spec of gpuplan
// offers; a count after ":" is the user's.
func gpuSpecs(c *model.Catalog, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	i := strings.LastIndex(toComplete, ",")
	if strings.Contains(toComplete[i+1:], ":") {
		return nil, noFile
	}
	var out []cobra.Completion
	for _, g := range gpuKeys(c) {
		out = append(out, toComplete[:i+1]+g)
	}
	return out, noFile
}

// files completes file names with the given extensions, and directories.
func files(ext ...string) completeFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return ext, cobra.ShellCompDirectiveFilterFileExt
	}
}

// list completes the last item of a comma-separated value ("aws,gc" →
// "aws,gcp"), leaving out items already given, with no space after so
// another comma can follow. A name may carry a description after a tab.
func list(toComplete string, names []string) ([]cobra.Completion, cobra.ShellCompDirective) {
	i := strings.LastIndex(toComplete, ",")
	head, given := toComplete[:i+1], strings.Split(toComplete[:max(i, 0)], ",")
	var out []cobra.Completion
	for _, n := range names {
		if v, _, _ := strings.Cut(n, "\t"); !slices.Contains(given, v) {
			out = append(out, head+n)
		}
	}
	return out, noFile | cobra.ShellCompDirectiveNoSpace
}

// modelKeys are the candidates of --model: the catalog keys, and once the
// typed word holds a "/" the Hugging Face ids among the aliases
// ("Qwen/Qwen3-30B-A3B"), which --model takes as well.
func modelKeys(c *model.Catalog, toComplete string) []cobra.Completion {
	if c == nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(c.Models))
	for i := range c.Models {
		m := &c.Models[i]
		if !strings.Contains(toComplete, "/") {
			out = append(out, cobra.CompletionWithDesc(m.Key, m.Name))
			continue
		}
		for _, a := range m.Aliases {
			if strings.Contains(a, "/") {
				out = append(out, cobra.CompletionWithDesc(a, m.Name))
			}
		}
	}
	return out
}

func gpuKeys(c *model.Catalog) []cobra.Completion {
	if c == nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(c.GPUs))
	for i := range c.GPUs {
		out = append(out, cobra.CompletionWithDesc(c.GPUs[i].Key, c.GPUs[i].Name))
	}
	return out
}

// offeredProviders is what completion offers: the providers with a type
// still offered (Catalog.OfferedProviders: not retired Cudo), as the
// configurator's Providers question lists them.
func offeredProviders(c *model.Catalog) []string {
	if c == nil {
		return nil
	}
	return c.OfferedProviders()
}

// providerNames lists the catalog's providers in catalog order.
func providerNames(c *model.Catalog) []string {
	if c == nil {
		return nil
	}
	var out []string
	for i := range c.Instances {
		if p := c.Instances[i].Provider; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// instanceNames completes --instance PROVIDER/TYPE in two steps: the
// providers (with "/" and no space) until one is typed, then its current
// instance types with their GPUs.
func instanceNames(c *model.Catalog, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if c == nil {
		return nil, noFile
	}
	provider, _, typed := strings.Cut(toComplete, "/")
	if !typed {
		var out []cobra.Completion
		for _, p := range offeredProviders(c) {
			out = append(out, p+"/")
		}
		return out, noFile | cobra.ShellCompDirectiveNoSpace
	}
	provider = strings.ToLower(provider)
	var out []cobra.Completion
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Provider == provider && in.Retired == "" {
			out = append(out, cobra.CompletionWithDesc(in.Provider+"/"+in.Type, fmt.Sprintf("%d×%s", in.GPUCount, in.GPU)))
		}
	}
	return out, noFile
}

// chosenProviders are the providers the command line has narrowed to:
// --providers, or the provider of --instance; nil means all.
func chosenProviders(cmd *cobra.Command) []string {
	var out []string
	if f := cmd.Flags().Lookup("providers"); f != nil && f.Changed {
		ps, _ := listFlag(cmd.Flags(), "providers")
		for _, p := range ps {
			out = append(out, strings.ToLower(strings.TrimSpace(p)))
		}
	}
	if in, _ := cmd.Flags().GetString("instance"); in != "" {
		p, _, _ := strings.Cut(in, "/")
		out = append(out, strings.ToLower(p))
	}
	return out
}

// regionNames lists the regions that price an instance of the given
// providers (all when empty) and, when typ is set, of that type, sorted.
func regionNames(c *model.Catalog, providers []string, typ string) []string {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for i := range c.Instances {
		in := &c.Instances[i]
		if len(providers) > 0 && !slices.Contains(providers, in.Provider) || typ != "" && !strings.EqualFold(in.Type, typ) {
			continue
		}
		for _, rp := range in.Prices {
			if !seen[rp.Region] {
				seen[rp.Region] = true
				out = append(out, rp.Region)
			}
		}
	}
	slices.Sort(out)
	return out
}

// regionWords are the candidates of --regions, a comma-separated list: the
// continents the chosen providers have regions on (`--regions europe`,
// model.Continents), then their region names, less those the list cannot
// hold or that name no place. Vast's "place, CC, continent" names hold
// commas, which the flag splits into words it refuses (--country or the
// country code reaches them); SkyPilot's placeholders "earth" and "default"
// (model.RegionUnstated) are no location to filter by.
func regionWords(c *model.Catalog, providers []string) []string {
	if c == nil {
		return nil
	}
	on := map[string]bool{}
	var names []string
	for _, r := range regionNames(c, providers, "") {
		if strings.Contains(r, ",") || model.RegionUnstated(r) {
			continue
		}
		names = append(names, r)
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		if len(providers) > 0 && !slices.Contains(providers, in.Provider) {
			continue
		}
		for _, rp := range in.Prices {
			if g, ok := c.Geo(in.Provider, rp.Region); ok && g.Continent != "" {
				on[g.Continent] = true
			}
		}
	}
	var out []string
	for _, k := range model.Continents {
		if on[k] {
			out = append(out, k)
		}
	}
	return append(out, names...)
}

// countryCodes are the candidates of --country: the ISO 3166-1 codes, lower
// case as the docs write them (`--country de,fr`), of the countries the
// chosen providers have regions in, each with its English name.
func countryCodes(c *model.Catalog, providers []string) []string {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	for i := range c.Instances {
		in := &c.Instances[i]
		if len(providers) > 0 && !slices.Contains(providers, in.Provider) {
			continue
		}
		for _, rp := range in.Prices {
			if g, ok := c.Geo(in.Provider, rp.Region); ok && g.Country != "" {
				seen[g.Country] = true
			}
		}
	}
	codes := make([]string, 0, len(seen))
	for k := range seen {
		codes = append(codes, k)
	}
	slices.Sort(codes)
	out := make([]string, 0, len(codes))
	for _, k := range codes {
		out = append(out, cobra.CompletionWithDesc(strings.ToLower(k), model.CountryName(k)))
	}
	return out
}
