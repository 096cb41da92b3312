package cli

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// catalogLists are the subcommands of gpuplan catalog.
var catalogLists = []string{"gpus", "instances", "models", "providers", "update"}

func newCatalogCmd(env *Env, overlays *[]string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog gpus|instances|models|providers|update",
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
  gpuplan catalog providers
  gpuplan catalog update`,
		// A parent with subcommands: an unknown list lands here.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usage(model.Msg("say which list: gpuplan catalog gpus, instances, models or providers (or catalog update)"))
			}
			if s := model.Closest(args[0], catalogLists, 1); len(s) > 0 {
				return usage(model.Msg("unknown list %q: want gpus, instances, models, providers or update (did you mean %q?)", args[0], s[0]))
			}
			return usage(model.Msg("unknown list %q: want gpus, instances, models, providers or update", args[0]))
		},
		RunE: func(cmd *cobra.Command, args []string) error { return nil },
	}
	list := func(name, short, long, example, args string, narrow func(cat *model.Catalog, words []string) (*model.Catalog, bool, []model.Message, error), apartNote func(words string) model.Message, write func(r *report.Renderer, cat *model.Catalog, width int) error, rows func(cat *model.Catalog) any, csv func(cat *model.Catalog) error) *cobra.Command {
		var asJSON bool
		var output string
		c := &cobra.Command{
			Use:         name + " [NAME]...",
			Short:       short,
			Long:        long,
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
				// A quoted "llama 70b" is the words llama 70b: one argument
				// of several words matched as one run of characters found
				// only an alias (DeepSeek-R1-Distill-Llama-70B), where the
				// same words unquoted list every Llama 70B (walk, 2026-12-06).
				words = splitWords(words)
				apart := false
				if len(words) > 0 {
					var notes []model.Message
					if cat, apart, notes, err = narrow(cat, words); err != nil {
						printWarningsIn(env.lang, env.Stderr, notes) // the left-out models' reasons, beside a word that matches nothing
						return err
					}
					warnings = append(warnings, notes...)
				}
				printWarningsIn(env.lang, env.Stderr, warnings)
				if apart {
					notef(env.lang, env.Stderr, apartNote(strings.Join(words, " ")))
				}
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
		list("gpus", "List the GPUs with their datasheet figures; names narrow the list", gpusLong,
			"  gpuplan catalog gpus\n  gpuplan catalog gpus rtx 4090\n  gpuplan catalog gpus h100 mi300x\n  gpuplan catalog gpus -o csv", argsGPUKeys, narrowGPUs,
			func(words string) model.Message {
				return model.Msg("no GPU matches all of %q, so each word is taken as a name of its own: the GPUs any of them matches are listed", words)
			},
			func(r *report.Renderer, cat *model.Catalog, width int) error {
				return report.WriteCatalogGPUs(env.Stdout, r, cat, width)
			},
			func(cat *model.Catalog) any { return report.NewGPURows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogGPUsCSV(env.Stdout, cat) }),
		list("models", "List the model architectures; names narrow the list", modelsLong,
			"  gpuplan catalog models\n  gpuplan catalog models qwen3\n  gpuplan catalog models llama 70b\n  gpuplan catalog models Qwen/Qwen3-30B-A3B --json", argsModelKeys, narrowModels,
			func(words string) model.Message {
				return model.Msg("no model matches all of %q, so each word is taken as a name of its own: the models any of them matches are listed", words)
			},
			func(r *report.Renderer, cat *model.Catalog, width int) error {
				return report.WriteCatalogModels(env.Stdout, r, cat, width)
			},
			func(cat *model.Catalog) any { return report.NewModelRows(cat) },
			func(cat *model.Catalog) error { return report.WriteCatalogModelsCSV(env.Stdout, cat) }),
		newOffersCmd(env, overlays, "instances", "offers"),
		newProvidersCmd(env, overlays),
		newUpdateCmd(env),
	)
	return cmd
}

// newProvidersCmd is gpuplan catalog providers: one row per provider of
// the loaded catalog (overlays included), as gh and kubectl list a
// resource (walk: there was no way to list them but catalog instances).
func newProvidersCmd(env *Env, overlays *[]string) *cobra.Command {
	var asJSON bool
	var output string
	c := &cobra.Command{
		Use:     "providers",
		Short:   "List the providers: instance types, offers, regions, newest price, origin, marketplace or not",
		Example: "  gpuplan catalog providers\n  gpuplan catalog providers --json | jq '.[] | select((.marketplace | not) and .retired == \"\") | .provider'",
		Args:    noArgs,
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
				return writeJSON(env.Stdout, report.NewProviderRows(cat))
			case outCSV:
				return report.WriteCatalogProvidersCSV(env.Stdout, cat)
			}
			r, _ := renderer(env, env.Stdout)
			return report.WriteCatalogProviders(env.Stdout, r, cat)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	addOutputFlag(c, &output, outTable, outJSON, outCSV)
	return c
}

// gpusLong and modelsLong are the help of catalog gpus and catalog
// models, which say how words narrow the list (narrowWords).
const (
	gpusLong = `gpus lists the GPUs with their datasheet figures. Words narrow the list to the
GPUs whose key, name or an alias holds them, case and separators aside, never inside
a number ("a10" is not the A100). Several words are one name: "rtx 4090" lists the
GPUs that hold every word. They are several names when each alone is a key, name or
alias ("h100 a100"), or when no GPU holds them all (said on stderr): the GPUs that
hold any of them are listed.`
	modelsLong = `models lists the model architectures. Words narrow the list to the models whose
key, name or an alias holds them, case and separators aside, never inside a number
("qwen3" is not Qwen-32B); those found by an alias come last. Several words are one
name: "llama 70b" lists the models that hold every word. They are several names when
each alone is a key, name or alias ("qwen3-8b llama-3.1-8b"), or when no model holds
them all (said on stderr): the models that hold any of them are listed. A model left
out on purpose ("flux", "sd3", "phi-4-reasoning", "mistral small 3.1") is said with
why, as estimate --model says it: as the error, or on stderr beside the models listed.`
)

// entryNames are what a catalog entry is called: its key, name and
// aliases.
type entryNames struct {
	key, name string
	aliases   []string
}

// holds reports whether the entry's key or name (byName), else one of
// its aliases, holds the normalised word nw (holdsWord).
func (e *entryNames) holds(nw string) (ok, byName bool) {
	if holdsWord(e.key, nw) || holdsWord(e.name, nw) {
		return true, true
	}
	for _, a := range e.aliases {
		if holdsWord(a, nw) {
			return true, false
		}
	}
	return false, false
}

// is reports whether the normalised word nw is the entry's key, name or
// an alias, case and separators aside: a name, not part of one.
func (e *entryNames) is(nw string) bool {
	if model.NormKey(e.key) == nw || model.NormKey(e.name) == nw {
		return true
	}
	for _, a := range e.aliases {
		if model.NormKey(a) == nw {
			return true
		}
	}
	return false
}

// Ranks narrowWords gives an entry.
const (
	notPicked   = iota
	pickedName  // its key or name holds the words
	pickedAlias // only through an alias
	pickedExact // the words are its key, name or an alias, whole
)

// narrowWords picks the entries words name, by the rule gpusLong says
// (a new user's walk: catalog gpus rtx 4090 listed every RTX and every 4090, the
// Quadro RTX 6000 and RTX A2000 among them): one name whose every word
// an entry holds (holdsWord: in its key, name or an alias, each word
// anywhere), unless each word alone is an entry's key, name or alias
// (h100 a100), or no entry holds them all: several names then, an entry
// picked when it holds any of them (apart says so, for the latter). An
// entry's rank is pickedName when its key or name holds the words (every
// one, or for several names any one), else pickedAlias. missing is the
// first word no entry holds when nothing is picked ("" with words that
// normalise to nothing).
func narrowWords(words []string, entries []entryNames) (rank []int, apart bool, missing string) {
	var nws, typed []string
	for _, w := range words {
		if nw := model.NormKey(w); nw != "" {
			nws, typed = append(nws, nw), append(typed, w)
		}
	}
	rank = make([]int, len(entries))
	if len(nws) == 0 {
		return rank, false, ""
	}
	every := func(e *entryNames) int { // one name: the entry holds each word
		r := pickedName
		for _, nw := range nws {
			ok, byName := e.holds(nw)
			if !ok {
				return notPicked
			}
			if !byName {
				r = pickedAlias
			}
		}
		return r
	}
	anyOf := func(e *entryNames) int { // several names: it holds one
		r := notPicked
		for _, nw := range nws {
			switch ok, byName := e.holds(nw); {
			case byName:
				return pickedName
			case ok:
				r = pickedAlias
			}
		}
		return r
	}
	fill := func(f func(*entryNames) int) (n int) {
		for i := range entries {
			if rank[i] = f(&entries[i]); rank[i] != notPicked {
				n++
			}
		}
		return n
	}
	named := func(nw string) bool { return slices.ContainsFunc(entries, func(e entryNames) bool { return e.is(nw) }) }
	if len(nws) > 1 && !slices.ContainsFunc(nws, func(nw string) bool { return !named(nw) }) {
		fill(anyOf)
		return rank, false, ""
	}
	if fill(every) > 0 {
		// The words as one name that is an entry's own, whole
		// (deepseek-ai/DeepSeek-R1): that entry first, before those whose
		// aliases only hold it (a new user's walk: R1's distills, Llama
		// 3.1 8B first, DeepSeek-V3/R1 last).
		whole := strings.Join(nws, "")
		for i := range entries {
			if rank[i] != notPicked && entries[i].is(whole) {
				rank[i] = pickedExact
			}
		}
		return rank, false, ""
	}
	for j, nw := range nws {
		if !slices.ContainsFunc(entries, func(e entryNames) bool { ok, _ := e.holds(nw); return ok }) {
			return rank, false, typed[j]
		}
	}
	fill(anyOf)
	return rank, true, ""
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

// unmatched is the usage error of word, which matches no entry of a
// list (gpus when gpus is set, else models): the word, the closest key
// and the list's command. An empty word is one of words that all
// normalise to nothing.
func unmatched(word string, words []string, keys []string, gpus bool) error {
	if word == "" {
		return usage(model.Msg("%q names nothing: give part of a key, name or alias", strings.Join(words, " ")))
	}
	w := word
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

// narrowGPUs keeps the GPUs words name (narrowWords), in catalog order,
// as a catalog holding only those for the list's writers; apart is
// narrowWords'. It has no notes (narrowModels' release notes).
func narrowGPUs(cat *model.Catalog, words []string) (_ *model.Catalog, apart bool, _ []model.Message, _ error) {
	out := &model.Catalog{AsOf: cat.AsOf}
	keys := make([]string, len(cat.GPUs))
	entries := make([]entryNames, len(cat.GPUs))
	for i := range cat.GPUs {
		g := &cat.GPUs[i]
		keys[i], entries[i] = g.Key, entryNames{g.Key, g.Name, g.Aliases}
	}
	rank, apart, missing := narrowWords(words, entries)
	for i, r := range rank {
		if r != notPicked {
			out.GPUs = append(out.GPUs, cat.GPUs[i])
		}
	}
	if len(out.GPUs) == 0 {
		return nil, false, nil, unmatched(missing, words, keys, true)
	}
	return out, apart, nil, nil
}

// narrowModels keeps the models words name, as narrowGPUs. A word that
// is a quantized release's id (Qwen/Qwen3-32B-AWQ, model.Catalog.Model)
// keeps its base entry, and a note says what the release is, as estimate
// says it; the other words narrow as narrowWords has them.
func narrowModels(cat *model.Catalog, words []string) (_ *model.Catalog, apart bool, _ []model.Message, _ error) {
	out := &model.Catalog{AsOf: cat.AsOf}
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
	keys := make([]string, len(cat.Models))
	entries := make([]entryNames, len(cat.Models))
	for i := range cat.Models {
		m := &cat.Models[i]
		keys[i], entries[i] = m.Key, entryNames{m.Key, m.Name, m.Aliases}
	}
	leftOut, rest := leftOutWords(rest, entries)
	rank := make([]int, len(cat.Models))
	missing := ""
	if len(rest) > 0 {
		rank, apart, missing = narrowWords(rest, entries)
	}
	for i := range cat.Models {
		if released[cat.Models[i].Key] {
			rank[i] = pickedName
		}
	}
	// The entry the words name whole comes first, then those whose key or
	// name holds the words, those found through an alias after (walk56:
	// "deepseek" listed Llama 3.1 8B and four Qwen2.5 models, whose
	// aliases name DeepSeek-R1's distills, before DeepSeek-V3).
	for _, want := range []int{pickedExact, pickedName, pickedAlias} {
		for i, r := range rank {
			if r == want {
				out.Models = append(out.Models, cat.Models[i])
			}
		}
	}
	switch {
	case len(out.Models) > 0:
		return out, apart, append(notes, leftOut...), nil
	case len(rest) > 0 || len(leftOut) == 0:
		return nil, false, leftOut, unmatched(missing, rest, keys, false)
	}
	// Only left-out models: the last reason is the error (exit 2, as a
	// word that matches nothing), the others notes before it.
	return nil, false, leftOut[:len(leftOut)-1], usage(leftOut[len(leftOut)-1])
}

// leftOutWords takes out of words the models the catalog leaves out on
// purpose, with the reason model.LeftOutReason gives (the one estimate
// --model gives), and returns the other words (a new user's walk:
// catalog models flux said only "no model matches", where estimate said
// why). A left-out name is never one an entry holds: "mistral small"
// lists Mistral Small 3, whose name holds both words.
//
// A left-out name is a run of words, found left to right, in any place
// and order among the others: the shortest run LeftOutReason has
// ("mistral small 3.1", "flux"), that does not start with a word standing
// outside it (llama in "llama mistral small 3.1"), lengthened by the
// words after it while it stays such a name ("flux dev",
// "stable-diffusion-3.5 large"). A word an entry's key or name starts
// with (a family: llama, mistral) or a left-out name of its own ends the
// run, so "flux llama" is Flux's reason and the Llamas listed, as "llama
// flux" is (a walk, 2026-12-06: "flux llama" was refused whole as a
// left-out name, the Llamas never shown), and "sd3 flux" is two names. A word of a
// name, such as "flu" or "phi-4", claims nothing (LeftOutReason needs the
// name).
func leftOutWords(words []string, entries []entryNames) (reasons []model.Message, rest []string) {
	holdsAll := func(ws []string) bool { // an entry holds every word
		var nws []string
		for _, w := range ws {
			if nw := model.NormKey(w); nw != "" {
				nws = append(nws, nw)
			}
		}
		return len(nws) > 0 && slices.ContainsFunc(entries, func(e entryNames) bool {
			for _, nw := range nws {
				if ok, _ := e.holds(nw); !ok {
					return false
				}
			}
			return true
		})
	}
	starts := func(w string) bool { // an entry's key or name starts with w: a family (llama, mistral), not a size or variant (large)
		nw := model.NormKey(w)
		return nw != "" && slices.ContainsFunc(entries, func(e entryNames) bool {
			return strings.HasPrefix(model.NormKey(e.key), nw) || strings.HasPrefix(model.NormKey(e.name), nw)
		})
	}
	leftOut := func(ws []string) (model.Message, bool) {
		if holdsAll(ws) {
			return model.Message{}, false
		}
		return model.LeftOutReason(strings.Join(ws, " "))
	}
	// "phi-4 reasoning" is held (by Phi-4-mini-reasoning, an alias of
	// phi-4-mini) and left out (Phi-4-reasoning): listed, and said.
	if len(words) > 1 && holdsAll(words) {
		if r, ok := model.LeftOutReason(strings.Join(words, " ")); ok {
			return []model.Message{r}, words
		}
	}
	for i := 0; i < len(words); {
		k := -1
		for j := i + 1; j <= min(len(words), i+maxLeftOutWords); j++ {
			if _, ok := leftOut(words[i:j]); ok {
				if j-i > 1 {
					if _, inner := leftOut(words[i+1 : j]); inner {
						break // the run starts after words[i]
					}
				}
				k = j
				break
			}
		}
		if k < 0 {
			rest = append(rest, words[i])
			i++
			continue
		}
		for k < min(len(words), i+maxLeftOutWords) && !starts(words[k]) {
			if _, own := leftOut(words[k : k+1]); own {
				break // the next left-out name ("sd3 flux")
			}
			if _, ok := leftOut(words[i : k+1]); !ok {
				break
			}
			k++
		}
		if r, _ := leftOut(words[i:k]); !slices.ContainsFunc(reasons, func(m model.Message) bool { return m.Key == r.Key && slices.Equal(m.Args, r.Args) }) {
			reasons = append(reasons, r) // 5,000 × flux: said once
		}
		i = k
	}
	return reasons, rest
}

// maxLeftOutWords bounds a left-out name's run of words: the longest
// ("stable diffusion 3.5 large turbo") has five. Without it, 400 words
// took 3.7 s and 2,000 more than 20 (each run tried to the end).
const maxLeftOutWords = 8

// splitWords is the arguments' words: "llama 70b" as llama 70b. A blank
// argument stays, for the narrowing to refuse ("" names nothing).
func splitWords(args []string) []string {
	var out []string
	for _, a := range args {
		if f := strings.Fields(a); len(f) > 0 {
			out = append(out, f...)
		} else {
			out = append(out, a)
		}
	}
	return out
}
