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
// a generative transformer with a known shape that vLLM serves (Unserved:
// not T5). Other inference workloads (encoders, vision models, T5) keep
// the batch estimate.
func ServesModel(a *model.Architecture) bool {
	return a.HasShape() && a.Family.Generative() && Unserved(a).IsZero()
}

// Offers lists the offers of cat that q allows, one per instance type:
// its cheapest region in q.Pricing (on-demand when unset), under the same
// pricing rules as model.Recommend (model.Catalog.Price: retired types and prices in a
// currency without a rate are skipped) and q's provider, region, GPU and
// hourly price filters, and only GPUs vLLM serves on and the speed model
// can time (Unservable). Names read "provider type region pricing"; each
// carries the catalog's date (CatalogAsOf).
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
		if err != nil || !Unservable(g).IsZero() {
			continue
		}
		best, region, same := 0.0, "", 0
		for j := range in.Prices {
			rp := &in.Prices[j]
			if !regions.Match(in.Provider, rp.Region) {
				continue
			}
			usd, ok := cat.Price(in, rp, q.Pricing, q.ExchangeRates)
			if !ok || !(usd > 0) || q.MaxUSDPerHour > 0 && usd > q.MaxUSDPerHour {
				continue
			}
			switch {
			case region == "" || usd < best:
				best, region, same = usd, rp.Region, 1
			case usd == best:
				same++
			}
		}
		if region == "" {
			continue
		}
		o := OfferFor(in, g, best, fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, region, q.Pricing))
		o.Region, o.Pricing, o.Discount, o.SameRegions = region, q.Pricing, cat.DiscountFor(in, q.Pricing), same
		o.CatalogAsOf = cat.AsOf
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

// vllmROCmArchitectures are the AMD architectures vLLM's ROCm build runs
// on, as the catalog names them: "MI200s (gfx90a), MI300 (gfx942), MI350
// (gfx950), Radeon RX 7900 series (gfx1100/1101), Radeon RX 9000 series
// (gfx1200/1201)" (vLLM docs, getting_started/installation/
// gpu.rocm.inc.md, requirements).
var vllmROCmArchitectures = []string{"cdna2", "cdna3", "cdna4", "rdna3", "rdna4"}

// Unservable returns why vLLM cannot serve on g at all, whatever the model
// and format, or a zero Message when it can:
//   - an NVIDIA GPU below compute capability 7.0 (Pascal, Maxwell,
//     Kepler): no vLLM release builds for it. Releases up to v0.14.0
//     at least need "compute capability 7.0 or higher (e.g., V100, T4,
//     RTX20xx, A100, L4, H100, etc.)" (vLLM docs, v0.14.0,
//     getting_started/installation/gpu); current ones need 7.5: "GPU:
//     compute capability 7.5 or higher (e.g., T4, RTX20xx, A100, L4, H100,
//     B200, etc.)" (docs/getting_started/installation/gpu.cuda.inc.md at
//     tag v0.21.0 and on main), and CMakeLists.txt's CUDA_SUPPORTED_ARCHS
//     start at 7.5 for CUDA 12.8 and 13 (7.0 only below 12.8). v0.20.0
//     made CUDA 13.0 the default wheel and image (vllm-project/vllm#39878;
//     vllm-project/router#154: "The vLLM 0.20.0 release has switched to
//     CUDA 13 for the default wheels"), and #39878 took 7.0 out of the
//     image's TORCH_CUDA_ARCH_LIST ("7.0 7.5 8.0 8.9 9.0 10.0 12.0" to
//     "7.5 8.0 8.6 8.9 9.0 10.0 12.0+PTX", docker/versions.json). A Volta
//     GPU (V100, 7.0) is still planned, for a release before v0.20.0:
//     the launch files install vLLM unpinned and, on Volta, say to pin
//     one (launch.Serve's header note); the message says so too;
//   - an AMD GPU outside vLLM's ROCm list (vllmROCmArchitectures): the
//     Radeon Pro V520 (RDNA 1), the Instinct MI25 (GCN 5);
//   - a GPU without the memory bandwidth or 16-bit peak the speed model
//     times decode and prefill with (Timed).
//
// The message names the GPU and what would serve.
func Unservable(g *model.GPU) model.Message {
	switch {
	case g.Vendor == "nvidia" && g.ComputeCapability != "" && !g.CCAtLeast(7, 0):
		return model.Msg("vLLM needs compute capability 7.0 or newer (Volta with a release before v0.20.0, Turing and later with any); %s is %s", g.Name, g.ComputeCapability)
	case g.Vendor == "amd" && !slices.Contains(vllmROCmArchitectures, g.Architecture):
		return model.Msg("vLLM's ROCm build runs on Instinct MI200, MI300 and MI350 and Radeon RX 7900 and 9000 GPUs; %s (%s) is not one of them", g.Name, g.Architecture)
	case !Timed(g):
		return model.Msg("the catalog has no memory bandwidth or 16-bit TFLOPS for %s, which the serving speed model needs", g.Name)
	}
	return model.Message{}
}
