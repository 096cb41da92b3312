package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// ServingJSON echoes the serving workload after defaults, in [serve] key
// names. Scripts rely on the field names: add fields, never rename them.
type ServingJSON struct {
	WeightFormat string `json:"weight_format"`
	// WeightFormatAsReleased: weight_format is the released checkpoint's
	// (fp8 for DeepSeek-V3/R1, mxfp4 for gpt-oss), none having been asked.
	WeightFormatAsReleased bool   `json:"weight_format_as_released,omitempty"`
	KVCacheDType           string `json:"kv_cache_dtype"`
	MaxModelLen            int    `json:"max_model_len"`
	// RopeScaling is the YaRN scaling vLLM is told to apply
	// (--rope-scaling), as the flag writes it ("yarn:4"); absent for none.
	RopeScaling  string `json:"rope_scaling,omitempty"`
	PromptTokens int    `json:"prompt_tokens"`
	OutputTokens int    `json:"output_tokens"`
	// SharedPrefixTokens: prompt tokens every request shares (cached by vLLM).
	SharedPrefixTokens int     `json:"shared_prefix_tokens,omitempty"`
	Concurrency        int     `json:"concurrency,omitempty"`
	RequestsPerSec     float64 `json:"requests_per_sec,omitempty"`
	TTFTTargetMs       float64 `json:"ttft_target_ms,omitempty"`
	TPOTTargetMs       float64 `json:"tpot_target_ms,omitempty"`
	// TPOTTargetDefault: tpot_target_ms is the default (100 ms), not asked
	// for. Objective is what recommend ranks by: "usd_per_hour" (the cost
	// of carrying a fixed load) or "usd_per_million_output_tokens" (a
	// price per token: no load given).
	TPOTTargetDefault    bool    `json:"tpot_target_default,omitempty"`
	Objective            string  `json:"objective"`
	GPUMemoryUtilization float64 `json:"gpu_memory_utilization"`
	MaxNumBatchedTokens  int     `json:"max_num_batched_tokens"`
	MaxNumSeqs           int     `json:"max_num_seqs"`
}

// NewServingJSON returns s (with Defaults applied) as JSON.
func NewServingJSON(s *serve.Serving) ServingJSON {
	return ServingJSON{WeightFormat: string(s.WeightFormat), WeightFormatAsReleased: s.AsReleased, KVCacheDType: string(s.KVCacheDType), MaxModelLen: s.MaxModelLen, RopeScaling: s.RopeScaling.String(),
		PromptTokens: s.PromptTokens, OutputTokens: s.OutputTokens, SharedPrefixTokens: s.SharedPrefixTokens, Concurrency: s.Concurrency, RequestsPerSec: s.RequestsPerSec,
		TTFTTargetMs: s.TTFTTargetMs, TPOTTargetMs: s.TPOTTargetMs, TPOTTargetDefault: s.DefaultTPOT, Objective: objective(s),
		GPUMemoryUtilization: s.GPUMemoryUtilization, MaxNumBatchedTokens: s.MaxNumBatchedTokens, MaxNumSeqs: s.MaxNumSeqs}
}

// WeightFormatLabel names s's weight format, "fp8 (as released)" when it
// is the released checkpoint's (serve.Serving.AsReleased).
func WeightFormatLabel(lang *i18n.Printer, s *serve.Serving) string {
	if s.AsReleased {
		return lang.Sprintf("%s (as released)", s.WeightFormat)
	}
	return string(s.WeightFormat)
}

// objective names what a serving ranking minimises (serve.Serving.PerToken).
func objective(s *serve.Serving) string {
	if s.PerToken {
		return "usd_per_million_output_tokens"
	}
	return "usd_per_hour"
}

// ServeMemoryJSON is one GPU's memory as vLLM lays it out, in GiB, with
// the KV cache's capacity in tokens and full-length requests.
type ServeMemoryJSON struct {
	TotalGiB   float64 `json:"total_gib"`
	BudgetGiB  float64 `json:"budget_gib"` // total × gpu_memory_utilization
	WeightsGiB float64 `json:"weights_gib"`
	// LoRAGiB is the part of WeightsGiB that is vLLM's LoRA slots for a
	// served adapter (serve.Memory.LoRA); left out without one.
	LoRAGiB         float64 `json:"lora_gib,omitempty"`
	ActivationGiB   float64 `json:"activation_gib"`
	NonTorchGiB     float64 `json:"non_torch_gib"`
	KVCacheGiB      float64 `json:"kv_cache_gib"`
	KVBytesPerToken int64   `json:"kv_bytes_per_token"`
	KVTokens        int     `json:"kv_tokens"`
	MaxConcurrency  float64 `json:"max_concurrency"`
	// CrossAttentionTokens are the KV-cache tokens every request of an
	// encoder-decoder holds for cross-attention over the encoder's
	// positions (Whisper: 1504, its 1500 in whole blocks), which
	// max_concurrency counts beside max_model_len; left out for a
	// decoder-only model.
	CrossAttentionTokens int `json:"cross_attention_tokens,omitempty"`
	// SlidingWindow is the tokens a sliding-window layer keeps (gpt-oss
	// 128, Gemma 3 1024) and SlidingWindowLayers how many of this GPU's
	// layers are such layers; RequestKVGiB is the KV cache one request of
	// max_model_len holds on this GPU at most, its full-attention layers'
	// max_model_len and its sliding-window layers' window (vLLM's hybrid
	// KV cache manager, serve.KVLayout). All three are left out for a
	// model without sliding-window layers.
	SlidingWindow       int     `json:"sliding_window,omitempty"`
	SlidingWindowLayers int     `json:"sliding_window_layers,omitempty"`
	RequestKVGiB        float64 `json:"request_kv_gib,omitempty"`
	// KVCacheBand is the 90% range of kv_cache_gib, GiB per GPU, from the
	// serving calibration (group "serve/kv-cache"), as training's
	// memory.band; left out when there is no KV cache (ServeBands).
	KVCacheBand *BandJSON `json:"kv_cache_band,omitempty"`
}

// ServePlanJSON is one serving plan: the split, the memory of one GPU, the
// speed at the load and the cost. Latencies in milliseconds, rates per
// second over all replicas, costs in USD (null without a price).
type ServePlanJSON struct {
	Offer        string `json:"offer"`
	Provider     string `json:"provider,omitempty"`
	InstanceType string `json:"instance_type,omitempty"`
	Region       string `json:"region,omitempty"`
	Pricing      string `json:"pricing,omitempty"`
	GPU          string `json:"gpu"`
	GPUsPerNode  int    `json:"gpus_per_node"`
	Nodes        int    `json:"nodes"`
	GPUs         int    `json:"gpus"`
	// IdleGPUs are the GPUs rented that no replica uses: a split that
	// does not divide them (TP 2 on 3 GPUs leaves 1); left out when none.
	IdleGPUs int             `json:"idle_gpus,omitempty"`
	TP       int             `json:"tp"`
	PP       int             `json:"pp"`
	Replicas int             `json:"replicas"`
	Memory   ServeMemoryJSON `json:"memory"`
	// The fields below repeat the memory's KV capacity at the top level,
	// where scripts ranking offers look for them.
	KVTokens                  int      `json:"kv_tokens"`
	MaxConcurrency            float64  `json:"max_concurrency"`
	Batch                     int      `json:"batch"` // sequences decoding together per replica
	TTFTMs                    float64  `json:"ttft_ms"`
	TPOTMs                    float64  `json:"tpot_ms"`
	OutputTokensPerS          float64  `json:"output_tokens_per_s"`
	InputTokensPerS           float64  `json:"input_tokens_per_s"`
	RequestsPerS              float64  `json:"requests_per_s"`
	USDPerHour                *float64 `json:"usd_per_hour"`
	USDPerMillionOutputTokens *float64 `json:"usd_per_million_output_tokens"`
	USDPerMillionInputTokens  *float64 `json:"usd_per_million_input_tokens"`
	Fits                      bool     `json:"fits"`
	Meets                     bool     `json:"meets"`
	// SlowerThanReading: the TPOT is above serve.ReadingTPOTMs (189 ms),
	// text streams slower than people read (serve.Plan.SlowerThanReading).
	SlowerThanReading bool `json:"slower_than_reading"`
	// Borderline says why a plan that meets its targets at the estimate
	// may not across the estimate's 90% range (serve.Plan.Borderline);
	// empty when the range meets them too, or the plan does not meet.
	Borderline string   `json:"borderline,omitempty"`
	Reasons    []string `json:"reasons"`
	// Exportable: gpuplan export writes launch files for the plan; false
	// when one replica spans instances (a Ray cluster, allowed by
	// --allow-multi-node), with NotExported saying so (serve.Plan.NoExport).
	Exportable  bool   `json:"exportable"`
	NotExported string `json:"not_exported,omitempty"`
	// Grown says why an automatic pipeline has more than one stage: what
	// the smaller pipeline lacked (serve.Plan.Grown); empty otherwise.
	Grown string `json:"grown,omitempty"`
	// Chosen says which TP estimate chose when --tp was not given and
	// why not the next smaller one (serve.Plan.Chosen); empty otherwise,
	// and in recommend, whose every row is a chosen split.
	Chosen string `json:"chosen,omitempty"`
	// Would says what would meet the targets when estimate held the plan
	// to the --gpus given (serve.Plan.Would); empty otherwise.
	Would string `json:"would,omitempty"`
	// WeightFormat is what vLLM loads on this GPU; FallbackFrom the format
	// asked for when the GPU cannot run it (precision fallback allowed),
	// with Fallback saying why; both empty otherwise.
	WeightFormat string `json:"weight_format"`
	FallbackFrom string `json:"fallback_from,omitempty"`
	Fallback     string `json:"fallback,omitempty"`
	// Source, AsOf and Origin say where the price came from, as an
	// offer's do (an overlay's region price names the overlay); left out
	// for an offer not from the catalog.
	Source string `json:"source,omitempty"`
	AsOf   string `json:"as_of,omitempty"`
	Origin string `json:"origin,omitempty"`

	// TPOTBand and OutputTokensPerSBand are the 90% ranges of tpot_ms
	// (ms) and output_tokens_per_s (tokens/s), from the serving
	// calibration (groups "serve/tpot" and "serve/throughput"); left out
	// when the plan does not fit (ServeBands).
	TPOTBand             *BandJSON `json:"tpot_band,omitempty"`
	OutputTokensPerSBand *BandJSON `json:"output_tokens_per_s_band,omitempty"`

	// RegionsUnconfirmed is set, as training's offers have it, when the
	// provider's regions say where a price applies, not where the type is
	// offered (model.RegionsUnconfirmed: Lambda, OCI), so region is no
	// place the type is known to be in; RegionLabel is then the region as
	// the table writes it, "any of 17 regions" when the offer stands for
	// several (serve.Offer.SameRegions). Both left out otherwise; added
	// last, so the members before keep their places.
	RegionsUnconfirmed bool   `json:"regions_unconfirmed,omitempty"`
	RegionLabel        string `json:"region_label,omitempty"`

	// Cleared says why the plan has more replicas than the fewest that
	// carry the load: those meet the targets only at the estimate, these
	// across their 90% ranges (serve.Plan.Cleared); the plan's figures
	// above are these replicas'. ClearedFromReplicas are the fewest, the
	// plan --replicas N gives, and ClearedFromUSDPerHour their price per
	// hour (null without a price). All three left out when the plan is
	// the fewest replicas, or the replicas were given.
	Cleared               string   `json:"cleared,omitempty"`
	ClearedFromReplicas   int      `json:"cleared_from_replicas,omitempty"`
	ClearedFromUSDPerHour *float64 `json:"cleared_from_usd_per_hour,omitempty"`

	// Dearer says, for a borderline plan ranked before the offers that
	// meet the targets across their 90% range because the cheapest of
	// them costs over twice it (serve.Plan.Dearer), which offer that is
	// (DearerOffer, its "offer") and its price per hour. Left out
	// otherwise.
	Dearer           string   `json:"dearer,omitempty"`
	DearerOffer      string   `json:"dearer_offer,omitempty"`
	DearerUSDPerHour *float64 `json:"dearer_usd_per_hour,omitempty"`
	// DearerUSDPerMOutput is that offer's $ per million output tokens, the
	// cost compared when the question is priced per token (no load given).
	DearerUSDPerMOutput *float64 `json:"dearer_usd_per_m_output,omitempty"`

	// PriceAgeDays is how many days as_of is older than the catalog's
	// date, as training's offers count it (serve.Offer.PriceAgeDays,
	// model.Offer.PriceAgeDays): past 90 (market.StaleAfter) the text
	// flags the price as old. Left out for an offer not from the
	// catalog's offers (an estimate's GPUs, a phase's own price); added
	// last.
	PriceAgeDays *int `json:"price_age_days,omitempty"`

	// BorderlineOn is which figure's 90% range borderline is about,
	// "tpot" or "kv-cache" (serve.Plan.BorderlineOn): the table's "~" is
	// on that column. Left out with borderline; added last.
	BorderlineOn string `json:"borderline_on,omitempty"`
}

// finite returns a rounded v, or nil when v is 0 (no price) or infinite.
func finite(v float64, digits int) *float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	r := Round(v, digits)
	return &r
}

// NewServePlanJSON returns p as JSON. The KV cache is never below 0 GiB,
// as in the table: weights that overflow the budget leave none, and the
// reasons say by how much.
func NewServePlanJSON(p *serve.Plan) ServePlanJSON {
	o := &p.Offer
	m := &p.Memory
	j := ServePlanJSON{Offer: o.Name, Region: o.Region, Pricing: string(o.Pricing), GPUsPerNode: o.GPUsPerNode,
		Nodes: p.Nodes, GPUs: p.GPUs, IdleGPUs: p.IdleGPUs, TP: p.TP, PP: p.PP, Replicas: p.Replicas,
		Memory: ServeMemoryJSON{TotalGiB: Round(m.TotalBytes/model.GiB, 4), BudgetGiB: Round(m.BudgetBytes/model.GiB, 4),
			WeightsGiB: Round(m.Weights/model.GiB, 4), LoRAGiB: Round(m.LoRA/model.GiB, 4), ActivationGiB: Round(m.Activation/model.GiB, 4),
			NonTorchGiB: Round(m.NonTorch/model.GiB, 4), KVCacheGiB: Round(max(m.KVCache, 0)/model.GiB, 4),
			KVBytesPerToken: i64(m.KVBytesPerToken), KVTokens: m.KVTokens, MaxConcurrency: Round(m.MaxConcurrency, 4), CrossAttentionTokens: m.CrossTokens},
		KVTokens: m.KVTokens, MaxConcurrency: Round(m.MaxConcurrency, 4), Batch: p.Perf.Batch,
		TTFTMs: Round(p.Perf.TTFTSec*1e3, 4), TPOTMs: Round(p.Perf.TPOTSec*1e3, 4),
		OutputTokensPerS: Round(p.OutputTokensPerSec, 4), InputTokensPerS: Round(p.InputTokensPerSec, 4),
		RequestsPerS: Round(p.RequestsPerSec, 4), USDPerHour: finite(p.USDPerHour, 6),
		Fits: p.Fits, Meets: p.Meets, SlowerThanReading: p.SlowerThanReading(), Borderline: p.Borderline.String(), Reasons: append([]string{}, p.Reasons...), Grown: p.Grown.String(),
		WeightFormat: string(p.Serving.WeightFormat), FallbackFrom: string(p.FallbackFrom), Fallback: p.Fallback.String(),
		Exportable: p.NoExport.IsZero(), NotExported: p.NoExport.String(),
		Cleared: p.Cleared.String(), ClearedFromReplicas: p.ClearedFrom, ClearedFromUSDPerHour: finite(p.ClearedFromUSDPerHour, 6),
		Dearer: p.Dearer.String(), DearerOffer: p.DearerOffer, DearerUSDPerHour: finite(p.DearerUSDPerHour, 6),
		DearerUSDPerMOutput: finite(p.DearerUSDPerMOutput, 6)}
	if l := &m.Layout; l.Sliding() {
		j.Memory.SlidingWindow, j.Memory.SlidingWindowLayers = l.Window, l.SlidingLayers
		j.Memory.RequestKVGiB = Round(m.RequestKVBytes(p.Serving.MaxModelLen, p.Serving.MaxNumBatchedTokens)/model.GiB, 4)
	}
	if o.GPU != nil {
		j.GPU = o.GPU.Key
	}
	if in := o.Instance; in != nil {
		j.Provider, j.InstanceType = in.Provider, in.Type
		j.Source, j.Origin, j.AsOf = o.Provenance()
		if model.RegionsUnconfirmed(in.Provider) {
			j.RegionsUnconfirmed, j.RegionLabel = true, ServeRegionIn(nil, o)
		}
		if o.CatalogAsOf != "" {
			days := o.PriceAgeDays()
			j.PriceAgeDays = &days
		}
	}
	if !p.Borderline.IsZero() {
		j.BorderlineOn = string(p.BorderlineOn)
	}
	b := ServeBands(p)
	j.Memory.KVCacheBand = roundBand(b.KVCache, 1.0/model.GiB)
	j.TPOTBand = roundBand(b.TPOT, 1e3)
	j.OutputTokensPerSBand = roundBand(b.Output, 1)
	if p.Fits {
		j.USDPerMillionOutputTokens = finite(p.USDPerMOutput, 4)
		j.USDPerMillionInputTokens = finite(p.USDPerMInput, 4)
	}
	return j
}

// ServeEstimateJSON is estimate --task inference for a generative model:
// the serving request and its plan on the GPUs given.
type ServeEstimateJSON struct {
	Model       ModelJSON     `json:"model"`
	Task        string        `json:"task"`
	Params      int64         `json:"params"`
	Serving     ServingJSON   `json:"serving"`
	Plan        ServePlanJSON `json:"plan"`
	Warnings    []string      `json:"warnings"`
	Assumptions []string      `json:"assumptions"`
}

// NewServeEstimateJSON returns the plan p of w as JSON.
func NewServeEstimateJSON(w *model.Workload, p *serve.Plan) ServeEstimateJSON {
	return ServeEstimateJSON{Model: modelJSON(&w.Model),
		Task: string(model.TaskInference), Params: i64(w.Model.ParamCount()), Serving: NewServingJSON(&p.Serving),
		Plan: servePlanEstimateJSON(p), Warnings: append([]string{}, p.Reasons...), Assumptions: serveAssumptionsFor(nil, p)}
}

// servePlanEstimateJSON is NewServePlanJSON with the TP the estimate
// chose (serve.Plan.Chosen).
func servePlanEstimateJSON(p *serve.Plan) ServePlanJSON {
	j := NewServePlanJSON(p)
	j.Chosen = p.Chosen.String()
	j.Would = p.Would.String()
	return j
}

// ServeRecommendJSON is recommend --task inference, in recommend's
// training shape: Offers are the plans that meet the load and latency
// targets, cheapest first by serving.objective (what the table ranks:
// the cost per hour of a fixed load, or per million output tokens);
// Rejected are the nearest misses, as many as the training
// report keeps, in RankServing's order (fitting but too slow first, the
// table's "Near misses"); Considered and Meeting count every offer, so a
// --limit or the cut of the misses hides nothing.
type ServeRecommendJSON struct {
	Model      ModelJSON            `json:"model"`
	Task       string               `json:"task"`
	Serving    ServingJSON          `json:"serving"`
	Considered int                  `json:"considered"`
	Meeting    int                  `json:"meeting"`
	Offers     []ServePlanJSON      `json:"offers"`
	Rejected   []ServeRejectionJSON `json:"rejected"`
}

// ServeRejectionJSON is one serving near miss: training's RejectionJSON
// (the price of the nodes the plan needs, one when it needs none because
// nothing fits; the reasons joined by "; ") and whether the model fits in
// memory at all.
type ServeRejectionJSON struct {
	RejectionJSON
	Fits bool `json:"fits"`
}

// ServeNearMisses is how many misses the serving JSON keeps: as many as
// the training matcher does (model.Recommend's nearMissCount).
const ServeNearMisses = 10

// NewServeRecommendJSON returns plans (RankServing's order) as JSON: at
// most limit offers that meet the targets (0: all) and the first
// ServeNearMisses that do not.
func NewServeRecommendJSON(w *model.Workload, s *serve.Serving, plans []serve.Plan, limit int) ServeRecommendJSON {
	r := ServeRecommendJSON{Model: modelJSON(&w.Model),
		Task: string(model.TaskInference), Serving: NewServingJSON(s), Considered: len(plans),
		Offers: []ServePlanJSON{}, Rejected: []ServeRejectionJSON{}}
	for i := range plans {
		p := &plans[i]
		if !p.Meets {
			if len(r.Rejected) < ServeNearMisses {
				r.Rejected = append(r.Rejected, newServeRejectionJSON(p))
			}
			continue
		}
		r.Meeting++
		if limit == 0 || len(r.Offers) < limit {
			r.Offers = append(r.Offers, NewServePlanJSON(p))
		}
	}
	return r
}

func newServeRejectionJSON(p *serve.Plan) ServeRejectionJSON {
	o := &p.Offer
	nodes := max(p.Nodes, 1)
	j := ServeRejectionJSON{RejectionJSON: RejectionJSON{Region: o.Region, PricePerHourUSD: Round(o.USDPerHour*float64(nodes), 4),
		Instances: nodes, Reason: strings.Join(p.Reasons, "; ")}, Fits: p.Fits}
	if in := o.Instance; in != nil {
		j.Provider, j.InstanceType = in.Provider, in.Type
	}
	return j
}

// ServeAssumptions lists the serving model's rules and their sources.
func ServeAssumptions() []string { return ServeAssumptionsIn(nil) }

// ServeAssumptionsIn is ServeAssumptions in lang's language.
func ServeAssumptionsIn(lang *i18n.Printer) []string {
	return translate(lang,
		"memory as vLLM lays it out (vllm/v1/worker/gpu_worker.py determine_available_memory): KV cache = GPU memory × gpu_memory_utilization − weights − profiling-step activations − non-torch allocations",
		"activation peak of one chunked-prefill step of max_num_batched_tokens tokens plus the sampler on max_num_seqs requests (gpu_model_runner.py profile_run)",
		"KV cache per token = 2 × layers × KV heads per GPU × head_dim × dtype bytes, in 16-token blocks; max concurrency = KV tokens ÷ max_model_len",
		"prefill compute-bound, decode memory-bandwidth-bound (weights per GPU, of an MoE's experts only those the step's tokens are routed to, plus the KV read per step), tensor-parallel all-reduce over the instance's interconnect",
		"$ per million tokens charges the whole hourly price to output (or input) tokens at the load given",
	)
}

// ServeFiguresIn is ServeFigures in lang's language: the memory lines
// (serveMemoryFigures), then the speed lines when the model fits.
func ServeFiguresIn(lang *i18n.Printer, p *serve.Plan) []string {
	return append(serveMemoryFigures(lang, p), serveSpeedFigures(lang, p)...)
}

// ServeBandsOf are a serving plan's 90% ranges in the plan's own units:
// the KV cache in bytes per GPU, the TPOT in seconds, the output in
// tokens/s. A range is nil where the text prints none: the KV cache's
// when there is none, the speed's when the plan does not fit.
type ServeBandsOf struct {
	KVCache, TPOT, Output *BandJSON
}

// ServeBands returns p's 90% ranges from the serving calibration
// (serve.CalibrationBand: the out-of-sample errors of true/estimated per
// group; the KV cache's held to what vLLM can allocate,
// serve.Memory.KVCacheRange), which the text (ServeFiguresIn) and the JSON both print. The
// TPOT band is of speed (1 / TPOT), so it divides the TPOT: its low end
// is TPOT / Hi.
func ServeBands(p *serve.Plan) ServeBandsOf {
	var out ServeBandsOf
	if lo, hi, b, ok := p.Memory.KVCacheRange(); ok { // held to the budget
		out.KVCache = ptrBand(newBandJSON(lo, hi, b))
	}
	if !p.Fits {
		return out
	}
	if b, ok := serve.CalibrationBand("tpot"); ok && p.Perf.TPOTSec > 0 {
		out.TPOT = ptrBand(newBandJSON(p.Perf.TPOTSec/b.Hi, p.Perf.TPOTSec/b.Lo, b))
	}
	if b, ok := serve.CalibrationBand("throughput"); ok && p.OutputTokensPerSec > 0 {
		out.Output = ptrBand(newBandJSON(p.OutputTokensPerSec*b.Lo, p.OutputTokensPerSec*b.Hi, b))
	}
	return out
}

func ptrBand(b BandJSON) *BandJSON { return &b }

// roundBand returns b with its ends times scale (the JSON field's unit),
// to 4 decimals as the figures beside it; nil for nil.
func roundBand(b *BandJSON, scale float64) *BandJSON {
	if b == nil {
		return nil
	}
	r := *b
	r.Low, r.High = Round(b.Low*scale, 4), Round(b.High*scale, 4)
	return &r
}

// serveMemoryFigures are one GPU's memory and KV cache, with the KV
// cache's 90% range from the serving calibration (ServeBands).
func serveMemoryFigures(lang *i18n.Printer, p *serve.Plan) []string {
	m := &p.Memory
	s := &p.Serving
	kv := lang.Sprintf("KV cache %s tokens (%s per token per GPU): %s",
		model.FormatCount(float64(m.KVTokens)), kvPerToken(m.KVBytesPerToken), ServeConcurrencyIn(lang, m, s.MaxModelLen))
	if m.Layout.Sliding() {
		// The per-token figure is a whole request's over its tokens
		// (serve.Memory.KVBytesPerToken): said, as a full-attention token
		// costs more (a new user's walk read Mistral 7B's 24 KiB as
		// wrong beside 2 × 32 × 8 × 128 × 2 B = 128 KiB).
		kv = lang.Sprintf("KV cache %s tokens (%s per token per GPU, a %d-token request's over its tokens, the window layers holding %d): %s",
			model.FormatCount(float64(m.KVTokens)), kvPerToken(m.KVBytesPerToken), s.MaxModelLen, m.Layout.Window, ServeConcurrencyIn(lang, m, s.MaxModelLen))
	}
	lines := []string{
		lang.Sprintf("weights %s + activations %s + non-torch %s + KV cache %s of %s (%.0f%% of %s)",
			GiB(m.Weights), GiB(m.Activation), GiB(m.NonTorch), GiB(max(m.KVCache, 0)), GiB(m.BudgetBytes),
			s.GPUMemoryUtilization*100, GiB(m.TotalBytes)),
		kv,
	}
	if l := s.LoRA; l != nil && m.LoRA > 0 {
		// vLLM counts the slots in "Model loading took" (serve.LoRABytes).
		lines = append(lines, lang.Sprintf("the weights include %s of LoRA slots for adapter %s (vLLM --enable-lora: %d × rank %d in every linear layer)",
			GiB(m.LoRA), termsafe.String(l.Name), max(l.MaxLoRAs, 1), l.MaxRank))
	}
	if l := &m.Layout; l.Sliding() {
		lines = append(lines, lang.Sprintf("sliding window: %d of the %d layers per GPU keep only the last %d tokens (vLLM's hybrid KV cache manager); one %d-token request holds %s per GPU",
			l.SlidingLayers, l.SlidingLayers+l.FullLayers, l.Window, s.MaxModelLen, GiB(m.RequestKVBytes(s.MaxModelLen, s.MaxNumBatchedTokens))))
	}
	if b := ServeBands(p).KVCache; b != nil {
		lines = append(lines, lang.Sprintf("90%% range of the KV cache: %s–%s per GPU, from the out-of-sample errors of %s from %s (%s)",
			GiB(b.Low), GiB(b.High), Count(lang, b.Cases, "calibration case"), Count(lang, b.Sources, "source"), b.Group))
	}
	return lines
}

// serveSpeedFigures are the replica's speed and cost, with the 90% ranges
// of TPOT and output throughput from the serving calibration; none when
// the model does not fit.
func serveSpeedFigures(lang *i18n.Printer, p *serve.Plan) []string {
	if !p.Fits {
		return nil
	}
	pf := &p.Perf
	lines := []string{
		lang.Sprintf("TTFT %.0f ms · TPOT %.1f ms at %s per replica", pf.TTFTSec*1e3, pf.TPOTSec*1e3, Count(lang, pf.Batch, "sequence")),
		lang.Sprintf("%.0f output tokens/s · %.0f input tokens/s · %.3g requests/s over %s",
			p.OutputTokensPerSec, p.InputTokensPerSec, p.RequestsPerSec, Count(lang, p.Replicas, "replica")),
	}
	bands := ServeBands(p)
	if b := bands.TPOT; b != nil {
		lines = append(lines, lang.Sprintf("90%% range of the TPOT: %.1f–%.1f ms, from the out-of-sample errors of %s from %s (%s)",
			b.Low*1e3, b.High*1e3, Count(lang, b.Cases, "calibration case"), Count(lang, b.Sources, "source"), b.Group))
	}
	if b := bands.Output; b != nil {
		lines = append(lines, lang.Sprintf("90%% range of the output: %.0f–%.0f tokens/s, from the out-of-sample errors of %s from %s (%s)",
			b.Low, b.High, Count(lang, b.Cases, "calibration case"), Count(lang, b.Sources, "source"), b.Group))
	}
	if p.USDPerHour > 0 {
		lines = append(lines, lang.Sprintf("%s per million output tokens · %s per million input tokens at %s/h",
			USD(p.USDPerMOutput), USD(p.USDPerMInput), USDHour(p.USDPerHour)))
	}
	return lines
}

// ServeConcurrencyIn says how many full-length requests m's KV cache
// holds at once, in lang's language: "56.3 concurrent 448-token
// sequences", or for an encoder-decoder, whose every request also holds
// the encoder's positions for cross-attention (serve.Memory.CrossTokens),
// "56.3 concurrent requests of 448 decoder tokens + 1504 cross-attention
// positions".
func ServeConcurrencyIn(lang *i18n.Printer, m *serve.Memory, maxModelLen int) string {
	if m.CrossTokens > 0 {
		return lang.Sprintf("%.1f concurrent requests of %d decoder tokens + %d cross-attention positions", m.MaxConcurrency, maxModelLen, m.CrossTokens)
	}
	return lang.Sprintf("%.1f concurrent %d-token sequences", m.MaxConcurrency, maxModelLen)
}

// serveRequestIn is the estimate's request line: max_model_len, the
// prompt and output per request and the load; for a model that takes
// audio in a fixed window (serve.AudioInput: Whisper) the window too, in
// seconds and encoder positions (serve.AudioSecondsPerPosition).
func serveRequestIn(lang *i18n.Printer, a *model.Architecture, s *serve.Serving, load string) string {
	if serve.AudioInput(a) {
		return lang.Sprintf("max_model_len %d · %.0f s of audio (%d encoder positions) + %d prompt + %d output tokens per request · %s",
			s.MaxModelLen, float64(a.EncoderSeqLen)*serve.AudioSecondsPerPosition, a.EncoderSeqLen, s.PromptTokens, s.OutputTokens, load)
	}
	return lang.Sprintf("max_model_len %d · %d prompt + %d output tokens per request · %s", s.MaxModelLen, s.PromptTokens, s.OutputTokens, load) + ropeIn(lang, a, s)
}

// ropeIn is the request line's note of a YaRN scaling asked
// (serve.Serving.RopeScaling), " · YaRN × 4 over 32768 positions: 131072",
// the positions vLLM then derives; "" without one.
func ropeIn(lang *i18n.Printer, a *model.Architecture, s *serve.Serving) string {
	r := s.RopeScaling
	if r.IsZero() {
		return ""
	}
	return lang.Sprintf(" · YaRN × %g over %d positions: %d", r.Factor, cmp.Or(r.Original, a.RopeOriginal, a.MaxPositions), r.Positions(a))
}

// RopeNoteIn is ropeIn without its leading " · ", for a line of its own
// (the configurator's serving summary): "YaRN × 4 over 32768 positions:
// 131072"; "" without a YaRN scaling.
func RopeNoteIn(lang *i18n.Printer, a *model.Architecture, s *serve.Serving) string {
	return strings.TrimPrefix(ropeIn(lang, a, s), " · ")
}

// serveAssumptionsFor is ServeAssumptionsIn with, for a model with
// sliding-window layers (p's memory has a sliding serve.KVLayout), how
// vLLM's hybrid KV cache manager holds them, for MXFP4 experts how vLLM's
// MoE kernel on p's GPU pads them (serve.MXFP4Layout), and for an encoder-decoder
// (p's memory holds cross-attention tokens), how its KV cache and its
// encoder are counted.
func serveAssumptionsFor(lang *i18n.Printer, p *serve.Plan) []string {
	out := ServeAssumptionsIn(lang)
	if l := &p.Memory.Layout; l.Sliding() {
		out = append(out, lang.Sprintf("sliding-window layers: vLLM's hybrid KV cache manager puts the layers in %d full-attention and %d sliding-window groups of %d layers, drawing 16-token blocks from one pool; a request holds max_model_len tokens in a full-attention group and min(window − 1 + max_num_batched_tokens, max_model_len) tokens plus one block in a sliding-window group (vllm/v1/core/kv_cache_utils.py, vllm/v1/kv_cache_interface.py SlidingWindowSpec); KV tokens = max concurrency × max_model_len, as vLLM logs its GPU KV cache size; a decode step reads the window only",
			l.FullGroups, l.SlidingGroups, l.GroupLayers))
	}
	if p.Serving.WeightFormat == serve.WeightMXFP4 && p.Memory.RoutedExperts > 0 {
		out = append(out, lang.Message(serve.MXFP4Layout(p.Offer.GPU)))
	}
	if c := p.Memory.CrossTokens; c > 0 {
		out = append(out, lang.Sprintf("encoder-decoder: KV cache per token of the decoder's layers; every request also holds the cross-attention keys and values of all %d encoder positions (vllm/v1/kv_cache_interface.py CrossAttentionSpec), so max concurrency = KV tokens ÷ (max_model_len + %d); the encoder runs once per request, one request's per engine step (max_num_encoder_input_tokens is the encoder's length)", c, c))
	}
	return out
}

func kvPerToken(b float64) string {
	if b >= model.MiB {
		return fmt.Sprintf("%.2f MiB", b/model.MiB)
	}
	return fmt.Sprintf("%.0f KiB", b/model.KiB)
}

// WriteServeEstimate writes the serving plan p of w as text.
func WriteServeEstimate(out io.Writer, r *Renderer, w *model.Workload, p *serve.Plan, warnings []string) error {
	st := NewStyles(r)
	lang := r.Lang
	var b strings.Builder
	line := func(format string, args ...any) { lang.Fprintf(&b, format, args...); b.WriteByte('\n') }
	s := &p.Serving
	name := ModelName(lang, w, w.Model.ParamCount())
	line("%s", st.Title.Render(name)+st.Muted.Render(lang.Sprintf(" · serving · %s weights · KV cache %s", WeightFormatLabel(lang, s), s.KVCacheDType)))
	load := Count(lang, s.Concurrency, "concurrent request")
	if s.RequestsPerSec > 0 {
		load = lang.Sprintf("%.3g requests/s", s.RequestsPerSec)
	}
	line("%s", st.Muted.Render(serveRequestIn(lang, &w.Model, s, load)))
	line("")
	g := p.Offer.GPU
	head := lang.Sprintf("%d × %s: TP %d × PP %d, %s", max(p.GPUs, p.Offer.GPUsPerNode), g.Name, p.TP, p.PP, Count(lang, p.Replicas, "replica"))
	sized := p.Memory.TotalBytes > 0 // a GPU refused before sizing (its weight format: serve.FormatOn) has no split or memory
	if !sized {
		head = lang.Sprintf("%d × %s", p.Offer.GPUsPerNode, g.Name)
	}
	if p.Nodes > 1 {
		head += lang.Sprintf(" on %d nodes of %s", p.Nodes, Count(lang, p.Offer.GPUsPerNode, "GPU"))
	}
	verdict := func(style lipgloss.Style, word string) { line("%s%s%s", style.Render(word), LabelGap(word), head) }
	switch {
	case p.Meets && !p.Borderline.IsZero():
		// Meets its targets at the estimate but not across its 90% range:
		// gpuplan plan marks such a phase ~, the offers table marks its
		// TPOT ~ (walk36c: "✓ serves" here beside plan's "~ borderline").
		verdict(st.Warn, lang.T("~ serves, borderline:"))
		line("  %s", st.Warn.Render("~ "+lang.Message(p.Borderline)))
	case p.Meets:
		verdict(st.Good, lang.T("✓ serves"))
	case p.Fits && !p.Spans.IsZero(): // fits only across instances: a Ray cluster, not a miss of the targets
		verdict(st.Bad, lang.T("✗ needs a Ray cluster:"))
	case p.Fits:
		verdict(st.Warn, lang.T("! fits, misses the targets:"))
	case !sized: // the GPU cannot run the weight format: it is not a matter of memory
		verdict(st.Bad, lang.T("✗ cannot serve on"))
	default:
		verdict(st.Bad, lang.T("✗ does not fit"))
	}
	if p.Fits && p.IdleGPUs > 0 {
		// A split that does not divide the GPUs leaves the rest idle:
		// said, not silent (walk49: TP 2 on 3 GPUs).
		line("  %s", st.Muted.Render(lang.Sprintf("%d of the %d GPUs idle: %s of TP %d × PP %d on %d",
			p.IdleGPUs, p.GPUs, Count(lang, p.Replicas, "replica"), p.TP, p.PP, p.GPUs-p.IdleGPUs)))
	}
	if !p.Chosen.IsZero() {
		line("  %s", st.Warn.Render("↑ "+lang.Message(p.Chosen)))
	}
	if !p.Grown.IsZero() {
		line("  %s", st.Warn.Render("↑ "+lang.Message(p.Grown)))
	}
	if !p.Cleared.IsZero() {
		line("  %s", st.Warn.Render(ClearedMark+" "+lang.Message(p.Cleared)))
	}
	for _, reason := range ServeReasons(lang, p) {
		line("  %s", reason)
	}
	if !p.Would.IsZero() {
		line("  %s", st.Warn.Render("→ "+lang.Message(p.Would)))
	}
	if !p.Fallback.IsZero() {
		line("  %s", st.Warn.Render("↺ "+lang.Message(p.Fallback)))
	}
	if sized {
		line("")
		line("%s  per GPU", st.Heading.Render(lang.T("Memory")))
		for _, l := range serveMemoryFigures(lang, p) {
			line("  %s", l)
		}
	}
	if p.Fits {
		line("")
		line("%s", st.Heading.Render(lang.T("Speed")))
		for _, l := range serveSpeedFigures(lang, p) {
			line("  %s", l)
		}
	}
	if len(warnings) > 0 {
		line("")
		for _, s := range warnings {
			line("%s %s", st.Warn.Render("!"), lang.T(s))
		}
	}
	line("")
	line("%s", st.Heading.Render(lang.T("Assumptions")))
	for _, a := range serveAssumptionsFor(lang, p) {
		line("  - %s", a)
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

// ServeRow is one offers-table row of a serving plan, the instance and
// region cut to 26 and 18 cells.
// It names no node count; ServeRowIn does.
func ServeRow(p *serve.Plan) []string { return serveRow(nil, p, Truncate, false) }

// ServeRowIn is ServeRow in lang's language, the GPUs cell naming the
// instances rented when more than one ("8×h100-sxm (2 nodes)"), as
// recommend's table and the configurator's panel do.
func ServeRowIn(lang *i18n.Printer, p *serve.Plan) []string { return serveRow(lang, p, Truncate, true) }

// NotExportedIn says why gpuplan writes no launch files for p, "not
// exported: one replica spans 2 instances (…): vLLM runs it on a Ray
// cluster, which gpuplan does not export" (serve.Plan.NoExport), in
// lang's language; "" when p exports. recommend says it under its best
// line, the configurator under its best offer, in the offer's detail and
// when ctrl+e is asked for such an offer.
func NotExportedIn(lang *i18n.Printer, p *serve.Plan) string {
	if p == nil || p.NoExport.IsZero() {
		return ""
	}
	return lang.Sprintf("not exported: %s", lang.Message(p.NoExport))
}

// ClearedNoteShort says in one short line that p rents more replicas
// than the fewest that carry the load, which meet the targets only at
// the estimate (serve.Plan.Cleared, whose whole sentence recommend
// prints under its best line), for the configurator's panel; "" when p
// is the fewest.
func ClearedNoteShort(lang *i18n.Printer, p *serve.Plan) string {
	if p == nil || p.Cleared.IsZero() {
		return ""
	}
	return lang.Sprintf("%s %s, not the %d that meet the targets only at the estimate", ClearedMark, Count(lang, p.Replicas, "replica"), p.ClearedFrom)
}

// ClearedLegendShort is the ClearedMark's footnote in one short line,
// for the configurator's panel (recommend's names the --replicas flag).
func ClearedLegendShort(lang *i18n.Printer) string {
	return lang.Sprintf("%s more replicas than the fewest that carry the load, which meet the targets only at the estimate", ClearedMark)
}

// RayNoteShort is the RayMark's footnote in one line, for the
// configurator's panel and offers table (recommend's names the flag,
// --allow-multi-node, which the configurator asks as a question).
func RayNoteShort(lang *i18n.Printer) string {
	return lang.Sprintf("%s one replica spans instances: vLLM runs it on a Ray cluster, which gpuplan does not export (ctrl+e refuses it)", RayMark)
}

// serveRow is ServeRow with the names cut by cut (Renderer.Cut keeps them
// whole on plain output).
func serveRow(lang *i18n.Printer, p *serve.Plan, cut func(string, int) string, nodes bool) []string {
	// No words but the node count's: the same in every language.
	split := fmt.Sprintf("TP%d×PP%d×%d", p.TP, p.PP, p.Replicas)
	if !p.NoExport.IsZero() { // a replica across instances: a Ray cluster gpuplan does not export
		split += " " + RayMark
	}
	if !p.Cleared.IsZero() { // more replicas than the fewest that carry the load (serve.Plan.Cleared)
		split += " " + ClearedMark
	}
	gpus := fmt.Sprintf("%d×%s", p.GPUs, p.Offer.GPU.Key)
	if p.Nodes > 1 && nodes { // the instances rented, as training's rows say them (OfferGPUsIn)
		gpus += lang.Sprintf(" (%d nodes)", p.Nodes)
	}
	if p.FallbackFrom != "" { // the GPU cannot run the format asked for: what vLLM loads there
		gpus += " ↺" + string(p.Serving.WeightFormat)
	}
	provider, typ := "", p.Offer.Name
	if in := p.Offer.Instance; in != nil {
		provider, typ = in.Provider, in.Type
	}
	usdOut, ttft, tpot, tps := "—", "—", "—", "—"
	if p.Fits {
		usdOut = USD(p.USDPerMOutput)
		ttft, tpot = fmt.Sprintf("%.0f", p.Perf.TTFTSec*1e3), fmt.Sprintf("%.1f", p.Perf.TPOTSec*1e3)
		if p.SlowerThanReading() {
			tpot += " " + SlowMark
		}
		tps = fmt.Sprintf("%.0f", p.OutputTokensPerSec)
	}
	kv := model.FormatCount(float64(p.Memory.KVTokens))
	// "~" as training's "~ borderline", on the figure whose range is the
	// cause (serve.Plan.BorderlineOn); the notes below say why. A new
	// user's walk: "TPOT ~45.7" against a 100 ms target, the KV cache's
	// range the cause.
	switch {
	case p.Borderline.IsZero():
	case p.BorderlineOn == serve.BorderlineKV:
		kv = "~" + kv
	default:
		tpot = "~" + tpot
	}
	region := ServeRegionIn(lang, &p.Offer)
	if !model.RegionUnstated(p.Offer.Region) {
		region = cut(region, 18) // "location not stated" whole, as OfferRow keeps it
	}
	return []string{provider, cut(typ, 26), region, gpus, split,
		kv, ttft, tpot, tps, USDHour(p.USDPerHour), usdOut}
}

// BorderlineKindIn is the legend of n rows' "~" on the figure of kind k
// (serve.Plan.BorderlineOn), in lang's language: "~ on TPOT ms (2 offers):
// the slow end of the TPOT's 90% range is over the target".
func BorderlineKindIn(lang *i18n.Printer, k serve.BorderlineKind, n int) string {
	if k == serve.BorderlineKV {
		return lang.Sprintf("~ on KV tokens (%d %s): the low end of the KV cache's 90%% range holds fewer sequences than each replica runs",
			n, lang.T(marketPlural(n, "offer", "offers")))
	}
	return lang.Sprintf("~ on TPOT ms (%d %s): the slow end of the TPOT's 90%% range is over the target",
		n, lang.T(marketPlural(n, "offer", "offers")))
}

// BorderlineKindShort is BorderlineKindIn for the configurator's panel,
// whose table has no KV column: its KV rows carry KVBorderlineMark on
// the split.
func BorderlineKindShort(lang *i18n.Printer, k serve.BorderlineKind) string {
	if k == serve.BorderlineKV {
		return lang.Sprintf("%s borderline: the low end of the KV cache's 90%% range holds fewer sequences than each replica runs", KVBorderlineMark)
	}
	return lang.Sprintf("~ on TPOT ms, borderline: the slow end of the TPOT's 90%% range is over the target")
}

// KVBorderlineMark marks, on the configurator's split, a plan borderline
// because of its KV cache's range (serve.BorderlineKV).
const KVBorderlineMark = "~KV"

// ClearedMark marks a split of more replicas than the fewest that carry
// the load, since those meet the targets only at the estimate
// (serve.Plan.Cleared), as estimate's "↑" lines say of a TP or a
// pipeline larger than the smallest.
const ClearedMark = "↑"

// RayMark marks a split whose replica spans instances (serve.Plan.NoExport):
// vLLM runs it on a Ray cluster, which gpuplan's export does not write.
const RayMark = "§"

// SlowMark marks a TPOT slower than people read (serve.ReadingTPOTMs).
const SlowMark = "‡"

// ServeTargetsIn says the latency targets a ranking holds plans to, the
// default TPOT with where it comes from (serve.DefaultTPOTTargetMs).
func ServeTargetsIn(lang *i18n.Printer, s *serve.Serving) string {
	var parts []string
	switch {
	case s.DefaultTPOT:
		parts = append(parts, lang.Sprintf("TPOT ≤ %g ms, the default: 10 tokens/s, about 450 words a minute, faster than people read (--tpot-ms sets it, none drops it)", s.TPOTTargetMs))
	case s.TPOTTargetMs > 0:
		parts = append(parts, lang.Sprintf("TPOT ≤ %g ms", s.TPOTTargetMs))
	default:
		parts = append(parts, lang.T("no TPOT target"))
	}
	if s.TTFTTargetMs > 0 {
		parts = append(parts, lang.Sprintf("TTFT ≤ %g ms", s.TTFTTargetMs))
	}
	return lang.Sprintf("targets: %s", strings.Join(parts, lang.T("; ")))
}

// ServeHeaders are ServeRow's column names.
var ServeHeaders = []string{"provider", "instance", "region", "GPUs", "split", "KV tokens", "TTFT ms", "TPOT ms", "out tok/s", "$/h", "$/Mtok out"}

// WriteServeRecommend writes the ranking: the offers meeting the targets
// (at most limit, 0: all), the first of them as the "best:" line (its
// price per hour and per month of hoursPerMonth hours used, 730 when 0,
// every hour of the month on a reserved term), as training's recommend
// ends, then the cheapest near misses with reasons.
func WriteServeRecommend(out io.Writer, r *Renderer, w *model.Workload, s *serve.Serving, plans []serve.Plan, limit int, hoursPerMonth float64) error {
	st := NewStyles(r)
	lang := r.Lang
	var b strings.Builder
	line := func(format string, args ...any) { lang.Fprintf(&b, format, args...); b.WriteByte('\n') }
	name := ModelName(lang, w, w.Model.ParamCount())
	load := Count(lang, s.Concurrency, "concurrent request")
	if s.RequestsPerSec > 0 {
		load = lang.Sprintf("%.3g requests/s", s.RequestsPerSec)
	}
	line("%s", st.Title.Render(name)+st.Muted.Render(lang.Sprintf(" · serving · %s weights · %d + %d tokens · %s", WeightFormatLabel(lang, s), s.PromptTokens, s.OutputTokens, load)+ropeIn(lang, &w.Model, s)))
	var rows [][]string
	var misses []*serve.Plan
	var overlays overlayPrices
	var marked []bool
	var listed []model.Offer // the rows' offers as training's, for UnconfirmedRegionsNote
	var priced []model.Offer // the rows' prices as training's offers, for oldPricesTableNote
	asOf := ""               // the catalog's date (serve.Offer.CatalogAsOf), from which a price's age counts
	fallback, slow, ray := false, false, false
	borderline, sure, cleared := 0, 0, 0
	var firstBorderline *serve.Plan                // its reason is said under the table: the rows show only "~"
	borderlineOn := map[serve.BorderlineKind]int{} // the rows shown borderline, by the figure whose range crosses
	for i := range plans {
		p := &plans[i]
		if !p.Meets {
			misses = append(misses, p)
			continue
		}
		if p.Borderline.IsZero() {
			sure++
		}
		if limit == 0 || len(rows) < limit {
			if !p.Borderline.IsZero() {
				borderline++
				borderlineOn[p.BorderlineOn]++
				if firstBorderline == nil {
					firstBorderline = p
				}
			}
			in := p.Offer.Instance
			marked = append(marked, in != nil && overlays.add(p.Offer.Provenance()))
			rows = append(rows, serveRow(lang, p, r.Cut, true))
			if !p.Cleared.IsZero() {
				cleared++
			}
			if in != nil {
				listed = append(listed, model.Offer{Instance: in, Region: serveRegionRun(&p.Offer)})
				priced = append(priced, *p.Offer.Priced())
				asOf = cmp.Or(asOf, p.Offer.CatalogAsOf)
			}
			fallback = fallback || p.FallbackFrom != ""
			slow = slow || p.SlowerThanReading()
			ray = ray || !p.NoExport.IsZero()
		}
	}
	markPrices(rows, 9, marked)
	meets := len(plans) - len(misses)
	if s.PerToken {
		line("%d of %d offers meet the load and latency targets; cheapest per million output tokens first (no load given: --rps or --concurrency ranks by the cost of carrying it)", meets, len(plans))
	} else {
		line("%d of %d offers meet the load and latency targets; cheapest per hour that carries the load first", meets, len(plans))
	}
	line("%s", st.Muted.Render(ServeTargetsIn(lang, s)))
	if len(rows) > 0 { // none: the near misses' own blank line follows, not two (a walk)
		line("")
		line("%s", serveTable(r, translate(lang, ServeHeaders...), rows))
		// The column is serve.Memory.KVTokens, one replica's; a new
		// user's walk read it as the whole offer's.
		line("%s", st.Muted.Render(lang.T("KV tokens: per replica, what one replica's KV cache holds (each replica has its own)")))
	}
	if more := meets - len(rows); more > 0 {
		line("%s", st.Muted.Render(lang.Sprintf("… %s more %s%s", model.Grouped(more), lang.T(marketPlural(more, "offer", "offers")), lang.T(" (--limit 0 shows all)"))))
	}
	if fallback {
		line("%s", st.Muted.Render(lang.Sprintf("↺ is the weight format vLLM loads on a GPU that cannot run %s: the row is sized and timed in it", s.WeightFormat)))
	}
	if slow {
		line("%s", st.Warn.Render(lang.Sprintf("%s TPOT slower than people read: above %.0f ms per token (238 words a minute, Brysbaert 2019, at 0.75 words per token)", SlowMark, serve.ReadingTPOTMs)))
	}
	if ray {
		line("%s", st.Warn.Render(lang.Sprintf("%s one replica spans instances (--allow-multi-node): vLLM runs it on a Ray cluster, which gpuplan does not export (export refuses it)", RayMark)))
	}
	if cleared > 0 {
		line("%s", st.Muted.Render(lang.Sprintf("%s more replicas than the fewest that carry the load (%d %s), which meet the targets only at the estimate: these meet them across their 90%% range (--replicas sets the count)",
			ClearedMark, cleared, lang.T(marketPlural(cleared, "offer", "offers")))))
	}
	if borderline > 0 {
		if ahead := len(plans) > 0 && !plans[0].Dearer.IsZero(); ahead && s.PerToken {
			// serve.borderlineFirst on the key a per-token question ranks by.
			line("%s", st.Warn.Render(lang.Sprintf("~ borderline (%d %s): meets the targets at the estimate, not across its 90%% range (serving calibration); ranked first when the offers that meet them with their range cost over twice as much per million output tokens",
				borderline, lang.T(marketPlural(borderline, "offer", "offers")))))
		} else if ahead {
			// serve.borderlineFirst: the clear offers cost over twice these.
			line("%s", st.Warn.Render(lang.Sprintf("~ borderline (%d %s): meets the targets at the estimate, not across its 90%% range (serving calibration); ranked first when the offers that meet them with their range cost over twice as much",
				borderline, lang.T(marketPlural(borderline, "offer", "offers")))))
		} else {
			line("%s", st.Warn.Render(lang.Sprintf("~ borderline (%d %s): meets the targets at the estimate, not across its 90%% range (serving calibration); ranked after the offers that meet them with their range",
				borderline, lang.T(marketPlural(borderline, "offer", "offers")))))
		}
		// Why, for the first such row: the band crossed and, when more
		// replicas would clear it for over twice the cost, their count
		// (a new user's walk: said only in --json and export).
		if b := firstBorderline; b != nil && b.Offer.Instance != nil {
			line("%s", st.Warn.Render(lang.Sprintf("  the first, %s %s: %s", b.Offer.Instance.Provider, b.Offer.Instance.Type, lang.Message(b.Borderline))))
		}
		// Then the cause of each kind the rows mark: the column with "~"
		// (serveRow) is the figure whose range crosses.
		for _, k := range []serve.BorderlineKind{serve.BorderlineTPOT, serve.BorderlineKV} {
			if n := borderlineOn[k]; n > 0 {
				line("%s", st.Warn.Render("  "+BorderlineKindIn(lang, k, n)))
			}
		}
		if sure == 0 {
			line("%s", st.Warn.Render(lang.Sprintf("no offer meets the targets across its 90%% range: a looser --tpot-ms, more replicas or a faster GPU leaves room")))
		}
	}
	if note := UnconfirmedRegionsNote(lang, listed); note != "" {
		line("%s", st.Muted.Render(note))
	}
	if note := oldPricesTableNote(lang, priced, asOf); note != "" { // as training's table: rows months behind the catalog
		line("%s", st.Warn.Render(note))
	}
	for _, l := range overlays.legend(lang, OverlayMark) {
		line("%s", st.Muted.Render(l))
	}
	if i := slices.IndexFunc(plans, func(p serve.Plan) bool { return p.Meets }); i >= 0 {
		writeServeBest(&b, lang, st, &plans[i], cmp.Or(hoursPerMonth, model.HoursPerMonth))
		if bl := plans[i].Borderline; !bl.IsZero() {
			line("%s", st.Warn.Render(lang.Sprintf("  borderline: %s", lang.Message(bl))))
		}
		if d := plans[i].Dearer; !d.IsZero() {
			line("%s", st.Muted.Render(lang.Sprintf("  meets the targets across its 90%% range: %s", lang.Message(d))))
		}
		if c := plans[i].Cleared; !c.IsZero() {
			line("%s", st.Muted.Render("  "+ClearedMark+" "+lang.Message(c)))
		}
		if ne := NotExportedIn(lang, &plans[i]); ne != "" {
			line("%s", st.Warn.Render("  "+ne))
		}
		if o := &plans[i].Offer; o.Instance != nil { // the price acted on is months behind the catalog, as training's best: says
			if l := OldPriceLine(lang, o.Priced(), o.CatalogAsOf); l != "" {
				line("  %s %s", st.Warn.Render("!"), l)
			}
		}
	}
	if len(misses) > 0 {
		line("")
		line("%s", st.Heading.Render(lang.T("Near misses")))
		for i, p := range misses {
			if i == 3 {
				break
			}
			line("  %s", lang.Sprintf("%s: %s", ServeOfferName(lang, &p.Offer), strings.Join(ServeReasons(lang, p), lang.T("; "))))
		}
	}
	_, err := io.WriteString(r.Writer(out), b.String())
	return err
}

func serveTable(r *Renderer, headers []string, rows [][]string) string {
	return r.table(headers, rows, func(col int) bool { return col >= 5 })
}

// ServeReasons are why plan p misses, in lang's language.
func ServeReasons(lang *i18n.Printer, p *serve.Plan) []string {
	if len(p.ReasonMsgs) != len(p.Reasons) { // a plan built without messages
		return translate(lang, append([]string{}, p.Reasons...)...)
	}
	return lang.Messages(p.ReasonMsgs)
}

// ServeOfferName is o.Name with its region as views write it (RegionIn:
// "location not stated" for a placeholder) and its pricing mode in lang's
// language ("aws g6.xlarge us-east-1 按需实例"); o.Name itself when it is
// not built from a catalog row. o.Name (JSON's "offer") keeps the region's
// name.
func ServeOfferName(lang *i18n.Printer, o *serve.Offer) string {
	in := o.Instance
	if in == nil || o.Pricing == "" || o.Name != fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, o.Region, o.Pricing) {
		return o.Name
	}
	return fmt.Sprintf("%s %s %s %s", in.Provider, in.Type, ServeRegionIn(lang, o), PricingName(lang, o.Pricing))
}

// ServeRegionIn is a serving offer's region as views write it: several
// price regions of a provider whose regions say where a price applies,
// not where a type is offered (serve.Offer.SameRegions,
// model.RegionsUnconfirmed: Lambda, OCI), as "any of N regions", as
// training's rows say them (OfferRegionIn); any other as RegionIn.
func ServeRegionIn(lang *i18n.Printer, o *serve.Offer) string {
	if o.Instance == nil {
		return RegionIn(lang, o.Region)
	}
	return OfferRegionIn(lang, o.Instance.Provider, serveRegionRun(o))
}

// serveRegionRun is o's region as CollapseRegions writes a run of
// regions, "asia-northeast-1 +16", when it stands for several price
// regions (ServeRegionIn); else o.Region.
func serveRegionRun(o *serve.Offer) string {
	if o.Instance != nil && o.SameRegions > 1 && model.RegionsUnconfirmed(o.Instance.Provider) {
		return fmt.Sprintf("%s +%d", o.Region, o.SameRegions-1)
	}
	return o.Region
}

// writeServeBest writes the serving ranking's answer as recommend's
// "best:" line: where, per hour, per month of hoursPerMonth (all 730 h
// of it on a reserved term, model.MonthlyUSD), and the pricing mode.
func writeServeBest(b *strings.Builder, lang *i18n.Printer, st Styles, p *serve.Plan, hoursPerMonth float64) {
	o := &p.Offer
	best, hour, month := st.Good.Render(lang.T("best:")), USDHour(p.USDPerHour), USD(model.MonthlyUSD(o.Pricing, p.USDPerHour, hoursPerMonth))
	switch in := o.Instance; {
	case in != nil && model.RegionUnstated(o.Region): // not "in location not stated" (Daytona's "earth")
		lang.Fprintf(b, "\n%s %s %s (location not stated): %s per hour, %s per month", best, in.Provider, in.Type, hour, month)
	case in != nil:
		lang.Fprintf(b, "\n%s %s %s in %s: %s per hour, %s per month", best, in.Provider, in.Type, ServeRegionIn(lang, o), hour, month)
	default:
		lang.Fprintf(b, "\n%s %s: %s per hour, %s per month", best, o.Name, hour, month)
	}
	if o.Pricing != "" {
		lang.Fprintf(b, " (%s)\n", PricingName(lang, o.Pricing))
	} else {
		b.WriteByte('\n')
	}
}

// LabelGap is the space between a label and what follows it: none after
// a full-width colon, which has its own space ("临界：2 ×", not "临界： 2 ×").
func LabelGap(label string) string {
	if strings.HasSuffix(label, "：") {
		return ""
	}
	return " "
}
