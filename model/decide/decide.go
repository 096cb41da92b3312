package decide

import (
	"errors"

	"github.com/gpuplan/gpuplan/model"
)

// Defaults of the spot assumptions, used when the user gives none. Both
// are assumptions about the user's setup and are labelled so in every view.
const (
	// DefaultCheckpointWriteBytesPerSecond is 125 MiB/s, the baseline
	// throughput of an AWS gp3 EBS volume (EBS VolumeSpecification:
	// "Throughput … a number from 125 - 1000 and is valid only for gp3
	// volumes"): the slowest disk a cloud instance usually writes to.
	DefaultCheckpointWriteBytesPerSecond = 125 * model.MiB
	// DefaultRestartHours is 10 minutes from an interruption to training
	// again (new instance, image, loading the checkpoint): an assumption,
	// no published figure.
	DefaultRestartHours = 10.0 / 60
	// MaxCheckpointWriteGBps bounds --checkpoint-write-gbps: 10,000 GB/s
	// per node is above any disk or network a node writes to (a DGX H100's
	// eight 400 Gb/s NICs carry 400 GB/s); more is a typo, and 1e300 timed
	// a checkpoint at zero and a job at infinity.
	MaxCheckpointWriteGBps = 10000
	// MinCheckpointWriteGBps bounds it below: 1 MB/s, under 1% of the
	// gp3 baseline the default is (125 MiB/s), a policy bound; slower is
	// a unit slip, and 1e-300 timed one checkpoint at 10^300 hours.
	MinCheckpointWriteGBps = 0.001
	// MaxRestartMinutes bounds --restart-minutes: a week (7 × 24 × 60);
	// a longer restart is no spot job.
	MaxRestartMinutes = 7 * 24 * 60
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
// write every GPU's shard, each instance its own GPUs' in parallel.
// LoRA and QLoRA save the adapter, not the frozen base: Trainer's
// checkpoint calls save_model, and a PeftModel's save_pretrained writes
// "only the trainable weights" (peft src/peft/peft_model.py,
// PeftModel.save_pretrained: get_peft_model_state_dict), and optimizer.pt
// holds the states of the parameters the optimizer was given, the
// trainable ones; the adapter's weights take the bytes its gradients take
// (model's recipeBytes: weight and gradient bytes per trainable parameter
// are equal in every recipe), sharded alike (walk45b: an 8B LoRA's
// checkpoint was counted as its 16 GB base, so a 9.4 h spot job
// checkpointed only at its end). States ZeRO-Offload keeps in host RAM
// (HostOffload) are saved all the same; that figure also holds the fp32
// gradient partition of the CPU step, so with offload δ is an upper bound.
func CheckpointBytesPerInstance(e *model.Estimate, gpusPerInstance int) float64 {
	perGPU := e.States.Weights + e.States.OptimizerStates + e.States.HostOffload
	if e.Workload.Task.Adapters() {
		perGPU = e.States.Gradients + e.States.OptimizerStates + e.States.HostOffload
	}
	switch e.Workload.Strategy {
	case model.Single, model.DDP, "":
		return perGPU
	}
	return perGPU * float64(max(gpusPerInstance, 1))
}

// Decision is what a view shows beside one offer beyond its price:
// the job on spot with interruptions counted, and the break-even of each
// commitment term.
type Decision struct {
	// Spot is nil when the offer has no job (no dataset, or serving), no
	// spot price, or SpotErr says why the estimate failed.
	Spot    *SpotEstimate
	SpotErr string
	// SpotNeverFinishes is set when SpotErr wraps ErrSpotNeverFinishes:
	// interruptions come faster than the job progresses between them.
	SpotNeverFinishes bool
	// CheckpointWriteHours is δ, the time to write one checkpoint, used
	// for Spot.
	CheckpointWriteHours float64
	// Commitment has one entry per term with a price; nil when there is
	// none.
	Commitment []BreakEven
	Prices     CommitmentPrices // the whole deployment's prices in each mode
}

// ForOffer computes o's decision: CommitmentPricesFor × o.Instances, then
// SpotExpectedCost with rate and a, and CommitmentBreakEven for
// usedHoursPerMonth (0: HoursPerMonth) against on-demand and the spot
// job's expected cost per useful hour when there is one.
func ForOffer(cat *model.Catalog, o *model.Offer, rate InterruptionRate, a SpotAssumptions, usedHoursPerMonth float64) Decision {
	var d Decision
	p, ok := CommitmentPricesFor(cat, o.Instance, o.Region)
	if !ok {
		return d
	}
	n := float64(max(o.Instances, 1))
	p.OnDemand, p.Spot, p.Reserved1y, p.Reserved3y = p.OnDemand*n, p.Spot*n, p.Reserved1y*n, p.Reserved3y*n
	if o.Pricing == model.Spot && o.USDPerHour > 0 {
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
			d.SpotErr, d.SpotNeverFinishes = err.Error(), errors.Is(err, ErrSpotNeverFinishes)
		}
	}
	if usedHoursPerMonth == 0 {
		usedHoursPerMonth = model.HoursPerMonth
	}
	cp := p
	if d.Spot != nil && d.Spot.ExpectedUSD > 0 {
		cp.Spot = d.Spot.ExpectedUSD / o.JobHours // interruptions counted
	}
	if be, err := CommitmentBreakEven(cp, min(usedHoursPerMonth, model.HoursPerMonth)); err == nil && len(be) > 0 {
		d.Commitment = be
	}
	return d
}
