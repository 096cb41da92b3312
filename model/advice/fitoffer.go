package advice

import (
	"cmp"

	"github.com/gpuplan/gpuplan/model"
)

// OfferFit is a single change to the workload that makes a borderline
// offer (model.Offer.Risky) fit across its memory range on the same
// provider, instance type, region, GPU and pricing (FitOffer).
type OfferFit struct {
	Change string        // the change as the savings name it (Change.Name)
	Msg    model.Message // Change as a message, for translation
	Kind   string        // Change.Kind: "checkpointing", "batch", "precision", …
	// Offer is the offer the change makes: the same instance type in the
	// same region, fitting across its memory range, possibly on fewer
	// instances. A copy, safe to keep.
	Offer model.Offer
	// USD is what it costs as the savings price it (the job, or a month
	// without a dataset; a spot job at its expected cost with
	// interruptions when spot is given).
	USD float64
}

// FitOffer returns the change that makes o, a borderline offer of rec
// (Recommend(w, cat, q)'s result), fit across its memory range on its own
// provider, instance type, region, GPU and pricing: of the changes the
// savings try (ScenarioChanges) those to the workload, each applied alone
// and ranked by the same engine on a query pinned to o (a CheapestFinder
// from rec's estimates, which it reads and never writes). Of the changes
// that make it fit, one that keeps the training's arithmetic (activation
// checkpointing, a smaller micro-batch with the accumulation that keeps
// the global batch, FSDP sharding: KeepsArithmetic) comes before one that
// changes it (8-bit AdamW states, mixed precision instead of fp32), then
// the cheaper (USD; spot as Savings prices it). It is the fallback a
// report names beside a borderline offer worth trying first
// (model.Recommendation.TryFirst): when the job runs out of memory, the
// change that makes the same host fit should change memory, not what is
// trained. ok is false when o is not borderline or no change makes it fit.
func FitOffer(cat *model.Catalog, w model.Workload, q model.Query, rec *model.Recommendation, o *model.Offer, spot SpotJobCost) (fit OfferFit, ok bool) {
	if o == nil || !o.Risky() || o.Instance == nil || o.GPU == nil {
		return OfferFit{}, false
	}
	w.Defaults()
	pinned := q
	pinned.Providers = []string{o.Instance.Provider}
	pinned.InstanceType = o.Instance.Type
	pinned.GPUs = []string{o.GPU.Key}
	pinned.Regions = []string{o.Region}
	pinned.Countries = nil // the region is named: it is in them
	pinned.Pricing = o.Pricing
	pinned.SpotView = nil // one host: nothing to weigh
	find := rec.CheapestFinder(cat)
	for _, c := range ScenarioChanges(Scenario{Workload: w, Query: pinned}, nil, nil) {
		if c.Kind == "pricing" || c.Kind == "gpu" || c.Kind == "region" {
			continue // those change the offer, not the workload
		}
		s := c.Apply(Scenario{Workload: w, Query: pinned})
		got, found := find.Offer(s.Workload, s.Query)
		if !found || got.Risky() || got.Late() || got.Instance.Type != o.Instance.Type || got.Region != o.Region {
			continue
		}
		usd, priced := offerCost(got, spot)
		if !priced {
			continue
		}
		cand := OfferFit{Change: c.Name, Msg: c.Msg, Kind: c.Kind, Offer: *got, USD: usd}
		if !ok || betterFit(&cand, &fit) {
			fit, ok = cand, true
		}
	}
	return fit, ok
}

// betterFit reports whether a is the better fallback of two: one that
// keeps the arithmetic first, then the cheaper, then by name.
func betterFit(a, b *OfferFit) bool {
	if ka, kb := KeepsArithmetic(a.Kind), KeepsArithmetic(b.Kind); ka != kb {
		return ka
	}
	if c := cmp.Compare(a.USD, b.USD); c != 0 {
		return c < 0
	}
	return a.Change < b.Change
}

// KeepsArithmetic reports whether a change of kind (Change.Kind) trains
// the same model with the same arithmetic, so only memory and time move:
// activation checkpointing recomputes the activations it drops (Chen et
// al. 2016), a smaller micro-batch with more accumulation keeps the
// global batch, and FSDP shards the same states (as ZeRO-3, Rajbhandari
// et al. 2020). 8-bit optimizer states (Dettmers et al. 2022) and a
// change of precision change the arithmetic.
func KeepsArithmetic(kind string) bool {
	switch kind {
	case "checkpointing", "checkpointing+batch", "batch", "sharding":
		return true
	}
	return false
}
