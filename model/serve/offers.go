package serve

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gpuplan/gpuplan/model"
)

// WeightFormatFor returns the serving weight format of an inference
// precision, as a quantized config.json reads (data/hf Config.Precision:
// int4 for AWQ and GPTQ checkpoints, int8, fp8) or as --precision gives it.
// A 4-bit checkpoint is served as AWQ: AWQ and GPTQ store the same 4-bit
// weights with group-128 scales (weightBytesPerLinear), so the plan is the
// same.
func WeightFormatFor(p model.Precision) WeightFormat {
	switch p {
	case model.INT4:
		return WeightAWQ
	case model.INT8:
		return WeightInt8
	case model.FP8:
		return WeightFP8
	case model.FP16, model.AMPFP16:
		return WeightFP16
	}
	return WeightBF16
}

// ServesModel reports whether a is planned as a served LLM (PlanServing):
// a generative transformer with a known shape. Other inference workloads
// (encoders, vision models) keep the batch estimate.
func ServesModel(a *model.Architecture) bool { return a.HasShape() && a.Family.Generative() }

// Offers lists the offers of cat that q allows, one per instance type:
// its cheapest region in q.Pricing (on-demand when unset), under the same
// pricing rules as model.Recommend (model.Catalog.Price: retired types and prices in a
// currency without a rate are skipped) and q's provider, region, GPU and
// hourly price filters, and only GPUs the speed model can time
// (Timed). Names read "provider type region pricing".
func Offers(cat *model.Catalog, q model.Query) []Offer {
	if q.Pricing == "" {
		q.Pricing = model.OnDemand
	}
	var out []Offer
	regions := q.RegionFilter(cat)
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() || in.GPUCount < 1 || !q.AllowsProvider(in.Provider) || !q.AllowsGPU(in.GPU) {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil || !Timed(g) {
			continue
		}
		best, region := 0.0, ""
		for j := range in.Prices {
			rp := &in.Prices[j]
			if !regions.Match(in.Provider, rp.Region) {
				continue
			}
			usd, ok := cat.Price(in, rp, q.Pricing, q.ExchangeRates)
			if !ok || !(usd > 0) || q.MaxUSDPerHour > 0 && usd > q.MaxUSDPerHour {
				continue
			}
			if region == "" || usd < best {
				best, region = usd, rp.Region
			}
		}
		if region == "" {
			continue
		}
		o := OfferFor(in, g, best, fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, region, q.Pricing))
		o.Region, o.Pricing = region, q.Pricing
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b Offer) int { return cmp.Compare(a.USDPerHour, b.USDPerHour) })
	return out
}

// Timed reports whether the serving speed model can time g: decode
// needs the GPU's memory bandwidth and prefill its 16-bit peak
// (Speed); a GPU without them (the catalog's Radeon Pro V520) would
// plan at 0 tokens/s.
func Timed(g *model.GPU) bool {
	return g.MemoryBandwidthGBps > 0 && (g.BF16TFLOPS > 0 || g.FP16TFLOPS > 0)
}
