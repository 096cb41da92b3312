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
		"model": func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return modelKeys(catalog()), noFile
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
			return list(s, regionNames(catalog(), chosenProviders(cmd), ""))
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
		if c.Annotations[argsAnnotation] == argsGPUSpecs {
			c.ValidArgsFunction = byPrefix(func(_ *cobra.Command, _ []string, s string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return gpuSpecs(catalog(), s)
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
	argsGPUSpecs   = "gpu-specs" // GPU[:COUNT], comma-separated: gpuplan offers
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
// another comma can follow.
func list(toComplete string, names []string) ([]cobra.Completion, cobra.ShellCompDirective) {
	i := strings.LastIndex(toComplete, ",")
	head, given := toComplete[:i+1], strings.Split(toComplete[:max(i, 0)], ",")
	var out []cobra.Completion
	for _, n := range names {
		if !slices.Contains(given, n) {
			out = append(out, head+n)
		}
	}
	return out, noFile | cobra.ShellCompDirectiveNoSpace
}

func modelKeys(c *model.Catalog) []cobra.Completion {
	if c == nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(c.Models))
	for i := range c.Models {
		out = append(out, cobra.CompletionWithDesc(c.Models[i].Key, c.Models[i].Name))
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
		ps, _ := cmd.Flags().GetStringSlice("providers")
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
