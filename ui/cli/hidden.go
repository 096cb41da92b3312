package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/data/update"
	"github.com/gpuplan/gpuplan/model"
)

// hiddenTypes says, once per provider, how many of its instance types
// the latest `catalog update` fetch no longer listed (the overlay's
// missing_since, model.Instance.MissingSince): recommend and offers do not
// rank them (Instance.Offered), and without a word a user could not tell
// a type missing from a mirror from one the provider never had (issue
// 29). Providers are those of the query (all when none is named); retired
// types are left out (the provider announced those). The file named is
// the overlay that marked the types, else catalog update's own.
func hiddenTypes(env *Env, cat *model.Catalog, providers []string) []model.Message {
	type hidden struct {
		n           int
		since, file string
	}
	by := map[string]*hidden{}
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Retired != "" || in.MissingSince == "" || len(providers) > 0 && !slices.Contains(providers, in.Provider) {
			continue
		}
		h := by[in.Provider]
		if h == nil {
			h = &hidden{}
			by[in.Provider] = h
		}
		h.n++
		h.since = max(h.since, in.MissingSince)
		if in.Origin != "" && in.Origin != "embedded" {
			h.file = in.Origin // the overlay that marked it (data's patch sets Origin)
		}
	}
	var dir string
	if env.UpdateDir != nil {
		dir, _ = env.UpdateDir()
	}
	var out []model.Message
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range by {
			if !yield(p) {
				return
			}
		}
	}) {
		h := by[p]
		count := model.Msg("%d instance types", h.n)
		if h.n == 1 {
			count = model.Msg("%d instance type", h.n)
		}
		file := h.file
		if file == "" && dir != "" {
			file = update.OverlayFile(dir, p)
		}
		if file == "" {
			out = append(out, model.Msg("%s: %v hidden: missing from the latest catalog update (%s); `gpuplan catalog update --providers %s` again or remove its overlay to see them",
				p, count, h.since, p))
			continue
		}
		out = append(out, model.Msg("%s: %v hidden: missing from the latest catalog update (%s); `gpuplan catalog update --providers %s` again or remove %s to see them",
			p, count, h.since, p, homeTilde(file)))
	}
	return out
}

// homeTilde writes path under the home directory as ~/…, as a user
// types it.
func homeTilde(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~" + string(filepath.Separator) + rel
	}
	return path
}
