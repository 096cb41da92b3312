package model

import (
	"slices"
)

// Defaults of the spot assumptions, used when the user gives none. Both
// are assumptions about the user's setup and are labelled so in every view.
const (
	// DefaultCheckpointWriteBytesPerSecond is 125 MiB/s, the baseline
	// throughput of an AWS gp3 EBS volume (EBS VolumeSpecification:
	// "Throughput … a number from 125 - 1000 and is valid only for gp3
	// volumes"): the slowest disk a cloud instance usually writes to.
	DefaultCheckpointWriteBytesPerSecond = 125 * MiB
	// DefaultRestartHours is 10 minutes from an interruption to training
	// again (new instance, image, loading the checkpoint): an assumption,
	// no published figure.
	DefaultRestartHours = 10.0 / 60
)

// SpotAssumptions are the user's (or default) figures SpotExpectedCost
// needs beyond the catalog.
type SpotAssumptions struct {
	CheckpointWriteBytesPerSecond float64
	RestartHours                  float64
	// Defaulted is true for each figure the user did not give: a view
	// labels those "assumption".
	WriteDefaulted, RestartDefaulted bool
}

// CheckpointBytesPerInstance is what one instance writes for a training
// checkpoint: the model states a resume needs, weights and optimizer
// states (gradients are not saved; Rajbhandari et al., 2020, "ZeRO", §3.1
// for the states), per GPU as e shards them. Replicated strategies
// (single, DDP) write one copy from rank 0; sharded ones (ZeRO, FSDP)
// write every GPU's shard, each instance its own GPUs' in parallel. For
// LoRA the frozen base is counted too, so δ is an upper bound there.
// States ZeRO-Offload keeps in host RAM (HostOffload) are saved all the
// same; that figure also holds the fp32 gradient partition of the CPU
// step, so with offload δ is an upper bound too.
func CheckpointBytesPerInstance(e *Estimate, gpusPerInstance int) float64 {
	perGPU := e.States.Weights + e.States.OptimizerStates + e.States.HostOffload
	switch e.Workload.Strategy {
	case Single, DDP, "":
		return perGPU
	}
	return perGPU * float64(max(gpusPerInstance, 1))
}

// OfferDecision is what a view shows beside one offer beyond its price:
// the job on spot with interruptions counted, and the break-even of each
// commitment term.
type OfferDecision struct {
	// Spot is nil when the offer has no job (no dataset, or serving), no
	// spot price, or SpotErr says why the estimate failed.
	Spot    *SpotEstimate
	SpotErr string
	// CheckpointWriteHours is δ, the time to write one checkpoint, used
	// for Spot.
	CheckpointWriteHours float64
	// Commitment has one entry per term with a price; nil when there is
	// none.
	Commitment []BreakEven
	Prices     CommitmentPrices // the whole deployment's prices in each mode
}

// DecideOffer computes o's decision: CommitmentPricesFor × o.Instances, then
// SpotExpectedCost with rate and a, and CommitmentBreakEven for
// usedHoursPerMonth (0: HoursPerMonth) against on-demand and the spot
// job's expected cost per useful hour when there is one.
func DecideOffer(cat *Catalog, o *Offer, rate InterruptionRate, a SpotAssumptions, usedHoursPerMonth float64) OfferDecision {
	var d OfferDecision
	p, ok := cat.CommitmentPricesFor(o.Instance, o.Region)
	if !ok {
		return d
	}
	n := float64(max(o.Instances, 1))
	p.OnDemand, p.Spot, p.Reserved1y, p.Reserved3y = p.OnDemand*n, p.Spot*n, p.Reserved1y*n, p.Reserved3y*n
	if o.Pricing == Spot && o.USDPerHour > 0 {
		p.Spot = o.USDPerHour // the price the offer was ranked with
	}
	d.Prices = p
	if o.HasJob && o.Estimate != nil && o.Estimate.Workload.Task.Training() && p.Spot > 0 && o.JobHours > 0 {
		in := SpotInput{JobHours: o.JobHours, SpotUSDPerHour: p.Spot, OnDemandUSDPerHour: p.OnDemand,
			Nodes: o.Instances, Rate: rate, RestartHours: a.RestartHours}
		delta, err := CheckpointWriteHours(CheckpointBytesPerInstance(o.Estimate, o.Instance.GPUCount), a.CheckpointWriteBytesPerSecond)
		if err == nil {
			in.CheckpointWriteHours, d.CheckpointWriteHours = delta, delta
			var e SpotEstimate
			if e, err = SpotExpectedCost(in); err == nil {
				d.Spot = &e
			}
		}
		if err != nil {
			d.SpotErr = err.Error()
		}
	}
	if usedHoursPerMonth == 0 {
		usedHoursPerMonth = HoursPerMonth
	}
	cp := p
	if d.Spot != nil && d.Spot.ExpectedUSD > 0 {
		cp.Spot = d.Spot.ExpectedUSD / o.JobHours // interruptions counted
	}
	if be, err := CommitmentBreakEven(cp, min(usedHoursPerMonth, HoursPerMonth)); err == nil && len(be) > 0 {
		d.Commitment = be
	}
	return d
}

// Savings ranks the single changes to (w, q) by what they save on the
// cheapest offer's job (EvalCheapestJob), trying the GPU types and regions
// of rec's offers (the ones that already run the workload: at most
// maxEach of each, in ranked order), so the list costs a bounded number
// of Recommend calls. rec is Recommend(w, cat, q)'s result: the ranking
// starts from its estimates (any other rec is only slower).
func Savings(cat *Catalog, w Workload, q Query, rec *Recommendation, maxEach int) (baseUSD float64, out []Saving, err error) {
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
	baseUSD, out, err = RankSavings(s, newCheapestJob(cat, rec.estimates).eval, ScenarioChanges(s, gpus, regions))
	if err != nil {
		return 0, nil, Msg("savings: %v", err)
	}
	return baseUSD, out, nil
}
