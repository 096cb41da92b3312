package market

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Sibling is a GPU variant a query's name left out: "A100" is the 40GB
// SXM4 part (SkyPilot's naming, the catalog alias), so A100 80GB offers
// are not shown for it. Ask is the name that selects it and Offers how
// many rows it would add under the same filters.
type Sibling struct {
	Key, Ask string
	Spec     string // the query's gpu spec with the name replaced: "A100-80GB:1"
	Offers   int
}

// gpuFamily is the part of a catalog key its variants share: the first
// segment when it holds a digit ("a100-80gb" → "a100", "h100-nvl" →
// "h100"), else the first two ("rtx-4090" → "rtx-4090", so the 4090 D,
// "rtx-4090d", is its own GPU, not a variant).
func gpuFamily(key string) string {
	parts := strings.SplitN(key, "-", 3)
	if strings.ContainsAny(parts[0], "0123456789") || len(parts) == 1 {
		return parts[0]
	}
	return parts[0] + "-" + parts[1]
}

// Siblings returns, for the GPUs q names one by one (not by wildcard or
// vendor), the catalog's other variants of the same family that have
// offers under q's other filters, most offers first. Each is asked for by
// its first alias, else its key.
func Siblings(c *model.Catalog, q Query) []Sibling {
	var named []string
	for _, s := range q.GPUs {
		named = append(named, s.Keys...)
	}
	var out []Sibling
	for _, k := range named {
		fam := gpuFamily(k)
		for i := range c.GPUs {
			g := &c.GPUs[i]
			if g.Key == k || slices.Contains(named, g.Key) || gpuFamily(g.Key) != fam || slices.ContainsFunc(out, func(s Sibling) bool { return s.Key == g.Key }) {
				continue
			}
			ask := g.Key
			if len(g.Aliases) > 0 {
				ask = g.Aliases[0]
			}
			wide := q
			wide.GPUs = nil
			spec := ask
			for _, s := range q.GPUs {
				if slices.Contains(s.Keys, k) {
					if len(wide.GPUs) == 0 {
						spec = respec(s.Text, k, ask, c)
					}
					s.Keys = []string{g.Key}
					wide.GPUs = append(wide.GPUs, s)
				}
			}
			res, err := Browse(c, wide)
			if err != nil || len(res.Rows) == 0 {
				continue
			}
			out = append(out, Sibling{Key: g.Key, Ask: ask, Spec: spec, Offers: len(res.Rows)})
		}
	}
	slices.SortStableFunc(out, func(a, b Sibling) int { return b.Offers - a.Offers })
	return out
}

// respec is spec text with the part that named key replaced by ask:
// "A100:1" → "A100-80GB:1".
func respec(text, key, ask string, c *model.Catalog) string {
	parts := strings.Split(strings.Join(strings.Fields(text), ""), ":")
	for i, p := range parts {
		if keys, err := resolveGPUNames(p, c); err == nil && slices.Contains(keys, key) {
			parts[i] = ask
			return strings.Join(parts, ":")
		}
	}
	return ask
}
