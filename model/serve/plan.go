package serve

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Offer is a place to serve from: one kind of node (an instance type in
// a region at a pricing mode) that can be rented several times.
type Offer struct {
	Name         string // what the user sees: "aws p5.48xlarge us-east-1 on-demand"
	GPU          *model.GPU
	GPUsPerNode  int
	Interconnect string  // between the node's GPUs: "nvlink", "nvswitch", "pcie", "infinity-fabric"
	USDPerHour   float64 // one node
	Instance     *model.Instance
	Region       string        // where the price is from; "" when unknown
	Pricing      model.Pricing // the price's mode; "" when unknown
	// SameRegions counts the regions the query allowed that price the
	// type at USDPerHour in Pricing, Region included (Offers: the offer
	// stands for all of them, as the training table's "+N" does); 0 when
	// not counted. For a provider whose regions are price regions
	// (model.RegionsUnconfirmed) the views write several as "any of N
	// regions".
	SameRegions int
	// Discount is the discount a reserved price comes from
	// (model.Catalog.DiscountFor); nil otherwise.
	Discount *model.Discount
	// CatalogAsOf is the date of the catalog the offer is from
	// (model.Catalog.AsOf, YYYY-MM-DD), from which its price's age counts
	// (PriceAgeDays); "" when not from a catalog's offers.
	CatalogAsOf string
}

// PriceAgeDays returns how many whole days the offer's price (its
// Provenance's as_of) is older than the catalog's date CatalogAsOf, as
// training's model.Offer.PriceAgeDays counts it; 0 when either date is
// missing.
func (o *Offer) PriceAgeDays() int {
	if o.Instance == nil {
		return 0
	}
	return o.Priced().PriceAgeDays(o.CatalogAsOf)
}

// Priced is o as the training matcher's offer of its price (instance,
// region and discount), so that the views flag an old price with the
// same rules (model.Offer.PriceAgeDays).
func (o *Offer) Priced() *model.Offer {
	return &model.Offer{Instance: o.Instance, Region: o.Region, Discount: o.Discount}
}

// Provenance returns the source, origin and as_of of the offer's price:
// an overlay discount's for a reserved price it gives, else the region's
// (model.Instance.RegionProvenance).
func (o *Offer) Provenance() (source, origin, asOf string) {
	if d := o.Discount; d != nil && model.FromOverlay(d.Origin) {
		return d.Source, d.Origin, d.AsOf
	}
	return o.Instance.RegionProvenance(o.Region)
}

// OfferFor builds a Offer from a catalog instance, its GPU and
// the price of one node in USD per hour (Catalog prices per region and mode).
//
// An instance row without an interconnect takes its GPU's when the GPU is
// an SXM/OAM module (the GPU row says nvlink, nvswitch or infinity-fabric):
// such modules are sold only on baseboards that link them (NVIDIA HGX
// H100/H200/B200 and A100 baseboards; AMD Instinct OAM platforms), so a
// multi-GPU node of them is linked. The estimate path assumes the same.
func OfferFor(in *model.Instance, g *model.GPU, usdPerHour float64, name string) Offer {
	link := in.Interconnect
	if link == "" && in.GPUCount > 1 && g != nil && g.Interconnect != "" && g.Interconnect != "pcie" {
		link = g.Interconnect
	}
	return Offer{Name: name, GPU: g, GPUsPerNode: in.GPUCount, Interconnect: link,
		USDPerHour: usdPerHour, Instance: in}
}

// hardware returns the interconnect the speed model uses: the GPU's
// NVLink/Infinity Fabric figure when the node links its GPUs so, else PCIe,
// with peer-to-peer except between GeForce cards ("GeForce cards do not
// support P2P.", NCCL's maintainer in NVIDIA/nccl-tests#287). A data-centre
// card's host can still lack it (ai-dynamo/aiconfigurator#1346: "L40S
// (Ada, no GPU P2P)" on two 8×L40S nodes, where two L4s on another host
// have it, NVIDIA/cuda-samples#284): an offer does not say, so those take
// the P2P path.
func (o *Offer) hardware() Hardware {
	hw := Hardware{GPU: o.GPU, InterconnectGBps: PCIeGBps, PeerToPeer: !strings.Contains(o.GPU.Name, "GeForce")}
	fast := o.Interconnect != "" && o.Interconnect != "pcie"
	if fast && o.GPU.InterconnectGBps > 0 {
		hw.InterconnectGBps = o.GPU.InterconnectGBps
		hw.NVLink = true
	}
	return hw
}

// Plan is how to serve a model on one offer and what it gives.
type Plan struct {
	Offer   Offer
	Serving Serving // with Defaults applied and TP, PP, Replicas chosen

	TP, PP, Replicas int
	Nodes            int // nodes rented: replicas × TP × PP GPUs, in whole nodes
	GPUs             int // GPUs rented
	// IdleGPUs are the GPUs rented that no replica uses: the rest of a
	// node that TP × PP does not divide (TP 2 on 3 GPUs leaves one), or
	// of the GPUs given beyond the replicas asked. 0 when every GPU serves.
	IdleGPUs int

	Memory Memory // one GPU
	Perf   Perf   // one replica at its share of the load

	// Totals over all replicas.
	OutputTokensPerSec, InputTokensPerSec, RequestsPerSec float64
	USDPerHour                                            float64
	// USDPerMOutput and USDPerMInput charge the whole hourly price to output
	// (respectively input) tokens: what one million of them costs at this load.
	USDPerMOutput, USDPerMInput float64

	// FallbackFrom is the weight format asked for when g cannot run it and
	// the request allows a fallback (Serving.AllowPrecisionFallback): the
	// plan is sized, timed and written at Serving.WeightFormat, the format
	// vLLM loads instead (FormatFor), and Fallback says why. Both are
	// empty when the plan runs the format asked as asked; Fallback alone
	// says it runs in float32 (Serving.Float32: bitsandbytes on a GPU
	// without bf16 for a model type that refuses float16).
	FallbackFrom WeightFormat
	Fallback     model.Message

	// Grown says why an automatic pipeline holds a replica on more stages
	// than the smallest layout tried: the reason PP 1 (or the last smaller
	// PP) did not fit on the node. Zero when PP was given or is 1.
	Grown model.Message

	// Chosen says which TP the planner chose when the user gave none and
	// it is larger than the smallest tried, and why the next smaller one
	// lost (chosenTP): a split the user did not ask for is never silent
	// (a new user's trial: Llama 3.1 8B on an L4 served at TP 2 on two
	// GPUs with no word why). Zero when TP was given, is the smallest
	// tried, or the plan does not fit.
	Chosen model.Message

	// Would says what would meet the targets when the plan was held to the
	// GPUs given (Serving.Nodes) and misses them: the replicas (and the
	// TP, when the user did not pin it) of the plan with auto replicas,
	// as recommend's near misses say what they lack. Zero otherwise.
	Would model.Message

	// Cleared says why the plan rents more replicas than the fewest that
	// carry the load at the estimate: those meet the targets only at the
	// estimate (their Borderline), these across their 90% ranges, and
	// --replicas plans the fewer (clearBorderline). ClearedFrom is those
	// fewer replicas and ClearedFromUSDPerHour what they cost an hour.
	// Zero when the plan is the fewest replicas, or they were given.
	Cleared               model.Message
	ClearedFrom           int
	ClearedFromUSDPerHour float64

	// Dearer names the cheapest offer that meets the targets across its
	// 90% range when RankServing ranked this borderline plan before it,
	// as that costs over clearCostCap times this one (borderlineFirst):
	// its name and what it costs an hour, and for a question priced per
	// token (Serving.PerToken), which compares that, per million output
	// tokens. Zero otherwise.
	Dearer              model.Message
	DearerOffer         string
	DearerUSDPerHour    float64
	DearerUSDPerMOutput float64

	Fits  bool // the model and one full-length request fit
	Meets bool // fits, carries the load and meets the latency targets
	// Borderline says why a plan that Meets may not in practice: the 90%
	// range of its TPOT (the serve/tpot calibration band) crosses the TPOT
	// target, or the low end of its KV cache's range (serve/kv-cache) holds
	// fewer sequences than its batch. Zero when the whole range meets, or
	// when the plan does not meet. Such plans rank after those that meet
	// with their range (betterPlan).
	Borderline model.Message
	// BorderlineOn is which figure's range Borderline is about:
	// BorderlineTPOT or BorderlineKV; "" when Borderline is zero. The
	// views mark that figure's column, not the TPOT's whatever the cause.
	BorderlineOn BorderlineKind
	// Shortfall is how far a plan that fits falls short of the question,
	// the largest of TPOT ÷ TPOT target, TTFT ÷ TTFT target and the load
	// asked ÷ the load carried; 1 when it meets them all (or misses only
	// for a reason of layout: nodes, a Ray cluster). Near misses rank by
	// it, closest first (betterPlan), and each offer keeps its closest
	// layout. 0 when the plan does not fit.
	Shortfall float64
	Reasons   []string // why not, in words
	// ReasonMsgs are Reasons as messages, for translation (same order).
	ReasonMsgs []model.Message
	// NoExport says why gpuplan writes no launch files for the plan: one
	// replica spans instances (pipeline parallel across nodes, allowed by
	// Serving.AllowMultiNode), which vLLM runs on a Ray cluster ("Distributed
	// inference and serving": multi-node needs Ray) that gpuplan's exports
	// do not write (model/launch NewServe refuses it). Zero otherwise.
	NoExport model.Message
	// Spans is the reason, among ReasonMsgs, that one replica spans
	// instances of the offer without Serving.AllowMultiNode: vLLM runs
	// such a replica on a Ray cluster ("Distributed inference and
	// serving": multi-node needs Ray). It is a matter of layout, not of
	// memory or load, so a verdict on a pinned offer names it first
	// (model/plan PinnedServing). Zero otherwise.
	Spans model.Message
	// OverBudget: the plan meets the question but costs more a month than
	// Serving.BudgetMonthUSD (applyBudget); it ranks first of the near
	// misses, cheapest first, as it carries the load.
	OverBudget bool
}

// serveMaxNodes bounds the nodes the planner rents for one offer.
const serveMaxNodes = 64

// MaxNodes is serveMaxNodes, for the views that refuse GPUs past it.
const MaxNodes = serveMaxNodes

// PlanServing plans serving a with s on offer o: TP, PP and Replicas as
// given, or chosen (auto) to meet the load and latency targets at the
// question's lowest cost (betterPlan). TP, when chosen, is a power of two
// up to the node's GPUs that vLLM accepts for the model's heads (tpOK); a
// TP given may be any size tpOK accepts (Phi-4's 40 heads take 5); PP is 1 unless
// the model does not fit one node. Auto replicas fill every rented node,
// as few nodes as carry the load, or, when those meet the targets only
// at the estimate, as few as meet them across their 90% ranges
// (clearBorderline).
// The error wraps ErrInvalid when s is invalid for a.
func PlanServing(a *model.Architecture, s Serving, o Offer) (Plan, error) {
	if o.GPU == nil || o.GPUsPerNode < 1 {
		return Plan{}, model.Errorf(ErrInvalid, "offer %q has no GPUs", o.Name)
	}
	asGiven := s // for clearBorderline, which plans s again with more replicas
	s = s.Defaults(o.GPU)
	if err := s.Validate(a); err != nil {
		return Plan{}, err
	}
	asked := s.WeightFormat
	// MXFP4 quantizes an MoE's routed experts only (WeightBytes; vLLM's
	// Mxfp4Config quantizes FusedMoE layers, the rest stays unquantized):
	// a dense model has none, so nothing would be 4-bit. It is served as
	// the 16-bit checkpoint it is, and the plan says so (FallbackFrom,
	// Fallback) rather than label 16-bit weights mxfp4 (walk49: Llama 3.1
	// 8B "mxfp4 weights" at 14.96 GiB, its bf16 size).
	var noExperts model.Message
	if asked == WeightMXFP4 && a.ExpertLinearParams() == 0 {
		s.WeightFormat, s.DTypeAuto = WeightBF16, true // the checkpoint as it is: --dtype auto
		noExperts = model.Msg("the model has no MoE experts, the only weights mxfp4 quantizes")
	}
	if why := KVOn(s.KVCacheDType, o.GPU); !why.IsZero() {
		p := Plan{Offer: o, Serving: s}
		p.reason("%s", why)
		return p, nil
	}
	run, why, ok, f32 := FormatFor(a, s.WeightFormat, o.GPU)
	s.float32 = f32 && run != WeightFP32 // a quantized format in float32; WeightFP32 says it itself
	// vLLM's --dtype auto does it: fp16 where the GPU has no bf16, fp32
	// where the model's type refuses fp16 too (FormatFor).
	auto := s.DTypeAuto && s.WeightFormat == WeightBF16 && (run == WeightFP16 || run == WeightFP32)
	if !why.IsZero() {
		p := Plan{Offer: o, Serving: s}
		switch {
		case !ok:
			p.reason("%s", why)
		case !s.AllowPrecisionFallback && !auto:
			p.reason("%s; it would serve %s weights (allow_precision_fallback)", why, run)
		}
		if !ok || !s.AllowPrecisionFallback && !auto {
			return p, nil
		}
		s.WeightFormat = run
	}
	var best *Plan
	var smaller model.Message // why the last smaller pipeline did not fit, or missed the targets
	smallerFits := false      // it fit but missed the targets on the GPUs given
	var tried []Plan          // every layout planned, for chosenTP
	// held are the GPUs of one node given (Serving.Nodes 1: estimate
	// --gpus N within a node), which bind: the pipeline is searched on
	// them, every size up to them. 0 otherwise: nodes of an offer, or
	// several given, whose pipeline spans them (a Ray cluster) and grows
	// by powers of two only when one node cannot hold the model.
	held := 0
	if s.Nodes == 1 {
		held = o.GPUsPerNode
	}
	for _, pp := range ppChoices(a, s, held) {
		if best != nil && len(best.ReasonMsgs) > 0 {
			smaller, smallerFits = best.ReasonMsgs[0], best.Fits
		}
		for _, tp := range tpChoices(a, s, o.GPUsPerNode) {
			if held > 0 && s.PP == 0 && tp*pp > held {
				continue // a pipeline left open stays on the GPUs given
			}
			p := planOne(a, s, o, tp, pp)
			// Each split as it would be rented: one meeting the targets
			// only at the estimate on its fewest replicas is compared on
			// the replicas that clear its range, within clearCostCap
			// (clearBorderline), so the split chosen is the best of the
			// plans rented, not of their fewest replicas (a new user's
			// walk: Llama 3.1 8B at 32K × 8 on yotta's 2 × RTX 5090 nodes
			// took TP 2 × 4 at 72 output tokens/s, over TP 1 × 2
			// borderline, where TP 1 × 8 clears for the same $5.20/h at
			// 178). Only a borderline split that could rank first pays the
			// search.
			if best == nil || !cheaperClear(best, &p) {
				if q, ok := clearBorderline(a, asGiven, &p); ok {
					p = q
				}
			}
			tried = append(tried, p)
			if held > 0 && s.PP == 0 && pp > 1 && !p.Fits && best != nil {
				// On GPUs given, a longer pipeline is named only when it
				// fits: when none does, the split nearest to fitting is
				// tensor parallel on them (DeepSeek-R1 on 8 H100s: TP 8,
				// as vLLM runs a node).
				continue
			}
			if best == nil || betterLayout(&p, best) {
				best = &p
			}
		}
		// Pipeline parallelism only when one node's TP cannot hold the
		// model, or, on GPUs given, cannot meet the targets on them: a
		// replica of TP 2 on 2 of 3 GPUs may miss the load a pipeline
		// over all 3 carries, as vLLM runs it ("Distributed inference
		// and serving": pipeline stages need not divide the layers).
		if best != nil && best.Fits && s.PP == 0 && (held == 0 || best.Meets) {
			break
		}
	}
	if best != nil {
		best = keepBorderline(best, tried)
	}
	if best != nil && s.PP == 0 && best.PP > 1 && !smaller.IsZero() {
		// The larger pipeline is a consequence, never a silent choice: say
		// what the smaller one lacked (issue 30: a 29000-token request on one
		// RTX 3090 moved to PP 2 over two nodes with no word why).
		best.Grown = model.Msg("PP %d because a smaller pipeline does not fit: %s", best.PP, smaller)
		if smallerFits {
			best.Grown = model.Msg("PP %d because a smaller pipeline misses the targets on these GPUs: %s", best.PP, smaller)
		}
	}
	if best == nil {
		m := model.Msg("no tensor-parallel degree up to %s per node suits the model's %d heads", model.CountMsg(o.GPUsPerNode, "GPU"), a.Heads)
		return Plan{Offer: o, Serving: s, Reasons: []string{m.String()}, ReasonMsgs: []model.Message{m}}, nil
	}
	if s.TP == 0 {
		best.Chosen = chosenTP(best, tried)
	}
	best.spansShort(o)
	best.applyBudget()
	if s.WeightFormat != asked {
		best.FallbackFrom = asked
		best.Fallback = model.Msg("%s: served as %s weights (allow_precision_fallback)", why, s.WeightFormat)
		if auto {
			best.Fallback = model.Msg("%s: vLLM's --dtype auto serves it as %s weights", why, s.WeightFormat)
		}
		if !noExperts.IsZero() {
			best.Fallback = model.Msg("%s: served as %s weights", noExperts, s.WeightFormat)
		}
	}
	if s.float32 { // the format asked, in float32: said, as a fallback is
		best.Fallback = model.Msg("%s has no bf16 and vLLM refuses float16 for %s models (numerical instability): vLLM's --dtype auto runs the model in float32, %s with float32 activations",
			o.GPU.Name, a.CheckpointModelType(), s.WeightFormat)
	}
	return *best, nil
}

// cheaperClear reports whether best, a plan ranked so far, meets the
// targets across its range at no more than p's own cost (its price, or
// GPUs unpriced), for a question not priced per token: p's plan that
// clears its range (clearBorderline) rents at least p's replicas, so it
// cannot rank before best, and keepBorderline keeps p only when cheaper.
func cheaperClear(best, p *Plan) bool {
	if !best.Meets || !best.Borderline.IsZero() || p.Serving.PerToken {
		return false
	}
	if best.USDPerHour > 0 && p.USDPerHour > 0 {
		return best.USDPerHour <= p.USDPerHour
	}
	return best.USDPerHour == 0 && p.USDPerHour == 0 && best.GPUs <= p.GPUs
}

// keepBorderline is clearCostCap across splits: best, which meets the
// targets across its range, gives way to the best of tried that meets
// them only at the estimate (one whose own replicas do not clear within
// the cap) when best costs over clearCostCap times it (price, or GPUs
// unpriced), as more replicas of one split do in clearBorderline: the
// range's tail at that price is the user's call. The borderline plan
// then names best as what clears (a new user's walk: estimate --gpu
// RTX 5090 for Llama 3.1 8B at 32K × 8 took TP 2 × 4 on 8 GPUs over TP 1
// × 3 borderline on 3, where recommend on yotta's 1-GPU instance keeps
// the 3, naming the 8). Otherwise best.
func keepBorderline(best *Plan, tried []Plan) *Plan {
	if !best.Meets || !best.Borderline.IsZero() {
		return best
	}
	var b *Plan
	for i := range tried {
		t := &tried[i]
		if !t.Meets || t.Borderline.IsZero() || t.OverBudget {
			continue
		}
		over := costOver(best, t, clearCostCap)
		if over && (b == nil || betterLayout(t, b)) {
			b = t
		}
	}
	if b == nil {
		return best
	}
	q := *b
	if k := b.Borderline.Key; k == overTwiceCost || k == overTwiceGPUs {
		return &q // it names its own replicas that clear
	}
	if best.USDPerHour > 0 {
		q.Borderline = model.Msg("%s; --tp %d (%s) meets them across the range at $%.2f/h, over twice the cost", b.Borderline, best.TP, model.CountMsg(best.Replicas, "replica"), best.USDPerHour)
	} else {
		q.Borderline = model.Msg("%s; --tp %d (%s) meets them across the range on %d GPUs, over twice as many", b.Borderline, best.TP, model.CountMsg(best.Replicas, "replica"), best.GPUs)
	}
	return &q
}

// clearBorderline is the plan PlanServing gives in place of best when best
// meets the targets only at the estimate (Borderline) and its replicas
// were left to the planner on nodes it rents (s.Replicas and s.Nodes 0):
// best's split on the fewest nodes of its offer that meet them across
// their 90% ranges (ClearingReplicas), with Cleared saying so and how
// --replicas plans the fewer. ok is false when there is none: best stands.
//
// It is the ranking's policy, not a second estimate: betterPlan already
// ranks a plan that meets the targets only at the estimate after every
// plan that meets them across its range, since the serve/tpot and
// serve/kv-cache bands put a real chance of missing them inside that
// range (borderline). An offer whose fewest replicas are borderline was
// ranked there at their price, although more replicas of the same
// instance (a smaller batch each: a faster TPOT, fewer sequences for the
// low end of the KV cache's range to hold) clear the range, often for
// less than the offers ranked first (a new user's walk: Mistral 7B at
// 32K tokens × 16 requests on aws ranked 4×L40S at $10.49/h first, 2 ×
// 1-GPU g6e.xlarge at $3.72/h borderline after it, where 4 of them at
// $7.44/h clear it). So an offer's plan is the one that clears when one
// does, ranked among the clear ones at what it rents, and every view of
// it (recommend, estimate, export, plan, the configurator) takes the
// same replicas from here. Replicas or GPUs the user gave bind as before.
//
// Up to twice the cost (clearCostCap). Past it, the range's tail is
// bought at a price the user should weigh: with long prompts a replica's
// TPOT may clear only at batch 1, where other requests' prefill chunks no
// longer share its steps, and the replicas grow to the load's count
// (Lambda's 1 × H100 PCIe in a configurator golden, at its default
// load went from 4 to 32 replicas, $4.01 to $22.82 per million output
// tokens). best then stands, borderline and ranked after the clear
// offers as before, its Borderline naming the replicas that clear.
// costOver reports whether x costs more than f times y: by the hour when
// both are priced, by GPUs when neither is (estimate --gpu's offers); a
// priced plan is not weighed against an unpriced one.
func costOver(x, y *Plan, f int) bool {
	if x.USDPerHour > 0 && y.USDPerHour > 0 {
		return x.USDPerHour > float64(f)*y.USDPerHour
	}
	return x.USDPerHour == 0 && y.USDPerHour == 0 && x.GPUs > f*y.GPUs
}

// clearCostCap is how many times the borderline plan's price (or GPUs,
// unpriced) clearBorderline pays to clear its range.
const clearCostCap = 2

// The Borderline of a plan whose replicas that clear its range cost over
// clearCostCap times it, naming them.
const (
	overTwiceCost = "%s; --replicas %d meets them across the range at $%.2f/h, over twice the cost"
	overTwiceGPUs = "%s; --replicas %d meets them across the range on %d GPUs, over twice as many"
)

func clearBorderline(a *model.Architecture, s Serving, best *Plan) (Plan, bool) {
	if s.Replicas > 0 || s.Nodes > 0 || !best.Meets || best.Borderline.IsZero() {
		return Plan{}, false
	}
	q, ok := ClearingReplicas(a, s, best)
	if !ok {
		return Plan{}, false
	}
	if costOver(&q, best, clearCostCap) {
		// The user's call, not ours: best stands, borderline, and says
		// what clears it.
		if q.USDPerHour > 0 {
			best.Borderline = model.Msg(overTwiceCost, best.Borderline, q.Replicas, q.USDPerHour)
		} else {
			best.Borderline = model.Msg(overTwiceGPUs, best.Borderline, q.Replicas, q.GPUs)
		}
		return Plan{}, false
	}
	q.Chosen, q.Grown = best.Chosen, best.Grown // the split is best's, chosen as it was
	q.ClearedFrom, q.ClearedFromUSDPerHour = best.Replicas, best.USDPerHour
	q.Cleared = model.Msg("%s chosen: the fewest that carry the load, %d, meet the targets only at the estimate (%s); --replicas %d plans them",
		model.CountMsg(q.Replicas, "replica"), best.Replicas, best.Borderline, best.Replicas)
	if best.USDPerHour > 0 {
		q.Cleared = model.Msg("%s chosen: the fewest that carry the load, %d, meet the targets only at the estimate (%s); --replicas %d plans them at $%.2f/h",
			model.CountMsg(q.Replicas, "replica"), best.Replicas, best.Borderline, best.Replicas, best.USDPerHour)
	}
	return q, true
}

// spansShort says how many GPUs p needs when the nearest layout to
// fitting (betterLayout), whose memory does not fit, is a pipeline over
// more instances of o than one: the reason planOne gives names TP × PP of
// GPUs o does not have (a new user's walk: Llama 3.1 405B on one GH200
// read "TP 1 × PP 8: weights 94.5 GiB … short" of a 1-GPU offer). Its
// weights per GPU fall with the GPUs a replica spans, so a split of no
// more of them fits: the replica needs more than TP × PP GPUs.
func (p *Plan) spansShort(o Offer) {
	if p.Fits || p.PP < 2 || p.TP*p.PP <= o.GPUsPerNode || p.Memory.TotalBytes == 0 || p.Memory.Fits() || len(p.ReasonMsgs) == 0 {
		return
	}
	m := model.Msg("one replica needs more than %s (%s of %s, the most planned, do not hold it): %s",
		model.CountMsg(p.TP*p.PP, "GPU"), model.CountMsg((p.TP*p.PP+o.GPUsPerNode-1)/o.GPUsPerNode, "instance"), model.CountMsg(o.GPUsPerNode, "GPU"), p.ReasonMsgs[0])
	p.Reasons[0], p.ReasonMsgs[0] = m.String(), m
}

// PlanOnNodes is PlanServing held to n nodes of o (Serving.Nodes): the
// GPUs the user gave (gpuplan estimate --gpus N), filled with auto
// replicas but never grown. When that plan fits but misses the load or the
// latency targets and auto replicas over more nodes of o would meet them,
// Would names them ("--replicas 4 would meet them: 8 GPUs in all"), with
// the TP when the user did not pin it ("--tp 1 --replicas 14 would …");
// when it meets them only at the estimate (Borderline), Would names the
// auto replicas that meet them across their 90% ranges, if more
// ("--replicas 4 would meet them across their 90% range: 4 GPUs in all").
// The split is searched on the n nodes (a pipeline left open stays on
// them) whether or not s.Replicas is given; replicas given rent what they
// need, more than the n nodes if so (estimate warns of it).
func PlanOnNodes(a *model.Architecture, s Serving, o Offer, n int) (Plan, error) {
	held := s
	held.Nodes = max(n, 1)
	p, err := PlanServing(a, held, o)
	if err == nil && !p.Fits && p.Memory.TotalBytes > 0 && (s.TP > 0 || s.PP > 1) {
		p.Would = splitThatFits(a, held, o, max(n, 1))
	}
	// A plan meeting the targets only at the estimate on the GPUs given
	// stays on them (they bind), and Would names the replicas that meet
	// them across their 90% ranges, as PlanServing plans the offer
	// unheld (clearBorderline): what recommend and export rent of it.
	borderline := p.Meets && !p.Borderline.IsZero() && s.Replicas == 0
	if err != nil || held.Nodes == 0 || !p.Fits || p.Meets && !borderline {
		return p, err
	}
	q, err := PlanServing(a, s, o)
	if err != nil {
		return Plan{}, err
	}
	if borderline {
		if q.Meets && q.Borderline.IsZero() && q.GPUs > p.GPUs {
			if s.TP == 0 {
				p.Would = model.Msg("--tp %d --replicas %d would meet them across their 90%% range: %d GPUs in all", q.TP, q.Replicas, q.GPUs)
			} else {
				p.Would = model.Msg("--replicas %d would meet them across their 90%% range: %d GPUs in all", q.Replicas, q.GPUs)
			}
		}
		return p, nil
	}
	if q.Meets && q.GPUs > p.GPUs {
		// The TP too when the user left it to us: "--replicas 14" run
		// again without the --gpus it was said of took TP 2 on 28 GPUs
		// (new-user walk); "--tp 1 --replicas 14" plans what was said.
		if s.TP == 0 {
			p.Would = model.Msg("--tp %d --replicas %d would meet them: %d GPUs in all", q.TP, q.Replicas, q.GPUs)
		} else {
			p.Would = model.Msg("--replicas %d would meet them: %d GPUs in all", q.Replicas, q.GPUs)
		}
	}
	return p, nil
}

// splitThatFits names the split of the same GPUs (n nodes of o, as held)
// that holds the model when the one the user pinned (--tp, --pp) does
// not: the plan PlanServing picks with TP left to it, then with PP left to
// it too, as recommend would choose on these GPUs, and its flags, so the
// run can be repeated with them ("--tp 4 --pp 1 fits these 4 GPUs"). When
// no split of them holds the model, it says so: more GPUs, a larger GPU or
// smaller weights are what help. A new user's walk: Llama 3.1 70B at
// --gpus 4 --tp 2 on L40S said "does not fit" and nothing of TP 4.
func splitThatFits(a *model.Architecture, held Serving, o Offer, n int) model.Message {
	gpus := n * o.GPUsPerNode
	tries := []Serving{held}
	tries[0].TP = 0
	if held.PP > 1 || n > 1 {
		t := tries[0]
		t.PP = 0
		tries = append(tries, t)
	}
	for _, t := range tries {
		if q, err := PlanServing(a, t, o); err == nil && q.Fits {
			return model.Msg("--tp %d --pp %d fits these %d GPUs (as recommend would split them)", q.TP, q.PP, gpus)
		}
	}
	if gpus == 1 { // not "these 1 GPUs" (a new user's walk)
		return model.Msg("no --tp or --pp split of this one GPU holds the model: more GPUs (--gpus), a GPU with more memory or smaller weights (--weight-format) would")
	}
	return model.Msg("no --tp or --pp split of these %d GPUs holds the model: more GPUs (--gpus), a GPU with more memory or smaller weights (--weight-format) would", gpus)
}

// GPUOffer is a node of n GPUs of g with no instance type, price or
// region: what gpuplan estimate plans serving on. Its GPUs are linked by
// g's own interconnect (an SXM/OAM module comes only on a baseboard that
// links it, see OfferFor), else PCIe.
func GPUOffer(g *model.GPU, n int) Offer {
	link := g.Interconnect
	if link == "" {
		link = "pcie"
	}
	return Offer{Name: fmt.Sprintf("%d × %s", n, g.Name), GPU: g, GPUsPerNode: n, Interconnect: link}
}

// PlanOnGPU plans serving a with s on GPU g when no node is given (gpuplan
// estimate without --gpus): each replica on its own TP × PP GPUs. TP is
// each of 1, 2, 4 and 8 that vLLM accepts for the model's heads (tpChoices
// over a node of model.DefaultGPUsPerNode, the largest NVLink domain of
// the catalog's usual nodes), or s.TP when the user fixed it; each is
// planned by PlanServing on a node of exactly TP × PP GPUs, so GPUs count
// one by one, not in whole 8-GPU nodes, and replicas are as many as carry
// the load (or s.Replicas when fixed). The plans are compared by
// betterPlan, the order PlanServing ranks an instance type's layouts by
// (recommend, offers and the configurator's serving panel plan through
// PlanServing too): meeting the load and latency targets first (and
// within their 90% ranges before only at the estimate), then the fewest
// GPUs that carry the load, then, on a tie, the fewer GPU-hours per
// million output tokens (perMOutput: the more output tokens/s on those
// GPUs, the split recommend ranks first on an instance type of them at
// one hourly price), then the smaller TP. Issue 30: gpt-oss-120b
// at 64 concurrent requests on H100 took 6 replicas at TP 1, whose
// weights leave 3.4 GiB of KV cache per GPU, where TP 2 on 2 GPUs
// carries them.
func PlanOnGPU(a *model.Architecture, s Serving, g *model.GPU) (Plan, error) {
	return PlanOnGPUNodes(a, s, g, model.DefaultGPUsPerNode)
}

// PlanOnGPUNodes is PlanOnGPU where the largest node of g holds perNode
// GPUs (gpuplan estimate: the catalog's largest instance type of g): a
// replica of more GPUs spans nodes, so a TP above perNode is refused as
// recommend refuses it on every instance type of g ("TP 16 needs 16 GPUs
// in one node", planOne), and a pipeline across nodes needs a Ray
// cluster (allow_multi_node), where it was timed as one NVLink domain
// (a new user's trial: DeepSeek-R1 at TP 16 on 16 H100s served at 8.1 ms
// per token in estimate, a near miss in recommend). 0 is
// model.DefaultGPUsPerNode.
func PlanOnGPUNodes(a *model.Architecture, s Serving, g *model.GPU, perNode int) (Plan, error) {
	if g == nil {
		return Plan{}, model.Errorf(ErrInvalid, "no GPU to plan serving on: give --gpu NAME")
	}
	if perNode < 1 {
		perNode = model.DefaultGPUsPerNode
	}
	tps := tpChoices(a, s, model.DefaultGPUsPerNode)
	if len(tps) == 0 {
		return PlanServing(a, s, NodeOffer(g, max(s.TP, 1)*max(s.PP, 1), perNode))
	}
	var best *Plan
	var tried []Plan
	for _, tp := range tps {
		one := s
		one.TP = tp
		p, err := PlanServing(a, one, NodeOffer(g, tp*max(s.PP, 1), perNode))
		if err != nil {
			return Plan{}, err
		}
		// A TP the user pinned with the pipeline left open: its stages
		// may share a node of g before they span nodes (new-user walk:
		// Llama 3.1 70B at --tp 2 on H100s was TP 2 × PP 2 "on 2 nodes of
		// 2 GPUs", a Ray cluster, where one 8-GPU node holds the 4).
		for pp := 2; s.TP > 0 && s.PP == 0 && tp*pp <= perNode; pp *= 2 {
			q, err := PlanServing(a, one, NodeOffer(g, tp*pp, perNode))
			if err != nil {
				return Plan{}, err
			}
			if betterLayout(&q, &p) {
				p = q
			}
		}
		tried = append(tried, p)
		if best == nil || betterLayout(&p, best) {
			best = &p
		}
	}
	// As PlanServing holds a split that meets the targets only at the
	// estimate against one that clears them for over twice its GPUs.
	best = keepBorderline(best, tried)
	if s.TP == 0 {
		best.Chosen = chosenTP(best, tried)
	}
	if q, ok := onTheseGPUs(a, s, g, perNode, best); ok {
		q.Chosen = fewerGPUs(&q, tried)
		return q, nil
	}
	return *best, nil
}

// onTheseGPUs plans a with s on one node of best's GPUs, as estimate
// --gpus N plans them and recommend and export rank the layouts of an
// instance type of them (PlanOnNodes, auto TP and replicas filling the
// node), and returns that plan when it ranks before best (betterLayout):
// a TP whose own replicas need fewer GPUs than best's but only meet the
// targets at the estimate can meet them across their ranges with more
// replicas on the same GPUs (a new user's walk: Qwen3 8B at 16
// concurrent requests on RTX 4090s was TP 2 × 2 replicas at 234 output
// tokens/s in estimate, since TP 1 × 2 was borderline; estimate --gpus 4,
// recommend and export on a 4-GPU instance pick TP 1 × 4 at 445). Only
// when TP, PP and replicas are left to the planner and best's GPUs fit
// one node of g (perNode): GPUs beyond it are nodes, planned as before.
func onTheseGPUs(a *model.Architecture, s Serving, g *model.GPU, perNode int, best *Plan) (Plan, bool) {
	n := best.GPUs
	if s.TP > 0 || s.Replicas > 0 || !best.Meets || n < 2 || n > perNode || n == best.TP*best.PP {
		return Plan{}, false
	}
	held := s
	if held.PP == 0 {
		held.PP = 1 // one node: no pipeline across nodes, as estimate --gpus N
	}
	q, err := PlanOnNodes(a, held, GPUOffer(g, n), 1)
	if err != nil || !q.Meets || !betterLayout(&q, best) {
		return Plan{}, false
	}
	q.Serving.Nodes = 0 // chosen, not given
	return q, true
}

// fewerGPUs says why best, from onTheseGPUs, is on more GPUs than the
// fewest of tried's that carry the load at the estimate: those meet the
// targets only at the estimate. Zero when none of tried does on fewer.
func fewerGPUs(best *Plan, tried []Plan) model.Message {
	var q *Plan
	for i := range tried {
		t := &tried[i]
		if t.Meets && !t.Borderline.IsZero() && t.GPUs < best.GPUs && (q == nil || t.GPUs < q.GPUs) {
			q = t
		}
	}
	if q == nil {
		return model.Message{}
	}
	return model.Msg("%s chosen, not %d: TP %d × %s on %d meets the targets only at the estimate (%s); --gpus pins them",
		model.CountMsg(best.GPUs, "GPU"), q.GPUs, q.TP, model.CountMsg(q.Replicas, "replica"), q.GPUs, q.Borderline)
}

// NodeOffer is GPUOffer of n GPUs in nodes of at most perNode: a replica
// larger than the largest node of g spans nodes, as recommend plans it on
// the catalog's instance types (planOne refuses TP across nodes, and a
// pipeline across them asks for a Ray cluster).
func NodeOffer(g *model.GPU, n, perNode int) Offer {
	if perNode < 1 || n <= perNode {
		return GPUOffer(g, n)
	}
	return GPUOffer(g, perNode)
}

// betterLayout is betterPlan between layouts of one question on one kind
// of GPU, except that of two whose memory does not fit the nearer to
// fitting wins (the larger KV cache, the less negative): the split a report names
// when none fits is the largest tried and its shortfall, not TP 1
// (a new user's trial: DeepSeek-R1 on 8 H100s was reported as TP 1 with
// 627 GiB of weights per GPU, where TP 8 was tried).
func betterLayout(p, q *Plan) bool {
	short := func(x *Plan) bool { return x.Memory.TotalBytes > 0 && !x.Memory.Fits() } // not a layout refusal
	if !p.Fits && !q.Fits && short(p) && short(q) && p.Memory.KVCache != q.Memory.KVCache {
		return p.Memory.KVCache > q.Memory.KVCache
	}
	return betterPlan(p, q)
}

// chosenTP says why best, planned at a TP the user did not give, is not
// at the next smaller TP tried (the largest TP of tried below best's;
// the layout with the best pipeline there): it does not fit (on one GPU:
// one GPU cannot hold the weights and the KV cache of one request),
// misses the targets, meets them only at the estimate (its 90% range
// crosses them), needs more GPUs for the load, or serves fewer output
// tokens/s on as many. Zero when best does
// not fit or is at the smallest TP.
func chosenTP(best *Plan, tried []Plan) model.Message {
	if !best.Fits {
		return model.Message{}
	}
	var q *Plan
	for i := range tried {
		t := &tried[i]
		if t.TP >= best.TP || t.Memory.TotalBytes == 0 {
			continue
		}
		if q == nil || t.TP > q.TP || t.TP == q.TP && betterLayout(t, q) {
			q = t
		}
	}
	if q == nil {
		return model.Message{}
	}
	// noFit is why q does not fit at best's pipeline: its own reason, or
	// the one its longer pipeline grew from (Grown).
	var noFit model.Message
	switch {
	case !q.Fits && len(q.ReasonMsgs) > 0:
		noFit = q.ReasonMsgs[0]
	case q.PP > best.PP && len(q.Grown.Args) > 0:
		noFit, _ = q.Grown.Args[len(q.Grown.Args)-1].(model.Message)
	}
	var why model.Message
	switch {
	case !noFit.IsZero() && q.TP == 1:
		why = model.Msg("one %s cannot hold the weights and the KV cache of one %d-token request (%s)", q.Offer.GPU.Name, q.Serving.MaxModelLen, noFit)
	case !noFit.IsZero():
		why = model.Msg("TP %d does not fit (%s)", q.TP, noFit)
	case !q.Meets && len(q.ReasonMsgs) > 0:
		why = model.Msg("TP %d misses the targets (%s)", q.TP, q.ReasonMsgs[0])
	case q.Meets && !q.Borderline.IsZero() && best.Borderline.IsZero():
		why = model.Msg("TP %d meets the targets only at the estimate (%s)", q.TP, q.Borderline)
	case q.GPUs > best.GPUs:
		why = model.Msg("TP %d needs %s for the load where TP %d needs %d", q.TP, model.CountMsg(q.GPUs, "GPU"), best.TP, best.GPUs)
	case q.GPUs == best.GPUs && costKey(perMOutput(q, best)) > costKey(perMOutput(best, q)):
		// The tie betterPlan breaks by cost per million output tokens:
		// on the same GPUs (the same price) that is the output rate, said
		// as such where an estimate has no price; compared as betterPlan
		// compares it (costKey), so a rate that differs only in its last
		// bits is never named as the reason.
		why = model.Msg("TP %d serves %.0f output tokens/s on the same %s where TP %d serves %.0f", q.TP, q.OutputTokensPerSec, model.CountMsg(q.GPUs, "GPU"), best.TP, best.OutputTokensPerSec)
	default:
		why = model.Msg("TP %d ranks after it (cost per million output tokens)", q.TP)
	}
	return model.Msg("TP %d chosen, not TP %d: %s; --tp pins the split", best.TP, q.TP, why)
}

// ppChoices returns the pipeline sizes PlanServing tries, smallest first:
// s.PP when given; 1 for an encoder-decoder (Serving.Validate); on held
// GPUs given (Serving.Nodes: held of them) every size up to held, as vLLM
// takes any pipeline size (pipeline_parallel_size, each stage a share of
// the layers, vllm/distributed/utils.py get_pp_indices), so 3 GPUs can
// hold a pipeline of 3; else 1, 2, 4 and 8.
func ppChoices(a *model.Architecture, s Serving, held int) []int {
	if s.PP > 0 {
		return []int{s.PP}
	}
	if encDec(a) { // no pipeline parallelism for an encoder-decoder (Serving.Validate)
		return []int{1}
	}
	var c []int
	if held > 0 {
		for pp := 1; pp <= held && pp <= a.Layers; pp++ {
			c = append(c, pp)
		}
		return c
	}
	for pp := 1; pp <= 8 && pp <= a.Layers; pp *= 2 {
		c = append(c, pp)
	}
	return c
}

// tpChoices returns the tensor-parallel degrees PlanServing tries: s.TP
// when given, else each power of two up to the node's GPUs that vLLM
// accepts for the model's heads (tpOK), whether or not it divides them: a
// replica that does not leaves the rest of the node idle (Plan.Idle), as
// TP 2 on a node of 3 GPUs does, and may still be the best layout there.
func tpChoices(a *model.Architecture, s Serving, perNode int) []int {
	if s.TP > 0 {
		return []int{s.TP}
	}
	var c []int
	for tp := 1; tp <= perNode; tp *= 2 {
		if tpOK(a, tp) == nil {
			c = append(c, tp)
		}
	}
	return c
}

// betterPlan orders plans: meeting targets first, then fitting, then by
// the question's cost (Serving.PerToken): for a fixed load the lowest
// price per hour that carries it, ties (and plans without a price) to
// fewer GPUs, then to the lower cost per million output tokens (the
// faster plan); for a price per token the lowest cost
// per million output tokens; then fewer GPUs per replica.
//
// It is the one order every serving path chooses a split by: PlanServing
// ranks an offer's layouts with it (through betterLayout) for recommend,
// export, the configurator and estimate --gpus N (PlanOnNodes), and
// PlanOnGPU its TPs; RankServing ranks offers with it. Plans without a
// price (estimate's GPUOffer) compare GPU-hours per million output
// tokens where priced ones compare dollars (perMOutput), so on the same
// GPUs estimate keeps the split recommend and export pick on an instance
// type of them, whose hourly price is the same for every layout: the
// faster (a new user's walk: Llama 3.1 70B at 32 concurrent requests on 8
// H100s was TP 4 × 2 replicas at 1154 tokens/s in estimate, TP 8 at 1401
// in recommend and export).
func betterPlan(p, q *Plan) bool {
	if p.Meets != q.Meets {
		return p.Meets
	}
	if pb, qb := !p.Borderline.IsZero(), !q.Borderline.IsZero(); pb != qb {
		return qb
	}
	if p.Fits != q.Fits {
		return p.Fits
	}
	if p.OverBudget != q.OverBudget { // carries the load: the nearest miss
		return p.OverBudget
	}
	if !p.Meets && p.Fits {
		// Near misses: the closest to the targets first (issue 31 round 4:
		// a 41.4 ms offer listed before an 18 ms one at a 3 ms target).
		if c := cmp.Compare(p.Shortfall, q.Shortfall); c != 0 {
			return c < 0
		}
	}
	if p.Fits && (!p.Serving.PerToken || p.USDPerHour == 0 && q.USDPerHour == 0) {
		if c := cmp.Compare(p.USDPerHour, q.USDPerHour); c != 0 {
			return c < 0
		}
		// No price (estimate on a GPU, whatever the question) or the
		// same: fewer GPUs rented.
		if c := cmp.Compare(p.GPUs, q.GPUs); c != 0 {
			return c < 0
		}
	}
	if c := cmp.Compare(costKey(perMOutput(p, q)), costKey(perMOutput(q, p))); c != 0 {
		return c < 0
	}
	return p.TP*p.PP < q.TP*q.PP
}

// costKey is a cost per million output tokens as betterPlan compares it:
// rounded to 9 significant digits, so that two splits carrying the same
// load on the same GPUs tie and the smaller TP wins, as docs/serving.md
// says. Their output is the load's either way, but summed over their
// replicas in floating point (a new user's walk: Llama 3.1 8B at 10
// requests/s × 256 tokens on 12 L4s served 2559.9999999999995 tokens/s at
// TP 2 × 6 replicas and 2560.0000000000005 at TP 4 × 3, and TP 4 won by
// the last bit). Rounding, unlike a tolerance, keeps the order transitive
// for the sorts that use it; 9 digits are far below any difference the
// estimate means (its 90% ranges span a factor of about 1.5) and far
// above float64's 16.
func costKey(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	scale := math.Pow(10, 8-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}

// perMOutput is what p's output costs per million tokens, compared with
// q's: dollars (USDPerMOutput) when both have a price, else GPU-hours,
// GPUs ÷ (output tokens/s × 3600) × 10⁶ (USDPerMillionTokens at $1 per
// GPU-hour). On one kind of GPU the hourly price is the GPUs rented
// times a price per GPU, so the two order the same plans alike: without
// a price (estimate on a GPU) the plan is the one the priced offer would
// rank first (betterPlan).
func perMOutput(p, q *Plan) float64 {
	if p.USDPerHour > 0 && q.USDPerHour > 0 {
		return p.USDPerMOutput
	}
	return USDPerMillionTokens(float64(p.GPUs), p.OutputTokensPerSec)
}

// SlowerThanReading reports whether p streams text slower than its reader
// reads (TPOT above ReadingTPOTMs): a plan that meets a loose or absent
// TPOT target but makes a chat wait for each word.
func (p *Plan) SlowerThanReading() bool {
	return p.Fits && p.Perf.TPOTSec*1e3 > ReadingTPOTMs
}

// planOne sizes replicas for a fixed TP and PP.
func planOne(a *model.Architecture, s Serving, o Offer, tp, pp int) Plan {
	s.TP, s.PP = tp, pp
	p := Plan{Offer: o, Serving: s, TP: tp, PP: pp, USDPerMOutput: math.Inf(1), USDPerMInput: math.Inf(1)}
	p.Memory = MemoryOn(a, &s, o.GPU, tp, pp)
	hw := o.hardware()
	if s.Nodes > 0 {
		// The GPUs given bind (Serving.Nodes): a plan that does not fit
		// still names them, not 0 GPUs on 0 nodes (a new user's
		// estimate --gpus 4 --json); a plan that fits sets them below.
		p.Nodes, p.GPUs = s.Nodes, s.Nodes*o.GPUsPerNode
	}
	// A plan that does not fit names the replicas asked, or one: never
	// "0 replicas" (walk49: --gpus 3 --replicas 1).
	p.Replicas = max(s.Replicas, 1)
	if tp > o.GPUsPerNode {
		// Tensor parallelism all-reduces twice per layer: vLLM runs it
		// inside a node, pipeline parallelism across nodes (vLLM docs,
		// "Distributed inference and serving").
		p.reason("TP %d needs %d GPUs in one node; %s has %d per node (use pipeline parallelism across nodes)",
			tp, tp, o.Name, o.GPUsPerNode)
		return p
	}
	if !p.Memory.Fits() {
		// The shortfall: what one full-length request's KV cache needs
		// beyond what is left (KVCache is negative or 0); an
		// encoder-decoder's request holds its cross-attention tokens too.
		short := (p.Memory.RequestKVBytes(s.MaxModelLen, s.MaxNumBatchedTokens) - p.Memory.KVCache) / model.GiB
		switch {
		case p.Memory.KVCache <= 0 && p.Memory.CrossTokens > 0:
			p.reason("TP %d × PP %d: weights %.1f GiB + activations %.1f GiB per GPU leave no KV cache in %.1f GiB (gpu_memory_utilization %.2g), %.1f GiB per GPU short of one request of %d decoder tokens and %d cross-attention positions",
				tp, pp, p.Memory.Weights/model.GiB, p.Memory.Activation/model.GiB, p.Memory.BudgetBytes/model.GiB, s.GPUMemoryUtilization, short, s.MaxModelLen, p.Memory.CrossTokens)
		case p.Memory.KVCache <= 0:
			p.reason("TP %d × PP %d: weights %.1f GiB + activations %.1f GiB per GPU leave no KV cache in %.1f GiB (gpu_memory_utilization %.2g), %.1f GiB per GPU short of one %d-token request",
				tp, pp, p.Memory.Weights/model.GiB, p.Memory.Activation/model.GiB, p.Memory.BudgetBytes/model.GiB, s.GPUMemoryUtilization, short, s.MaxModelLen)
		case p.Memory.CrossTokens > 0:
			p.reason("TP %d × PP %d: KV cache holds %d tokens, less than one request's %d decoder tokens and %d cross-attention positions",
				tp, pp, p.Memory.KVTokens, s.MaxModelLen, p.Memory.CrossTokens)
		default:
			p.reason("TP %d × PP %d: KV cache holds %d tokens, less than one %d-token request",
				tp, pp, p.Memory.KVTokens, s.MaxModelLen)
		}
		return p
	}
	bMax := serveMaxBatch(&s, &p.Memory)
	if bMax < 1 {
		p.reason("TP %d: KV cache holds %d tokens, less than one request's %d", tp, p.Memory.KVTokens, s.PromptTokens+s.OutputTokens)
		return p
	}
	p.Fits = true
	speed := func(b int) Perf { return Speed(a, &s, &p.Memory, &hw, tp, pp, b) }
	latOK := func(q Perf) bool {
		return (s.TPOTTargetMs == 0 || q.TPOTSec*1e3 <= s.TPOTTargetMs) && (s.TTFTTargetMs == 0 || q.TTFTSec*1e3 <= s.TTFTTargetMs)
	}
	// The largest batch meeting the latency targets: TPOT and TTFT grow with it.
	bLat := sort1(bMax, func(b int) bool { return !latOK(speed(b)) }) - 1
	meetsLatency := bLat >= 1
	if !meetsLatency {
		bLat = 1
	}

	gpusPerReplica := tp * pp
	perNode := max(1, o.GPUsPerNode/gpusPerReplica)
	nodesPerReplica := max(1, (gpusPerReplica+o.GPUsPerNode-1)/o.GPUsPerNode)
	replicasFor := func(r int) int { // fill rented nodes
		if s.Replicas > 0 {
			return s.Replicas
		}
		if s.Nodes > 0 { // the nodes given, filled; none added (Serving.Nodes)
			if nodesPerReplica > 1 {
				return max(1, s.Nodes/nodesPerReplica)
			}
			return s.Nodes * perNode
		}
		if nodesPerReplica > 1 {
			return r
		}
		nodes := (r + perNode - 1) / perNode
		return nodes * perNode
	}
	var batch int
	short := 1.0 // Shortfall
	switch {
	case s.RequestsPerSec > 0:
		capacity := speed(bLat).RequestsPerSec
		r := replicasFor(int(math.Ceil(s.RequestsPerSec / capacity)))
		share := s.RequestsPerSec / float64(r)
		batch = sort1(bMax, func(b int) bool { return speed(b).RequestsPerSec >= share })
		if batch > bMax || speed(batch).RequestsPerSec < share*0.999 {
			batch = bMax
			short = max(short, share/speed(bMax).RequestsPerSec)
			p.reason("%.3g requests/s on %s, fewer than the %.3g asked",
				float64(r)*speed(bMax).RequestsPerSec, model.CountMsg(r, "replica"), s.RequestsPerSec)
		}
		p.Replicas = r
	default:
		c := max(s.Concurrency, 1)
		r := replicasFor((c + bLat - 1) / bLat)
		batch = (c + r - 1) / r
		if batch > bMax {
			p.reason("%d concurrent requests over %s need %d sequences each; the KV cache or max_num_seqs holds %d",
				c, model.CountMsg(r, "replica"), batch, bMax)
			short = max(short, float64(batch)/float64(bMax))
			batch = bMax
		}
		p.Replicas = r
	}
	p.Perf = speed(batch)
	// busy is the replica-equivalents doing work: the load is all there is,
	// so replicas beyond it idle (auto replicas fill every rented node).
	busy := float64(p.Replicas)
	switch {
	case s.RequestsPerSec > 0:
		if c := p.Perf.RequestsPerSec * busy; c > s.RequestsPerSec {
			busy *= s.RequestsPerSec / c // capacity beyond the requests/s asked idles
		}
	case batch < bMax:
		// c requests over r replicas: c mod r replicas hold ⌈c/r⌉ (batch),
		// the rest ⌊c/r⌋, possibly none; a replica at b sequences gives
		// speed(b), so count each as its share of one at batch.
		c, r := max(s.Concurrency, 1), p.Replicas
		lo, hiN := c/r, c%r
		if hiN == 0 {
			hiN = r // every replica at batch
		}
		busy = float64(hiN)
		if lo > 0 && lo < batch && p.Perf.RequestsPerSec > 0 {
			busy += float64(r-hiN) * speed(lo).RequestsPerSec / p.Perf.RequestsPerSec
		}
	}
	if s.TTFTTargetMs > 0 {
		short = max(short, p.Perf.TTFTSec*1e3/s.TTFTTargetMs)
	}
	if s.TPOTTargetMs > 0 {
		short = max(short, p.Perf.TPOTSec*1e3/s.TPOTTargetMs)
	}
	p.Shortfall = short
	if !latOK(p.Perf) {
		if s.TTFTTargetMs > 0 && p.Perf.TTFTSec*1e3 > s.TTFTTargetMs {
			p.reason("time to first token %.0f ms, target %.0f ms", p.Perf.TTFTSec*1e3, s.TTFTTargetMs)
		}
		if s.TPOTTargetMs > 0 && p.Perf.TPOTSec*1e3 > s.TPOTTargetMs {
			p.reason("time per output token %.1f ms, target %.1f ms", p.Perf.TPOTSec*1e3, s.TPOTTargetMs)
		}
	}
	if nodesPerReplica > 1 {
		p.Nodes = p.Replicas * nodesPerReplica
	} else {
		p.Nodes = (p.Replicas + perNode - 1) / perNode
	}
	if p.Nodes > serveMaxNodes {
		p.reason("needs %d nodes, more than %d", p.Nodes, serveMaxNodes)
	}
	if nodesPerReplica > 1 && s.AllowMultiNode {
		p.NoExport = model.Msg("one replica spans %d instances (TP %d × PP %d over %s each): vLLM runs it on a Ray cluster, which gpuplan does not export",
			nodesPerReplica, tp, pp, model.CountMsg(o.GPUsPerNode, "GPU"))
	}
	if nodesPerReplica > 1 && !s.AllowMultiNode {
		p.reason("one replica spans %d instances (TP %d × PP %d over %s each): pipeline parallel across nodes needs a Ray cluster (allow_multi_node)",
			nodesPerReplica, tp, pp, model.CountMsg(o.GPUsPerNode, "GPU"))
		p.Spans = p.ReasonMsgs[len(p.ReasonMsgs)-1]
	}
	p.GPUs = p.Nodes * o.GPUsPerNode
	p.IdleGPUs = max(p.GPUs-p.Replicas*tp*pp, 0)
	p.Serving.Replicas = p.Replicas
	r := busy
	p.OutputTokensPerSec = p.Perf.OutputTokensPerSec * r
	p.InputTokensPerSec = p.Perf.InputTokensPerSec * r
	p.RequestsPerSec = p.Perf.RequestsPerSec * r
	p.USDPerHour = float64(p.Nodes) * o.USDPerHour
	p.USDPerMOutput = USDPerMillionTokens(p.USDPerHour, p.OutputTokensPerSec)
	p.USDPerMInput = USDPerMillionTokens(p.USDPerHour, p.InputTokensPerSec)
	p.Meets = len(p.Reasons) == 0
	if p.Meets {
		p.Borderline, p.BorderlineOn = borderline(&s, &p.Memory, &p.Perf)
	}
	return p
}

// BorderlineKind is the figure whose 90% range makes a plan borderline
// (Plan.BorderlineOn).
type BorderlineKind string

const (
	// BorderlineTPOT: the slow end of the TPOT's range crosses the target.
	BorderlineTPOT BorderlineKind = "tpot"
	// BorderlineKV: the low end of the KV cache's range holds fewer
	// sequences than each replica's batch.
	BorderlineKV BorderlineKind = "kv-cache"
)

// borderline says why a plan meeting its targets at the estimate may miss
// them within the estimate's 90% range, or zero: the serve/tpot band is of
// speed (published ÷ estimated tokens/s), so the slow end of the TPOT is
// TPOT ÷ Lo; the serve/kv-cache band is of KV cache bytes, so its low end
// holds KVTokens × Lo tokens, which must hold the batch's sequences at the
// occupancy serveMaxBatch counts. The kind says which of the two.
func borderline(s *Serving, m *Memory, pf *Perf) (model.Message, BorderlineKind) {
	if b, ok := calibrationBands["serve/tpot"]; ok && s.TPOTTargetMs > 0 && b.Lo > 0 {
		if slow := pf.TPOTSec * 1e3 / b.Lo; slow > s.TPOTTargetMs {
			return model.Msg("the 90%% range of the TPOT, %.1f–%.1f ms, crosses the %.1f ms target",
				pf.TPOTSec*1e3/b.Hi, slow, s.TPOTTargetMs), BorderlineTPOT
		}
	}
	if kvLo, _, _, ok := m.KVCacheRange(); ok && pf.Batch > 0 {
		lo := m.scaledKV(kvLo / m.KVCache) // the range held to the budget (KVCacheRange)
		if n := serveMaxBatch(s, &lo); n < pf.Batch {
			return model.Msg("the low end of the KV cache's 90%% range, %s tokens, holds %d of the %d sequences each replica needs",
				model.FormatCount(float64(lo.KVTokens)), n, pf.Batch), BorderlineKV
		}
	}
	return model.Message{}, ""
}

// sort1 returns the smallest b in [1, n] with f(b) true, or n+1; f must be
// false then true as b grows (sort.Search over 1-based batches).
func sort1(n int, f func(int) bool) int {
	lo, hi := 1, n+1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// RankServing plans a with s on every offer and returns the plans, those
// meeting the load and latency targets first, each group by the
// question's cost, cheapest first (betterPlan: $ per hour that carries a
// fixed load, or $ per million output tokens when s.PerToken). Offers
// that cannot hold the model come last with their reasons. The error
// wraps ErrInvalid.
func RankServing(a *model.Architecture, s Serving, offers []Offer) ([]Plan, error) {
	plans := make([]Plan, 0, len(offers))
	for _, o := range offers {
		p, err := PlanServing(a, s, o)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	slices.SortStableFunc(plans, func(p, q Plan) int {
		switch {
		case betterPlan(&p, &q):
			return -1
		case betterPlan(&q, &p):
			return 1
		}
		return 0
	})
	return borderlineFirst(plans), nil
}

// borderlineFirst is clearCostCap across offers, as clearBorderline
// applies it to an offer's replicas and keepBorderline to its splits:
// when the first plan of the ranking that meets the targets across its
// 90% range costs over clearCostCap times a plan that meets them only at
// the estimate (betterPlan ranked it after), the range's tail at that
// price is the user's call (docs/serving.md), so the cheaper borderline
// plans rank first, each naming the offer that clears (Dearer). A new
// user's walk: Qwen3 32B at 32K × 16 on aws L40S ranked g6e.48xlarge
// (4 replicas, $60.26/h) best over g6e.12xlarge ($10.49/h, TPOT ~93.8 ms,
// range 63–145 ms against 100), 5.7 times the cost for that tail.
// The cost is the key betterPlan ranks by: $ per hour for a fixed load,
// $ per million output tokens for a question priced per token
// (Serving.PerToken; a walker's Llama 3.1 8B on aws L4 without a load
// kept g6.12xlarge, $9.83/Mtok, best over g6.xlarge at $4.81, where
// --concurrency 4, the same default, put g6.xlarge first). Plans without
// a price keep betterPlan's order. plans is in betterPlan's order; it is
// reordered in place and returned.
func borderlineFirst(plans []Plan) []Plan {
	c := slices.IndexFunc(plans, func(p Plan) bool { return p.Meets && p.Borderline.IsZero() })
	if c < 0 || plans[c].USDPerHour == 0 {
		return plans
	}
	clear := plans[c]
	perToken := clear.Serving.PerToken
	cost := func(p *Plan) float64 { // betterPlan's key; 0 when unknown
		switch {
		case !perToken:
			return p.USDPerHour
		case p.USDPerHour > 0 && p.USDPerMOutput > 0 && !math.IsInf(p.USDPerMOutput, 0):
			return p.USDPerMOutput
		}
		return 0
	}
	if cost(&clear) == 0 {
		return plans
	}
	var cheaper, rest []Plan
	for i, p := range plans {
		if i > c && p.Meets && !p.Borderline.IsZero() && cost(&p) > 0 && cost(&clear) > clearCostCap*cost(&p) {
			in := clear.Offer.Instance
			switch {
			case perToken && in != nil:
				p.Dearer = model.Msg("%s %s in %s at $%.2f per million output tokens, %.1f times the cost", in.Provider, in.Type, clear.Offer.Region, clear.USDPerMOutput, clear.USDPerMOutput/p.USDPerMOutput)
			case perToken:
				p.Dearer = model.Msg("%s at $%.2f per million output tokens, %.1f times the cost", clear.Offer.Name, clear.USDPerMOutput, clear.USDPerMOutput/p.USDPerMOutput)
			case in != nil:
				p.Dearer = model.Msg("%s %s in %s at $%.2f/h, %.1f times the cost", in.Provider, in.Type, clear.Offer.Region, clear.USDPerHour, clear.USDPerHour/p.USDPerHour)
			default:
				p.Dearer = model.Msg("%s at $%.2f/h, %.1f times the cost", clear.Offer.Name, clear.USDPerHour, clear.USDPerHour/p.USDPerHour)
			}
			if perToken {
				p.DearerUSDPerMOutput = clear.USDPerMOutput
			}
			p.DearerOffer, p.DearerUSDPerHour = clear.Offer.Name, clear.USDPerHour
			cheaper = append(cheaper, p)
			continue
		}
		if i >= c {
			rest = append(rest, p)
		}
	}
	if len(cheaper) == 0 {
		return plans
	}
	out := append(plans[:c:c], cheaper...)
	return append(out, rest...)
}

// FormatOn returns the weight format vLLM serves a request for f in
// on g: f itself with a zero why when g runs it; else why not, and the
// format vLLM would load instead (ok), or ok false when there is none.
//
//   - bf16 needs compute capability 8.0: vLLM refuses bfloat16 below it
//     and asks for --dtype=half (vllm/platforms/cuda.py
//     check_if_supports_dtype: "Bfloat16 is only supported on GPUs with
//     compute capability of at least 8.0"); fp16 has the same bytes.
//   - fp8 needs 7.5: "FP8 computation is supported on NVIDIA GPUs with
//     compute capability >= 8.9 (Ada Lovelace, Hopper, Blackwell). FP8
//     models will run on compute capability >= 7.5 (Turing) as
//     weight-only W8A16, utilizing FP8 Marlin" (vLLM docs, "FP8 W8A8",
//     docs/features/quantization/fp8.md); Volta has neither ("Supported
//     Hardware" table: FP8 (W8A8) and Marlin ✗ on Volta). On ROCm vLLM
//     disables Marlin (model_executor/layers/quantization/fp8.py,
//     Fp8LinearMethod: "Disable marlin for rocm"), so an AMD GPU needs fp8
//     hardware (the catalog's fp8 rate: MI300). Without fp8 the model is
//     served from its 16-bit checkpoint: bf16, or fp16 where bf16 is
//     missing too.
//   - AWQ needs 7.5 (model_executor/layers/quantization/awq.py,
//     AWQConfig.get_min_capability returns 75: "The AWQ kernel only
//     supports Turing or newer GPUs"); an AWQ checkpoint has no format to
//     fall back to.
//   - int8 (W8A8, compressed-tensors) needs 7.5 too
//     (compressed_tensors_w8a8_int8.py, CompressedTensorsW8A8Int8
//     .get_min_capability returns 75: "turing and up"); no fallback.
//   - MXFP4 (gpt-oss) needs 8.0 and bfloat16 activations:
//     quantization/mxfp4.py Mxfp4Config.get_min_capability returns 80 and
//     get_supported_act_dtypes [torch.bfloat16] (vllm-project/vllm at
//     007d50058a06dec0f82472d63c819244d460c40d, and unchanged where the
//     later fused_moe/oracle/mxfp4.py picks the kernels), which
//     VllmConfig._get_quantization_config (vllm/config/vllm.py, at
//     000fc94b754f66aeb60ef5acf1ea2e94cdc65164) checks before anything
//     loads: "The quantization method mxfp4 is not supported for the
//     current GPU. Minimum capability: 80. Current capability: 75." The
//     Marlin and Triton MoE backends the file selects (Marlin where
//     FlashInfer and triton_kernels, 9.0–11.0, are missing) are reached
//     only past that check, so none serves SM70 or SM75; vLLM's gpt-oss
//     recipe runs Ampere "using the TRITON_ATTN attention backend and
//     Marlin MXFP4 MoE", and vllm-project/vllm#23203 ("Support gpt-oss
//     mxfp4 on compute capability 7.5") is an open request. The released
//     checkpoint is MXFP4, so there is nothing to fall back to: V100 and
//     T4 are refused (walk55: recommended, estimated and exported there).
//     ROCm is not checked here (MI300 and later run it with Triton).
//
// fp16 and GPTQ are not checked (GPTQ and bitsandbytes run on Volta in
// the same table).
func FormatOn(f WeightFormat, g *model.GPU) (run WeightFormat, why model.Message, ok bool) {
	nvidia := g.Vendor == "nvidia" && g.ComputeCapability != ""
	has16 := func() WeightFormat {
		if hasBF16(g) {
			return WeightBF16
		}
		return WeightFP16
	}
	switch f {
	case WeightBF16:
		if has16() == WeightBF16 {
			return f, model.Message{}, true
		}
		if nvidia {
			return WeightFP16, model.Msg("%s has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is %s)", g.Name, g.ComputeCapability), true
		}
		return WeightFP16, model.Msg("%s has no bf16", g.Name), true
	case WeightFP8:
		switch {
		case nvidia && g.CCAtLeast(7, 5), !nvidia && g.FP8TFLOPS > 0:
			return f, model.Message{}, true
		case nvidia:
			return has16(), model.Msg("%s has no fp8 (vLLM needs compute capability 7.5 for FP8 weight-only, 8.9 for W8A8; it is %s)", g.Name, g.ComputeCapability), true
		}
		return has16(), model.Msg("%s has no fp8 (vLLM on ROCm needs fp8 hardware: no Marlin weight-only path)", g.Name), true
	case WeightAWQ:
		if nvidia && !g.CCAtLeast(7, 5) {
			return f, model.Msg("vLLM's AWQ kernels need compute capability 7.5 (Turing) or newer; %s is %s", g.Name, g.ComputeCapability), false
		}
	case WeightInt8:
		if nvidia && !g.CCAtLeast(7, 5) {
			return f, model.Msg("vLLM's INT8 (W8A8) kernels need compute capability 7.5 (Turing) or newer; %s is %s", g.Name, g.ComputeCapability), false
		}
	case WeightMXFP4:
		if nvidia && !g.CCAtLeast(8, 0) {
			return f, model.Msg("vLLM's MXFP4 needs compute capability 8.0 (Ampere) or newer, with bfloat16 activations; %s is %s", g.Name, g.ComputeCapability), false
		}
	}
	return f, model.Message{}, true
}

// fp16Refused are the Hugging Face model types (config.json model_type)
// for which vLLM refuses float16: _FLOAT16_NOT_SUPPORTED_MODELS in
// vllm/config/model.py (vllm-project/vllm at 0052a5b818980ce8a0477706aaf9f75bd5af72cd),
// each for "Numerical instability". Gemma 3's multimodal checkpoints are
// "gemma3", its text-only ones "gemma3_text".
var fp16Refused = map[string]bool{"gemma2": true, "gemma3": true, "gemma3_text": true, "plamo2": true, "glm4": true}

// FP16Refused reports whether vLLM refuses float16 for a's model type
// (fp16Refused, by a.CheckpointModelType(), the config.json's top-level
// model_type, which vLLM checks): --dtype float16 fails to start
// (_check_valid_dtype: "The model type 'gemma3' does not support
// float16. Reason: Numerical instability. Please use bfloat16 or float32
// instead."), and --dtype auto leaves float16 out of the GPU's dtypes
// (_resolve_auto_dtype keeps those _is_valid_dtype allows), so on a GPU
// without bf16 it loads float32.
func FP16Refused(a *model.Architecture) bool { return fp16Refused[a.CheckpointModelType()] }

// FormatFor is FormatOn for model a: where g has no bf16 and vLLM refuses
// float16 for a's type (FP16Refused), vLLM's --dtype auto resolves to
// float32, not float16 (vllm/config/model.py _resolve_auto_dtype: the
// platform's dtypes, [float16, float32] below compute capability 8.0 in
// vllm/platforms/cuda.py supported_dtypes, less float16; "Your device …
// doesn't support torch.bfloat16. Falling back to torch.float32"). So:
//
//   - a 16-bit checkpoint (bf16, or fp8's fallback to it) is served in
//     float32, WeightFP32, with float32 = true for the caller;
//   - a quantized format must take float32 activations, which vLLM checks
//     before it loads (vllm/config/vllm.py
//     VllmConfig._get_quantization_config: "… is not supported for
//     quantization method …", from get_supported_act_dtypes): of those
//     planned only bitsandbytes does (float32, float16, bfloat16:
//     quantization/bitsandbytes.py), so it runs with float32 activations
//     (float32 true); fp8 takes bfloat16 and half (quantization/fp8.py),
//     so it falls back to the 16-bit checkpoint in float32 as fp8 does on
//     a GPU without fp8; AWQ and GPTQ take half (awq.py, gptq.py: their
//     Marlin kernels, which take bfloat16 too, need 8.0) and int8
//     (compressed-tensors) float16 and bfloat16, so they are refused.
//
// f fp16 for such a model is refused by Serving.Validate on every GPU.
func FormatFor(a *model.Architecture, f WeightFormat, g *model.GPU) (run WeightFormat, why model.Message, ok, float32 bool) {
	run, why, ok = FormatOn(f, g)
	if !ok || !FP16Refused(a) || hasBF16(g) {
		return run, why, ok, run == WeightFP32
	}
	switch {
	case run == WeightFP32: // asked
		return run, why, true, true
	case run == WeightBNB:
		// Runs as asked, in float32: not a fallback, but the memory and
		// speed are float32's (Serving.Float32).
		return run, why, true, true
	case run == WeightFP8:
		return WeightFP32, model.Msg("%s has no bf16 and vLLM refuses float16 for %s models (numerical instability): vLLM runs the model in float32 there, and its fp8 kernels take bfloat16 or float16 activations",
			g.Name, a.CheckpointModelType()), true, true
	case f == WeightFP8: // no fp8 on g: the 16-bit checkpoint, which runs in float32
		return WeightFP32, model.Msg("%s, and vLLM refuses float16 for %s models (numerical instability)", why, a.CheckpointModelType()), true, true
	case run == WeightBF16, run == WeightFP16:
		if g.Vendor == "nvidia" && g.ComputeCapability != "" {
			return WeightFP32, model.Msg("%s has no bf16 (vLLM needs compute capability 8.0 for bfloat16; it is %s) and vLLM refuses float16 for %s models (numerical instability)",
				g.Name, g.ComputeCapability, a.CheckpointModelType()), true, true
		}
		return WeightFP32, model.Msg("%s has no bf16 and vLLM refuses float16 for %s models (numerical instability)", g.Name, a.CheckpointModelType()), true, true
	}
	return run, model.Msg("%s has no bf16 and vLLM refuses float16 for %s models (numerical instability): vLLM runs the model in float32 there, and its %s kernels take no float32 activations",
		g.Name, a.CheckpointModelType(), run), false, false
}

// hasBF16 reports whether vLLM runs bfloat16 on g: NVIDIA from compute
// capability 8.0 (vllm/platforms/cuda.py), others where the catalog
// gives a bf16 rate.
func hasBF16(g *model.GPU) bool {
	if bf, _ := g.Supports(model.BF16); !bf {
		return false
	}
	return g.Vendor != "nvidia" || g.ComputeCapability == "" || g.CCAtLeast(8, 0)
}

// applyBudget makes a plan that meets but costs more a month than the
// budget (Serving.BudgetMonthUSD) a near miss naming the cost, as
// model.Recommend refuses a training offer (RejectBudget): the month
// billed (model.MonthlyUSD), every hour of it on a reserved term. Its
// OverBudget ranks it first of the near misses (betterPlan).
func (p *Plan) applyBudget() {
	s := p.Serving
	if s.BudgetMonthUSD <= 0 || !p.Meets || p.USDPerHour <= 0 {
		return
	}
	hours := s.HoursPerMonth
	if hours <= 0 {
		hours = model.HoursPerMonth
	}
	month := model.MonthlyUSD(p.Offer.Pricing, p.USDPerHour, hours)
	if month <= s.BudgetMonthUSD {
		return
	}
	p.Meets, p.Borderline, p.OverBudget = false, model.Message{}, true
	if model.TermMonths(p.Offer.Pricing) > 0 { // as model.Recommend words it
		p.reason("$%.0f/month (%.0f h committed) is above the $%.0f budget", month, max(hours, model.HoursPerMonth), s.BudgetMonthUSD)
	} else {
		p.reason("$%.0f/month is above the $%.0f budget", month, s.BudgetMonthUSD)
	}
}

// ReasonMsg is why p does not serve as one message, "a; b"
// (model.JoinMsgs), each reason translatable: a refusal that quotes it
// reads in the user's language (walk36: export joined the English
// Reasons into a Chinese line). A plan built without messages gives
// its Reasons' text.
func (p *Plan) ReasonMsg() model.Message {
	if len(p.ReasonMsgs) != len(p.Reasons) {
		return model.Msg("%s", strings.Join(p.Reasons, "; "))
	}
	return model.JoinMsgs(p.ReasonMsgs)
}

// reason records why p is not a fit, in English and as a message.
func (p *Plan) reason(key string, args ...any) {
	m := model.Msg(key, args...)
	p.Reasons = append(p.Reasons, m.String())
	p.ReasonMsgs = append(p.ReasonMsgs, m)
}

// ClearingReplicas returns the plan of p's split on p's offer on the
// fewest nodes that meets the targets across its 90% ranges (Meets, not
// Borderline), its replicas filling those nodes as auto replicas fill
// every rented node, when the replicas were left to the planner
// (s.Replicas 0) and p meets them only at the estimate: more replicas
// share the load, so each runs a smaller batch (a faster TPOT, fewer
// sequences for the low end of the KV cache's range to hold). That only
// helps, so the fewest replicas that clear rent those nodes too, and the
// counts tried are a node's worth apart (a replica's nodes when it spans
// several), up to 8 times p's replicas.
//
// The verdict of a count is that of its batch per replica (borderline and
// the latency targets read the batch's speed and the KV cache, which
// replicas do not change), so at a batch of 1 none clears, and for a
// concurrency c the counts that keep p's batch b (⌈c/r⌉ ≥ b) are skipped:
// the first tried holds b − 1 at most. Clearing the range and no longer
// meeting the targets (a budget, serveMaxNodes) both come only with more
// replicas, so the search gallops (gallop: the next node's worth, then
// 2, 4, 8 … nodes on, then halving back), planning a count or two where
// the next nodes clear, as they mostly do, and a few where none do before
// the limits, not each count. ok is false when no count clears the range
// before one stops meeting the targets or fitting.
func ClearingReplicas(a *model.Architecture, s Serving, p *Plan) (q Plan, ok bool) {
	if s.Replicas > 0 || p.Replicas < 1 || p.TP < 1 || p.PP < 1 {
		return Plan{}, false
	}
	s.TP, s.PP = p.TP, p.PP
	step := 1 // replicas per node, as planOne fills them; 1 when a replica spans nodes
	if per := p.TP * p.PP; per <= p.Offer.GPUsPerNode {
		step = p.Offer.GPUsPerNode / per
	}
	b := p.Perf.Batch
	if b <= 1 {
		return Plan{}, false // one sequence a replica is as fast as it gets
	}
	first := (p.Replicas/step + 1) * step // the next node's worth
	if p.Serving.RequestsPerSec == 0 {
		c := max(p.Serving.Concurrency, 1)
		need := (c + b - 2) / (b - 1) // ⌈c/(b−1)⌉: b − 1 sequences a replica at most
		first = max(first, (need+step-1)/step*step)
	}
	n := (8*p.Replicas-first)/step + 1 // counts first, first+step, … up to 8 × p's
	if n < 1 {
		return Plan{}, false
	}
	var at Plan // the plan at the fewest count that clears or stops
	var err error
	k := gallop(n, func(k int) bool {
		s.Replicas = first + (k-1)*step
		q, e := PlanServing(a, s, p.Offer)
		stop := e != nil || !q.Fits || !q.Meets || q.Borderline.IsZero()
		if stop {
			at, err = q, e
		}
		return stop
	})
	if k > n || err != nil || !at.Fits || !at.Meets || !at.Borderline.IsZero() {
		return Plan{}, false
	}
	return at, true
}

// gallop returns the smallest k in [1, n] with f(k) true, or n+1, for f
// false then true as k grows, as sort1 does, trying 1, 2, 4, 8 … first
// and halving back within the last step (unbounded search, Bentley and
// Yao 1976, "An almost optimal algorithm for unbounded searching"): f is
// called at most 1 + 2·⌈log2 min(k, n)⌉ times, once when k is 1, where
// sort1 calls it about log2(n) times whatever k is. The last call that
// returns true is at the k returned.
func gallop(n int, f func(int) bool) int {
	lo, hi := 0, 1 // f(lo) false (0: none tried), hi the next to try
	for hi < n && !f(hi) {
		lo, hi = hi, min(2*hi, n)
	}
	if hi == n && !f(n) {
		return n + 1
	}
	// f(hi) is true; the smallest true is in (lo, hi].
	return lo + sort1(hi-lo-1, func(k int) bool { return f(lo + k) })
}
