package launch

import "github.com/gpuplan/gpuplan/model"

// Alternatives ranks every catalog offer for workload w on chosen's GPU,
// GPU count and pricing (several nodes only when chosen has them) and
// returns all but chosen itself, best first: Options.Alternatives, from
// which a SkyPilot file keeps the equivalent ones as its ordered failover
// candidates (candidatesFrom). allowPrecisionFallback is the search's
// fallback setting, so the ranking is the one the user saw. An error of
// the ranking leaves the file with the one offer (nil).
//
// gpuplan export and the configurator's export both call it, so that the
// same configuration writes the same file from either.
func Alternatives(w model.Workload, cat *model.Catalog, chosen *model.Offer, allowPrecisionFallback bool) []*model.Offer {
	if chosen == nil || chosen.Instance == nil || chosen.GPU == nil || cat == nil {
		return nil
	}
	q := model.Query{Pricing: chosen.Pricing, GPUs: []string{chosen.GPU.Key}, AllowMultiNode: chosen.Instances > 1,
		AllowPrecisionFallback: allowPrecisionFallback}
	w.GPUs = chosen.GPUs
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		return nil
	}
	out := make([]*model.Offer, 0, len(rec.Offers))
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if o.Instance.Provider == chosen.Instance.Provider && o.Instance.Type == chosen.Instance.Type && o.Region == chosen.Region {
			continue
		}
		out = append(out, o)
	}
	return out
}
