package model

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Scenario is what a saving is computed over: the workload and the
// search (pricing mode, GPU types, regions). Evaluate it with the real
// engine, e.g. EvalCheapestJob.
type Scenario struct {
	Workload Workload
	Query    Query
}

// Change is one single change to a base S, named in words ("pay spot
// instead of on-demand").
type Change[S any] struct {
	Name  string
	Msg   Message // Name as a message, for translation; zero when not given
	Kind  string  // "pricing", "gpu", "precision", "adapters", "checkpointing+batch", "region"
	Apply func(S) S
}

// Saving is a change with what it saves: BaseUSD − USD, positive when the
// change is cheaper.
type Saving struct {
	Change    string  `json:"change"`
	Kind      string  `json:"kind"`
	USD       float64 `json:"usd"`        // cost with the change
	SavingUSD float64 `json:"saving_usd"` // base cost − USD
	SavingPct float64 `json:"saving_pct"` // SavingUSD / base cost × 100
	ChangeMsg Message `json:"-"`          // Change as a message, for translation
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
		return 0, nil, Errorf(ErrNoOffers, "the plan as it stands has no cost to compare with")
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
// alone; for training, mixed-precision bf16 instead of fp32/tf32, LoRA and
// QLoRA instead of full fine-tuning (and QLoRA instead of LoRA), and
// activation checkpointing with twice the micro-batch (half the gradient
// accumulation, same global batch when it divides); for inference, int8
// and int4 weights. Changes equal to s are left out.
func ScenarioChanges(s Scenario, gpuKeys, regions []string) []Change[Scenario] {
	var out []Change[Scenario]
	add := func(kind string, m Message, f func(*Scenario)) {
		out = append(out, Change[Scenario]{Name: m.String(), Msg: m, Kind: kind, Apply: func(b Scenario) Scenario {
			b.Query.GPUs = slices.Clone(b.Query.GPUs)
			b.Query.Regions = slices.Clone(b.Query.Regions)
			f(&b)
			return b
		}})
	}
	cur := cmp.Or(s.Query.Pricing, OnDemand)
	for _, p := range PricingModes {
		if p != cur {
			add("pricing", Msg("pay %s instead of %s", Msg(string(p)), Msg(string(cur))), func(b *Scenario) { b.Query.Pricing = p })
		}
	}
	for _, g := range gpuKeys {
		if !(len(s.Query.GPUs) == 1 && s.Query.GPUs[0] == g) {
			add("gpu", Msg("run on %s", g), func(b *Scenario) { b.Query.GPUs = []string{g} })
		}
	}
	for _, r := range regions {
		if !(len(s.Query.Regions) == 1 && s.Query.Regions[0] == r) {
			add("region", Msg("rent in %s", r), func(b *Scenario) { b.Query.Regions = []string{r} })
		}
	}
	w := s.Workload
	w.Defaults() // checkpointing is on by default for QLoRA
	if w.Task.Training() {
		if w.Precision == FP32 || w.Precision == TF32 {
			add("precision", Msg("train in amp-bf16"), func(b *Scenario) { b.Workload.Precision = AMPBF16 })
		}
		switch w.Task {
		case TaskTrain, TaskFinetune:
			if w.Model.HasShape() {
				add("adapters", Msg("fine-tune LoRA adapters"), func(b *Scenario) { b.Workload.Task = TaskLoRA })
				add("adapters", Msg("fine-tune QLoRA adapters"), func(b *Scenario) { b.Workload.Task = TaskQLoRA })
			}
		case TaskLoRA:
			add("adapters", Msg("use QLoRA (4-bit base)"), func(b *Scenario) { b.Workload.Task = TaskQLoRA })
		}
		if !w.Ckpt() {
			add("checkpointing+batch", Msg("activation checkpointing with twice the micro-batch"), func(b *Scenario) {
				b.Workload.Checkpointing = Bool(true)
				b.Workload.MicroBatch = max(b.Workload.MicroBatch, 1) * 2
				if b.Workload.GradAccum >= 2 && b.Workload.GradAccum%2 == 0 {
					b.Workload.GradAccum /= 2 // same global batch
				}
			})
		}
	} else {
		for _, p := range []Precision{INT8, INT4} {
			if weightRank(p) < weightRank(w.Precision) {
				add("precision", Msg("serve %s weights", p), func(b *Scenario) { b.Workload.Precision = p })
			}
		}
	}
	return out
}

// EvalCheapestJob returns an eval for RankSavings that runs Recommend on
// cat and prices the best offer's whole job (JobUSD), or, without a
// dataset, a month of the cheapest offer (MonthlyUSD). On a 1- or 3-year
// commitment the whole term is owed, so the cost is at least USDPerHour ×
// 730 × term months: a commitment never looks cheap for a short job.
// Spot is priced without interruptions (use SpotExpectedCost for those).
// ok is false when nothing runs the scenario.
//
// The eval reuses estimates from one call to the next while the workload
// stays the same (most changes only change the query), so it must not be
// called concurrently.
func EvalCheapestJob(cat *Catalog) func(Scenario) (float64, bool) {
	return newCheapestJob(cat, nil).eval
}

// cheapestJob is EvalCheapestJob's eval on a CheapestFinder.
type cheapestJob struct{ *CheapestFinder }

// newCheapestJob starts an eval from the estimates of a Recommend (nil:
// none), which it reads and never writes.
func newCheapestJob(cat *Catalog, from *sharedEstimates) *cheapestJob {
	return &cheapestJob{newCheapestFinder(cat, from)}
}

func (c *cheapestJob) eval(s Scenario) (float64, bool) {
	o, ok := c.Offer(s.Workload, s.Query)
	if !ok {
		return 0, false
	}
	usd := o.MonthlyUSD
	if o.HasJob {
		usd = o.JobUSD
	}
	return max(usd, o.USDPerHour*HoursPerMonth*float64(TermMonths(o.Pricing))), true
}
