package cli

import (
	"strings"
	"unicode/utf8"

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
  gpuplan catalog models qwen3
  gpuplan catalog gpus h100 mi300x
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
	list := func(name, short, example, args string, narrow func(cat *model.Catalog, words []string) (*model.Catalog, []model.Message, error), write func(r *report.Renderer, cat *model.Catalog, width int) error, rows func(cat *model.Catalog) any, csv func(cat *model.Catalog) error) *cobra.Command {
		var asJSON bool
		var output string
		c := &cobra.Command{
			Use:         name + " [NAME]...",
			Short:       short,
			Example:     example,
			Annotations: map[string]string{argsAnnotation: args},
			Args:        cobra.ArbitraryArgs,
			RunE: func(cmd *cobra.Command, words []string) error {
				out, err := outputFormat(cmd, asJSON, output)
				if err != nil {
					return err
				}
				cat, warnings, err := env.LoadCatalog(*overlays)
				if err != nil {
					return err
				}
				if len(words) > 0 {
					var notes []model.Message
					if cat, notes, err = narrow(cat, words); err != nil {
						return err
					}
					warnings = append(warnings, notes...)
				}
				printWarningsIn(env.lang, env.Stderr, warnings)
				switch out {
				case outJSON:
					return writeJSON(env.Stdout, rows(cat))
				case outCSV:
					return csv(cat)
				}
				r, width := renderer(env, env.Stdout)
				return write(r, cat, width)
			},
		}
		c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
		addOutputFlag(c, &output, outTable, outJSON, outCSV)
		return c
	}
	cmd.AddCommand(
		list("gpus", "List the GPUs with their datasheet figures; names narrow the list",
			"  gpuplan catalog gpus\n  gpuplan catalog gpus h100 mi300x\n  gpuplan catalog gpus -o csv", argsGPUKeys, narrowGPUs,
			func(r *report.Renderer, cat *model.Catalog, width int) error {
				return report.WriteCatalogGPUs(env.Stdout, r, cat, width)
			},
			func(cat *model.Catalog) any { return report.NewGPURows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogGPUsCSV(env.Stdout, cat) }),
		list("models", "List the model architectures; names narrow the list",
			"  gpuplan catalog models\n  gpuplan catalog models qwen3\n  gpuplan catalog models Qwen/Qwen3-30B-A3B --json", argsModelKeys, narrowModels,
			func(r *report.Renderer, cat *model.Catalog, width int) error {
				return report.WriteCatalogModels(env.Stdout, r, cat, width)
			},
			func(cat *model.Catalog) any { return report.NewModelRows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogModelsCSV(env.Stdout, cat) }),
		newOffersCmd(env, overlays, "instances", "offers"),
		newUpdateCmd(env),
	)
	return cmd
}

// matchesWord reports whether a catalog entry's key, name or an alias
// holds one of words, case and separators aside (model.NormKey: "H100"
// holds in "NVIDIA H100 SXM5 80GB", "Qwen/Qwen3-30B-A3B" in that alias),
// never starting or ending inside a run of digits: "a10" is not the A100
// nor "l4" the L40S, and "qwen3" not "DeepSeek-R1-Distill-Qwen-32B"
// (walk54: catalog models qwen3 listed Qwen2.5 32B through that alias).
func matchesWord(words []string, key, name string, aliases []string) bool {
	for _, w := range words {
		nw := model.NormKey(w)
		if nw == "" {
			continue
		}
		if holdsWord(key, nw) || holdsWord(name, nw) {
			return true
		}
		for _, a := range aliases {
			if holdsWord(a, nw) {
				return true
			}
		}
	}
	return false
}

// holdsWord reports whether model.NormKey(s) holds nw at a place where
// neither end splits a number: a digit on each side of an end is one
// number unless s had a separator there ("3-2" in "Qwen3-235B").
func holdsWord(s, nw string) bool {
	n := model.NormKey(s)
	if !strings.Contains(n, nw) {
		return false
	}
	// cut[i]: model.NormKey dropped a separator just before n[i].
	cut := make([]bool, len(n)+1)
	j, sep := 0, false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch r {
		case '-', '_', ' ', '/':
			sep = true
			continue
		}
		if j < len(cut) {
			cut[j] = sep
		}
		sep = false
		j += utf8.RuneLen(r)
	}
	digit := func(i int) bool { return i >= 0 && i < len(n) && '0' <= n[i] && n[i] <= '9' }
	splits := func(i int) bool { return digit(i-1) && digit(i) && !cut[i] }
	// A start after "3." is inside a decimal: "8b" is not Phi-4-mini's
	// 3.8B (walk56). An end before ".1" is a version's prefix and
	// matches: "llama-3" holds in "llama-3.1-8b".
	inFraction := func(i int) bool { return digit(i) && i >= 2 && n[i-1] == '.' && digit(i-2) && !cut[i-1] }
	for from := 0; ; {
		k := strings.Index(n[from:], nw)
		if k < 0 {
			return false
		}
		p := from + k
		if !splits(p) && !inFraction(p) && !splits(p+len(nw)) {
			return true
		}
		from = p + 1
	}
}

// unmatched is the usage error of words that match no entry of a list
// (gpus when gpus is set, else models): the first word, the closest key
// and the list's command.
func unmatched(words []string, keys []string, gpus bool) error {
	w := words[0]
	for _, x := range words {
		if model.NormKey(x) == "" {
			return usage(model.Msg("%q names nothing: give part of a key, name or alias", x))
		}
	}
	s := model.Closest(w, keys, 1)
	switch {
	case gpus && len(s) > 0:
		return usage(model.Msg("no GPU matches %q; did you mean %q? (list them with gpuplan catalog gpus)", w, s[0]))
	case gpus:
		return usage(model.Msg("no GPU matches %q (list them with gpuplan catalog gpus)", w))
	case len(s) > 0:
		return usage(model.Msg("no model matches %q; did you mean %q? (list them with gpuplan catalog models)", w, s[0]))
	}
	return usage(model.Msg("no model matches %q (list them with gpuplan catalog models)", w))
}

// narrowGPUs keeps the GPUs matching words (matchesWord), as a catalog
// holding only those for the list's writers.
func narrowGPUs(cat *model.Catalog, words []string) (*model.Catalog, []model.Message, error) {
	out := &model.Catalog{AsOf: cat.AsOf}
	var keys []string
	for _, g := range cat.GPUs {
		keys = append(keys, g.Key)
		if matchesWord(words, g.Key, g.Name, g.Aliases) {
			out.GPUs = append(out.GPUs, g)
		}
	}
	if len(out.GPUs) == 0 {
		return nil, nil, unmatched(words, keys, true)
	}
	return out, nil, nil
}

// narrowModels keeps the models matching words, as narrowGPUs. A word
// that is a quantized release's id (Qwen/Qwen3-32B-AWQ, model.Catalog.Model)
// keeps its base entry, and a note says what the release is, as estimate
// says it.
func narrowModels(cat *model.Catalog, words []string) (*model.Catalog, []model.Message, error) {
	out := &model.Catalog{AsOf: cat.AsOf}
	var keys []string
	var notes []model.Message
	released := map[string]bool{}
	rest := words[:0:0]
	for _, w := range words {
		if a, err := cat.Model(w); err == nil && a.Release != "" {
			released[a.Key] = true
			notes = append(notes, model.ReleaseNote(a))
			continue
		}
		rest = append(rest, w)
	}
	words = rest
	// Entries whose key or name holds a word come first, those found
	// through an alias after (walk56: "deepseek" listed Llama 3.1 8B and
	// four Qwen2.5 models, whose aliases name DeepSeek-R1's distills,
	// before DeepSeek-V3).
	var byAlias []model.Architecture
	for i := range cat.Models {
		m := &cat.Models[i]
		keys = append(keys, m.Key)
		switch {
		case released[m.Key] || matchesWord(words, m.Key, m.Name, nil):
			out.Models = append(out.Models, *m)
		case matchesWord(words, "", "", m.Aliases):
			byAlias = append(byAlias, *m)
		}
	}
	out.Models = append(out.Models, byAlias...)
	if len(out.Models) == 0 {
		return nil, nil, unmatched(words, keys, false)
	}
	return out, notes, nil
}
