package advice

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Scenario is what a saving is computed over: the workload and the
// search (pricing mode, GPU types, regions). Evaluate it with the real
// engine, e.g. EvalCheapestJob.
type Scenario struct {
	Workload model.Workload
	Query    model.Query
}

// Change is one single change to a base S, named in words ("pay spot
// instead of on-demand").
type Change[S any] struct {
	Name  string
	Msg   model.Message // Name as a message, for translation; zero when not given
	Kind  string        // "pricing", "gpu", "precision", "adapters", "checkpointing+batch", "region"
	Apply func(S) S
}

// Saving is a change with what it saves: BaseUSD − USD, positive when the
// change is cheaper.
type Saving struct {
	Change    string        `json:"change"`
	Kind      string        `json:"kind"`
	USD       float64       `json:"usd"`        // cost with the change
	SavingUSD float64       `json:"saving_usd"` // base cost − USD
	SavingPct float64       `json:"saving_pct"` // SavingUSD / base cost × 100
	ChangeMsg model.Message `json:"-"`          // Change as a message, for translation
	// Offer is the offer the change is priced on, the cheapest that runs
	// the job with it (Savings; nil from a plan's savings): a spot saving
	// may be another provider's, the current one having no spot price.
	// OtherOffer says it is not the offer the cost now is priced on
	// (another provider, region, GPU type or GPU count), so a view names
	// it.
	Offer      *SavingOffer `json:"offer,omitempty"`
	OtherOffer bool         `json:"other_offer,omitempty"`
	// OOMChance is set when that offer is borderline (model.Offer.Risky):
	// its chance of running out of memory, to the nearest 0.05
	// (model.RoundChance). It ranks after every offer that fits, so it is
	// the cheapest only when nothing runs the change across its whole
	// memory range; the saving says so rather than being dropped. A plan's
	// savings (model/plan) set it too, the highest among its phases'
	// offers, though they name no Offer.
	OOMChance *float64 `json:"oom_chance,omitempty"`
	// Rank is, for a change that only narrows the search (a GPU type or a
	// region: Kind "gpu" or "region"), the 1-based place in the ranking
	// (Recommendation.Offers) of the offer it is priced on. Narrowing
	// finds no offer the ranking lacks, so such a saving is an offer
	// already ranked below the best though its job costs less (it rents
	// more GPUs than the job needs, or may run out of memory): a view
	// says so rather than advising a filter the user may have set
	// (walk49: "rent in DE" under --country de named row 2). 0 otherwise.
	// Of several narrowing changes priced on one offer only the first,
	// the largest saving, is kept.
	Rank int `json:"rank,omitempty"`
}

// Narrows reports whether the saving's change only narrows the search to
// a GPU type or a region (Kind "gpu" or "region").
func (s *Saving) Narrows() bool { return s.Kind == "gpu" || s.Kind == "region" }

// SavingOffer names the offer a saving is priced on.
type SavingOffer struct {
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	GPU          string `json:"gpu"`
	GPUs         int    `json:"gpu_count"`
	Strategy     string `json:"strategy"`
	Pricing      string `json:"pricing"`
	oomChance    float64
	risky        bool
}

// savingOffer is the part of o a saving names.
func savingOffer(o *model.Offer) *SavingOffer {
	return &SavingOffer{Provider: o.Instance.Provider, InstanceType: o.Instance.Type, Region: o.Region, GPU: o.GPU.Key, GPUs: o.Rented(),
		Strategy: string(o.Strategy), Pricing: string(o.Pricing), oomChance: model.RoundChance(o.OOMChance), risky: o.Risky()}
}

// same reports whether o and b are one offer as a reader sees it: the
// provider, region, instance type and GPUs rented.
func (o *SavingOffer) same(b *SavingOffer) bool {
	return o.Provider == b.Provider && o.Region == b.Region && o.InstanceType == b.InstanceType && o.GPU == b.GPU && o.GPUs == b.GPUs
}

// RankSavings evaluates each change applied alone to base with eval (the
// caller's engine: a job's or a whole plan's cost, ok false when the
// change makes it impossible) and returns those that run, largest saving
// first (ties by name). Changes that cost more are kept, ranked last, so
// a view can say "on-demand would cost $X more". The error is returned
// only when the base itself cannot be evaluated.
func RankSavings[S any](base S, eval func(S) (usd float64, ok bool), changes []Change[S]) (baseUSD float64, out []Saving, err error) {
	baseUSD, ok := eval(base)
	if !ok || math.IsNaN(baseUSD) || math.IsInf(baseUSD, 0) {
		return 0, nil, model.Errorf(model.ErrNoOffers, "the plan as it stands has no cost to compare with")
	}
	for _, c := range changes {
		usd, ok := eval(c.Apply(base))
		if !ok || math.IsNaN(usd) || math.IsInf(usd, 0) {
			continue
		}
		s := Saving{Change: c.Name, ChangeMsg: c.Msg, Kind: c.Kind, USD: usd, SavingUSD: baseUSD - usd}
		if baseUSD > 0 {
			s.SavingPct = s.SavingUSD / baseUSD * 100
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b Saving) int {
		if c := cmp.Compare(b.SavingUSD, a.SavingUSD); c != 0 {
			return c
		}
		return strings.Compare(a.Change, b.Change)
	})
	return baseUSD, out, nil
}

// ScenarioChanges lists the single changes worth trying on s: every other
// pricing mode; each GPU type of gpuKeys alone; every region of regions
// alone; for training, changes that keep the job (its task, model and
// global batch): mixed-precision bf16 instead of fp32/tf32, 8-bit AdamW
// states, a smaller micro-batch with the accumulation that keeps the
// global batch (half, and one sample), activation checkpointing (with
// twice the micro-batch when the accumulation halves to pay for it), and
// FSDP sharding instead of DDP on a fixed GPU count; for inference of a
// causal LM, int8 and int4 weights (quantizableWeights). LoRA or QLoRA instead of the task asked are not
// offered: they train another model. Changes equal to s are left out.
func ScenarioChanges(s Scenario, gpuKeys, regions []string) []Change[Scenario] {
	var out []Change[Scenario]
	add := func(kind string, m model.Message, f func(*Scenario)) {
		out = append(out, Change[Scenario]{Name: m.String(), Msg: m, Kind: kind, Apply: func(b Scenario) Scenario {
			b.Query.GPUs = slices.Clone(b.Query.GPUs)
			b.Query.Regions = slices.Clone(b.Query.Regions)
			f(&b)
			return b
		}})
	}
	cur := cmp.Or(s.Query.Pricing, model.OnDemand)
	for _, p := range model.PricingModes {
		if p != cur {
			add("pricing", model.Msg("pay %s instead of %s", model.Msg(string(p)), model.Msg(string(cur))), func(b *Scenario) { b.Query.Pricing = p })
		}
	}
	for _, g := range gpuKeys {
		if !(len(s.Query.GPUs) == 1 && s.Query.GPUs[0] == g) {
			add("gpu", model.Msg("run on %s", g), func(b *Scenario) { b.Query.GPUs = []string{g} })
		}
	}
	for _, r := range regions {
		if model.RegionUnstated(r) {
			continue // "rent in earth" names no place (model.RegionUnstated)
		}
		if !(len(s.Query.Regions) == 1 && s.Query.Regions[0] == r) {
			add("region", model.Msg("rent in %s", r), func(b *Scenario) { b.Query.Regions = []string{r} })
		}
	}
	w := s.Workload
	w.Defaults() // checkpointing is on by default for QLoRA
	if !w.Task.Training() {
		for _, p := range []model.Precision{model.INT8, model.INT4} {
			if weightRank(p) < weightRank(w.Precision) && quantizableWeights(&w) {
				add("precision", model.Msg("serve %s weights", p), func(b *Scenario) { b.Workload.Precision = p })
			}
		}
		return out
	}
	if w.Precision == model.FP32 || w.Precision == model.TF32 {
		// Suggested, not asked for: amp-bf16 adapts to amp-fp16 on a GPU
		// without bf16 (Query.PrecisionAsked), as mixed precision does.
		add("precision", model.Msg("train in amp-bf16"), func(b *Scenario) { b.Workload.Precision, b.Query.PrecisionAsked = model.AMPBF16, false })
	}
	if w.Optimizer == model.Adam || w.Optimizer == model.AdamW || w.Optimizer == model.AdamWFused {
		add("precision", model.Msg("8-bit AdamW states (bitsandbytes)"), func(b *Scenario) { b.Workload.Optimizer = model.AdamW8bit })
	}
	for _, micro := range smallerMicroBatches(w.MicroBatch) {
		accum := w.GradAccum * w.MicroBatch / micro
		add("batch", model.Msg("micro-batch %d with gradient accumulation %d (same global batch)", micro, accum), func(b *Scenario) {
			b.Workload.MicroBatch, b.Workload.GradAccum = micro, accum
		})
	}
	if !w.Ckpt() {
		add("checkpointing", model.Msg("activation checkpointing (same batch; about 33%% more compute)"), func(b *Scenario) { b.Workload.Checkpointing = model.Bool(true) })
		if w.GradAccum >= 2 && w.GradAccum%2 == 0 {
			add("checkpointing+batch", model.Msg("activation checkpointing with twice the micro-batch and half the accumulation (same global batch)"), func(b *Scenario) {
				b.Workload.Checkpointing = model.Bool(true)
				b.Workload.MicroBatch, b.Workload.GradAccum = b.Workload.MicroBatch*2, b.Workload.GradAccum/2
			})
		}
	}
	if !s.Query.AutoGPUs && w.GPUs > 1 && (w.Strategy == model.DDP || w.Strategy == model.Single) && w.Framework == model.PyTorch {
		// On auto, and on a fixed count with no strategy named
		// (Query.KeepStrategy false), the matcher already tries FSDP
		// where DDP does not fit; this puts it on every offer.
		add("sharding", model.Msg("shard parameters, gradients and optimizer states with FSDP (as ZeRO-3)"), func(b *Scenario) { b.Workload.Strategy = model.FSDP })
	}
	return out
}

// smallerMicroBatches are the micro-batches below m that the savings try
// with more accumulation: half of m and 1, each dividing m so the
// accumulation that keeps the global batch is whole.
func smallerMicroBatches(m int) []int {
	var out []int
	if m >= 4 && m%2 == 0 {
		out = append(out, m/2)
	}
	if m > 1 {
		out = append(out, 1)
	}
	return out
}

// EvalCheapestJob returns an eval for RankSavings that runs Recommend on
// cat and prices the best offer's whole job (JobUSD), or, without a
// dataset, a month of the cheapest offer (MonthlyUSD: the hours used a
// month, or on a commitment the 730 h it bills). On a 1- or 3-year
// commitment a job owes the whole term, so its cost is at least
// USDPerHour × 730 × term months: a commitment never looks cheap for a
// short job. Without a job every change is weighed by the month, a
// commitment's too (walk48: the whole 1-year term, $3,888, against a
// month on demand, $29, read "saves $3,859 (99%)").
// Spot is priced without interruptions, at the bare rate (Savings takes a
// SpotJobCost for those).
// ok is false when nothing runs the scenario.
//
// The eval reuses estimates from one call to the next while the workload
// stays the same (most changes only change the query), so it must not be
// called concurrently.
func EvalCheapestJob(cat *model.Catalog) func(Scenario) (float64, bool) {
	return cheapestJob{model.NewCheapestFinder(cat)}.eval
}

// cheapestJob is EvalCheapestJob's eval on a CheapestFinder.
type cheapestJob struct{ *model.CheapestFinder }

func (c cheapestJob) eval(s Scenario) (float64, bool) {
	o, ok := c.Offer(s.Workload, s.Query)
	if !ok {
		return 0, false
	}
	return jobCost(o), true
}

// jobCost is what EvalCheapestJob prices o at.
func jobCost(o *model.Offer) float64 {
	if !o.HasJob {
		return o.MonthlyUSD
	}
	return max(o.JobUSD, o.USDPerHour*model.HoursPerMonth*float64(model.TermMonths(o.Pricing)))
}

// SpotJobCost prices the whole job of a spot offer with its interruptions
// counted: the expected cost of a run with periodic checkpoints and
// restarts, as the spot estimate beside each offer prices it
// (decide.ForOffer's SpotEstimate.ExpectedUSD, the first-order model of
// Young 1974 in decide.SpotExpectedCost). ok is false when the job would
// not finish on spot (decide.ErrSpotNeverFinishes) or cannot be priced;
// an offer with no spot estimate (no job, no rate) is for the caller to
// price at its bare rate (o.JobUSD). Savings calls it only for offers of
// spot pricing with a job.
type SpotJobCost func(o *model.Offer) (usd float64, ok bool)

// offerCost is what Savings prices o at: jobCost, but a spot offer's job
// at spot's expected cost (SpotJobCost) when spot is given, so that "pay
// spot" saves what the spot estimate says, not the bare spot rate × the
// uninterrupted hours (a 70B fine-tune on spot was shown saving 42% by
// the rate while its spot estimate, checkpoint writes counted, cost more
// than on-demand). ok is false when spot says the job would not finish.
func offerCost(o *model.Offer, spot SpotJobCost) (float64, bool) {
	if spot == nil || o.Pricing != model.Spot || !o.HasJob {
		return jobCost(o), true
	}
	usd, ok := spot(o)
	if !ok || math.IsNaN(usd) || math.IsInf(usd, 0) {
		return 0, false
	}
	return usd, true
}

// Savings ranks the single changes to (w, q) by what they save on the job
// of the first offer under q's ranking (q.Sort: by default the cheapest
// job, EvalCheapestJob's; under --sort price the cheapest hour, so the
// base is the "best:" line's offer), trying the GPU types and regions
// of rec's offers (the ones that already run the workload: at most
// maxEach of each, in ranked order), so the list costs a bounded number
// of Recommend calls. rec is Recommend(w, cat, q)'s result: the ranking
// starts from its estimates (any other rec is only slower).
//
// spot, when not nil, prices the job of a spot offer (the base's under
// spot pricing, and "pay spot"'s) at its expected cost with interruptions
// (SpotJobCost), as the spot estimate beside the offers does, so both say
// the same dollars for one offer and spot is no saving when its expected
// cost is not below the base's; the offer priced is still the engine's
// cheapest spot offer (by the bare rate). nil prices spot at the bare rate
// (EvalCheapestJob's).
func Savings(cat *model.Catalog, w model.Workload, q model.Query, rec *model.Recommendation, maxEach int, spot SpotJobCost) (baseUSD float64, out []Saving, err error) {
	var gpus, regions []string
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if len(gpus) < maxEach && !slices.Contains(gpus, o.GPU.Key) {
			gpus = append(gpus, o.GPU.Key)
		}
		if len(regions) < maxEach && !slices.Contains(regions, o.Region) {
			regions = append(regions, o.Region)
		}
	}
	// Changes act on the answers after defaults: "twice the micro-batch"
	// must double the batch that runs, whether or not it was typed.
	w.Defaults()
	s := Scenario{Workload: w, Query: q}
	find := cheapestJob{rec.CheapestFinder(cat)}
	// The base and the changes of GPU type or region rank a subset of
	// rec's offers: read off them (Recommendation.CheapestWithin) instead
	// of ranking the catalog again.
	// Each change's offer is kept by its name (the change being priced is
	// the one whose Apply ran last; "" the base) to name it beside the
	// saving: copied, as a CheapestFinder's offer is overwritten.
	priced := map[string]*SavingOffer{}
	pricing := ""
	eval := func(sc Scenario) (float64, bool) {
		// Each scenario's offer is the first under the ranking the user
		// chose (q.Sort), so the base is the "best:" line's offer and
		// its job cost (docs/cli.md: "best:" and the savings' "now" are
		// one figure; under --sort price the cheapest job was $0.09
		// beside a best: of $0.12).
		o, ok, derived := rec.FirstWithin(cat, sc.Workload, q, sc.Query)
		if !derived {
			o, ok = find.OfferSorted(sc.Workload, sc.Query)
		}
		if !ok {
			return 0, false
		}
		usd, ok := offerCost(o, spot)
		if !ok {
			return 0, false
		}
		priced[pricing] = savingOffer(o)
		return usd, true
	}
	changes := ScenarioChanges(s, gpus, regions)
	for i := range changes {
		apply, name := changes[i].Apply, changes[i].Name
		changes[i].Apply = func(b Scenario) Scenario { pricing = name; return apply(b) }
	}
	baseUSD, out, err = RankSavings(s, eval, changes)
	if err != nil {
		return 0, nil, model.Msg("savings: %v", err)
	}
	base := priced[""]
	ranked := map[int]bool{} // the ranks a narrowing saving already names
	kept := out[:0]
	for i := range out {
		o := priced[out[i].Change]
		if o != nil {
			out[i].Offer = o
			out[i].OtherOffer = base != nil && !o.same(base)
			if o.risky {
				chance := o.oomChance
				out[i].OOMChance = &chance
			}
			if out[i].Narrows() && out[i].OtherOffer {
				if r := rankOf(rec, o); r > 0 {
					if ranked[r] {
						continue // "run on a100-80gb" after "rent in DE", both row 2
					}
					ranked[r] = true
					out[i].Rank = r
				}
			}
		}
		kept = append(kept, out[i])
	}
	return baseUSD, kept, nil
}

// rankOf is the 1-based place of o among rec's offers, 0 when it is not
// there (the same provider, region, type, GPUs and pricing).
func rankOf(rec *model.Recommendation, o *SavingOffer) int {
	for i := range rec.Offers {
		if r := &rec.Offers[i]; string(r.Pricing) == o.Pricing && savingOffer(r).same(o) {
			return i + 1
		}
	}
	return 0
}
