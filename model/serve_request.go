package model

import (
	"cmp"
	"fmt"
	"slices"
)

// WeightFormatFor returns the serving weight format of an inference
// precision, as a quantized config.json reads (data/hf Config.Precision:
// int4 for AWQ and GPTQ checkpoints, int8, fp8) or as --precision gives it.
// A 4-bit checkpoint is served as AWQ: AWQ and GPTQ store the same 4-bit
// weights with group-128 scales (weightBytesPerLinear), so the plan is the
// same.
func WeightFormatFor(p Precision) WeightFormat {
	switch p {
	case INT4:
		return WeightAWQ
	case INT8:
		return WeightInt8
	case FP8:
		return WeightFP8
	case FP16, AMPFP16:
		return WeightFP16
	}
	return WeightBF16
}

// Serving returns the serving workload the request asks for, given w, the
// request resolved by Workload and Defaults: the [serve] answers, with the
// older inference keys filling what they leave out (context_len is
// max_model_len (or seq_len, as the configurator's context length asks
// it), gen_tokens output_tokens, sequences concurrency, tp the
// tensor-parallel degree) and the weight format from the precision (a
// quantized config.json's format) when none is given. bf16 so derived is
// vLLM's default --dtype auto, which loads a bf16 checkpoint in fp16 where
// the GPU has no bf16 (vllm/config/model.py _resolve_auto_dtype), so it
// allows that fallback; a weight format given asks for itself. Without a
// prompt length, a request fills its context: prompt = max_model_len −
// output.
func (r *WorkloadAnswers) Serving(w *Workload) Serving {
	s := r.Serve
	if s.WeightFormat == "" {
		s.WeightFormat = WeightFormatFor(w.Precision)
		s.AllowPrecisionFallback = s.WeightFormat == WeightBF16
	}
	if s.OutputTokens == 0 {
		s.OutputTokens = cmp.Or(r.GenTokens, w.GenTokens)
	}
	if s.MaxModelLen == 0 {
		switch {
		case r.ContextLen > 0:
			s.MaxModelLen = r.ContextLen
		case r.SeqLen > 0: // inference: tokens per sequence are the context (Workload.Defaults)
			s.MaxModelLen = r.SeqLen
		case s.PromptTokens > 0:
			s.MaxModelLen = s.PromptTokens + s.OutputTokens
		default:
			s.MaxModelLen = w.ContextLen
		}
	}
	if s.PromptTokens == 0 {
		s.PromptTokens = max(s.MaxModelLen-s.OutputTokens, 1)
	}
	if s.Concurrency == 0 && s.RequestsPerSec == 0 {
		s.Concurrency = cmp.Or(r.Sequences, w.Sequences)
	}
	if s.TP == 0 {
		s.TP = r.TP
	}
	return s
}

// ServesModel reports whether a is planned as a served LLM (PlanServing):
// a generative transformer with a known shape. Other inference workloads
// (encoders, vision models) keep the batch estimate.
func ServesModel(a *Architecture) bool { return a.HasShape() && a.Family.Generative() }

// ServeOffers lists the offers of cat that q allows, one per instance type:
// its cheapest region in q.Pricing (on-demand when unset), under the same
// pricing rules as Recommend (Catalog.price: retired types and prices in a
// currency without a rate are skipped) and q's provider, region, GPU and
// hourly price filters, and only GPUs the speed model can time
// (ServeTimed). Names read "provider type region pricing".
func ServeOffers(cat *Catalog, q Query) []ServeOffer {
	if q.Pricing == "" {
		q.Pricing = OnDemand
	}
	m := &matcher{q: q, cat: cat, regions: newRegionFilter(cat, q.Regions, q.Countries)}
	var out []ServeOffer
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() || in.GPUCount < 1 || !m.providerOK(in.Provider) || !m.gpuOK(in.GPU) {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil || !ServeTimed(g) {
			continue
		}
		best, region := 0.0, ""
		for j := range in.Prices {
			rp := &in.Prices[j]
			if !m.regionOK(in.Provider, rp.Region) {
				continue
			}
			usd, ok := cat.price(in, rp, q.Pricing, q.ExchangeRates)
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
		o := ServeOfferFor(in, g, best, fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, region, q.Pricing))
		o.Region, o.Pricing = region, q.Pricing
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b ServeOffer) int { return cmp.Compare(a.USDPerHour, b.USDPerHour) })
	return out
}

// ServeTimed reports whether the serving speed model can time g: decode
// needs the GPU's memory bandwidth and prefill its 16-bit peak
// (ServeSpeed); a GPU without them (the catalog's Radeon Pro V520) would
// plan at 0 tokens/s.
func ServeTimed(g *GPU) bool {
	return g.MemoryBandwidthGBps > 0 && (g.BF16TFLOPS > 0 || g.FP16TFLOPS > 0)
}
