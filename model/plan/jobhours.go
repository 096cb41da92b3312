package plan

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gpuplan/gpuplan/model"
)

// JobHoursSlack is how far outside the estimate's 90% range of the job's
// time (model.Estimate.TimeBand, TimeCalibration's out-of-sample band) a
// phase's job_hours may sit before CheckJobHours says so: below half the
// range's fast end or above twice its slow end. The band already holds
// the estimator's error on the calibration cases; the factor 2 past it
// leaves room for what the band does not time and a plan may rightly
// count, such as spot interruptions (decide's expected_hours) and
// checkpoint restarts, so what is flagged is a figure that is not this
// job's on this offer (attack round 10: job_hours = 0.001 for a job of
// about 20.6 h priced it at a cent, unflagged).
const JobHoursSlack = 2.0

// CheckJobHours estimates each job phase on its own offer as the plan
// rents it (sc[i], PhaseScenarioFor): the phase's instance type ×
// instances in its region, on the offer's GPUs (instance GPUs ×
// instances, whatever the answers' gpus say: a phase whose answers name
// another count is noted, and estimated on the offer's; gpus = "auto"
// takes the offer's silently). It returns, in phase order:
//
//   - a note when the answers' GPU count is not the offer's;
//   - a note, and costs[i].Targets and Refused set (the ✗ mark a serving
//     phase that misses its targets gets, PinnedServeNote), when the job
//     does not run on the offer: the matcher's reason on that instance
//     type (model.OnInstance: memory, host RAM, precision or framework
//     support);
//   - a note when job_hours is below TimeBand[0]/JobHoursSlack or above
//     TimeBand[1]×JobHoursSlack, multi-instance offers too (attack round
//     11: 4× gpu_8x_b200_sxm6 with job_hours = 0.001 was not compared).
//
// A serving phase, a phase whose instance type cat lacks (Check says
// so), a job the engine cannot time (no dataset) and a training phase
// given months (priced as a service; CheckDuration says so) are not
// compared; the last two are still checked for fit. costs may be shorter than the plan (nil:
// nothing marked). The plan still prices with its own hours: these are
// notes, as Check's.
func CheckJobHours(cat *model.Catalog, pl *Plan, sc Scenario, costs []PhaseCost) []model.Message {
	var out []model.Message
	for i := range sc {
		if i >= len(pl.Phases) {
			break
		}
		ph, s := &pl.Phases[i], &sc[i]
		if ph.JobHours <= 0 && ph.Months <= 0 || s.Serve != nil || s.Workload.Task == model.TaskInference {
			continue
		}
		job, ok, err := JobOnOffer(cat, ph, s)
		if !ok || err != nil {
			continue
		}
		if !job.Note.IsZero() {
			out = append(out, job.Note)
		}
		if m, ok := job.Workload.TPNotExportable(); ok { // export --phase refuses it (walk49)
			out = append(out, model.Msg("phase %q: %v", ph.Name, m))
		}
		offer := offerName(ph)
		if !job.Why.IsZero() {
			if !jobOwnMiss(job.Kind) {
				continue
			}
			if i < len(costs) {
				costs[i].Targets, costs[i].Borderline = job.Verdict()
				costs[i].Refused = true
			}
			if !memoryShort(job.Kind) {
				out = append(out, model.Msg("phase %q: the job cannot run on its offer %s %s (%v: %v); the plan prices hours it cannot run: pick an offer that runs it (gpuplan recommend --config PLAN --phase NAME)",
					ph.Name, ph.Provider, offer, model.Msg(string(job.Kind)), job.Why))
				continue
			}
			if !job.Fix.IsZero() { // the one change that fits it there (fitOnOffer)
				out = append(out, model.Msg("phase %q: the job does not fit its offer %s %s (%v); the plan prices hours it cannot run: pick an offer that fits (gpuplan recommend --config PLAN --phase NAME); %v",
					ph.Name, ph.Provider, offer, job.Why, job.FixMsg()))
				continue
			}
			out = append(out, model.Msg("phase %q: the job does not fit its offer %s %s (%v); the plan prices hours it cannot run: pick an offer that fits (gpuplan recommend --config PLAN --phase NAME)",
				ph.Name, ph.Provider, offer, job.Why))
			continue
		}
		if v, borderline := job.Verdict(); borderline && i < len(costs) {
			// Fits at the estimate only: marked ~, as estimate --phase
			// says it (walk36b: FSDP over 8 A100 40GB at 36.6 of 37.6
			// GiB was unmarked where estimate said ~ borderline).
			costs[i].Targets, costs[i].Borderline = v, true
		}
		o := &job.Offer
		if ph.JobHours <= 0 || !o.HasJob || o.Estimate == nil { // months: priced as a service (CheckDuration), not timed
			continue
		}
		// A type without a network figure is timed at the network
		// estimate --phase times the job at (model.Catalog.DefaultNetwork):
		// one rule, so job_hours is held to the same hours either way.
		est, lo, hi := o.JobHours, o.Estimate.TimeBand[0], o.Estimate.TimeBand[1]
		if lo <= 0 || hi <= 0 {
			continue
		}
		if ph.JobHours < lo/JobHoursSlack || ph.JobHours > hi*JobHoursSlack {
			out = append(out, model.Msg("phase %q: job_hours = %g, but the estimate on %s %s is %s h (90%% range %s–%s h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)",
				ph.Name, ph.JobHours, ph.Provider, offer, hours3(est), hours3(lo), hours3(hi)))
		}
	}
	return out
}

// PhaseOffer is the instance type phase ph rents in cat and the GPUs it
// rents on it (the type's GPUs × the phase's instances); nil and 0 when
// the phase names no offer or cat lacks its type.
func PhaseOffer(cat *model.Catalog, ph *Phase) (*model.Instance, int) {
	if ph.Provider == "" || ph.Instance == "" {
		return nil, 0
	}
	if c := instanceOf(cat, ph); c != nil && c.GPUCount > 0 {
		return c, c.GPUCount * max(ph.Instances, 1)
	}
	return nil, 0
}

// offerName is the phase's offer as the plan's table names it: the
// instance type, ×instances when more than one.
func offerName(ph *Phase) string {
	if nodes := max(ph.Instances, 1); nodes > 1 {
		return fmt.Sprintf("%s ×%d", ph.Instance, nodes)
	}
	return ph.Instance
}

// OnPhaseOffer is w, the phase's answers resolved, on the n GPUs its offer
// rents (PhaseOffer; OnOfferGPUs), and a note when the answers name
// another count (auto: the answers leave the count to gpuplan, and the
// offer's is taken silently). plan (CheckJobHours) and estimate --phase
// both go through it.
func OnPhaseOffer(ph *Phase, n int, w model.Workload, auto bool) (model.Workload, model.Message) {
	var note model.Message
	if asked := answeredGPUs(ph, &w, auto); asked > 0 && asked != n {
		note = model.Msg("phase %q: the answers say %v, but its offer %s %s has %d; the phase is estimated on the offer's %v (set gpus = \"%d\" in its answers)",
			ph.Name, model.CountMsg(asked, "GPU"), ph.Provider, offerName(ph), n, model.CountMsg(n, "GPU"), n)
	}
	return OnOfferGPUs(w, n), note
}

// OnOfferGPUs is w as a phase's offer runs it: on the offer's n GPUs
// (instance GPUs × instances), whatever the answers' gpus say, with the
// same global batch where it splits (Workload.OnGPUs); one GPU runs
// single, single on several runs DDP (as Workload.Defaults). plan
// (CheckJobHours) and estimate --phase both estimate a phase through it,
// so they print the same memory and time for it. w is defaulted
// (Workload.Defaults) first, as PhaseScenarioFor does.
func OnOfferGPUs(w model.Workload, n int) model.Workload {
	w.Defaults()
	if n < 1 || w.GPUs == n {
		return w
	}
	w, _ = w.OnGPUs(n) // the same global batch where it splits; GPUs = n either way
	switch {
	case n == 1:
		w.Strategy = model.Single
	case w.Strategy == model.Single:
		w.Strategy = model.DDP // as Workload.Defaults on more than one GPU
	}
	return w
}

// answeredGPUs is the GPU count the phase's answers name: gpus = "N" in
// its answers, or a configuration file's count other than the default 1
// (a phase that names a file: whether it said 1 is not told); 0 when
// they name none, or gpus = "auto".
func answeredGPUs(ph *Phase, w *model.Workload, auto bool) int {
	if auto {
		return 0
	}
	if len(ph.Answers) > 0 {
		v, ok := ph.Answers["gpus"]
		if !ok {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0
		}
		return n
	}
	if w.GPUs > 1 {
		return w.GPUs
	}
	return 0
}

// jobOwnMiss reports whether a reason of kind (model.OnInstance) is the
// job's own on the type (memory, host RAM, precision, framework, an
// invalid layout or batch), not a limit of a search.
func jobOwnMiss(kind model.RejectKind) bool {
	switch kind {
	case model.RejectVRAM, model.RejectHostRAM, model.RejectPrecision, model.RejectSoftware, model.RejectInvalid, model.RejectBatch:
		return true
	}
	return false
}

// OnType is w laid out on instances of type in, as the matcher times a
// job on it (model.HostOf, model.InstanceHost) and export writes it: the
// type's GPUs per node, so a job on more GPUs than one instance holds
// spans ceil(GPUs / GPUs per instance) instances; across them the type's
// own network figure (model.NetworkInstance); for a type without a figure
// or a GPU fabric (model.NoFabricNetwork) model.AssumedNetworkGbps
// (model.NetworkNoFabric); for a type with a fabric but no figure, none
// here, so the caller's Catalog.FillNetwork takes the one rule for
// nodes of that size (DefaultNetwork), as matching does; a network w
// gives is kept. estimate --phase times a phase through it, on its
// offer and when --gpus departs from its count on the same type, so it
// times the layout gpuplan plan checks and export writes (walk37:
// --gpus 2 on a phase renting one 1-GPU g6e.xlarge was timed as one
// 2-GPU node; export wrote 2 instances at an assumed 10 Gbps).
func OnType(in *model.Instance, w model.Workload) model.Workload {
	w.GPUsPerNode = max(in.GPUCount, 1)
	given := w.NetworkGbps > 0 && (w.NetworkFrom == "" || w.NetworkFrom == model.NetworkGiven)
	switch {
	case w.GPUs <= w.GPUsPerNode || given:
	case in.NetworkGbps > 0:
		w.NetworkGbps, w.NetworkFrom, w.NetworkTypes = in.NetworkGbps, model.NetworkInstance, 0
	case model.NoFabricNetwork(in): // as the matcher times it: no figure, no fabric
		w.NetworkGbps, w.NetworkFrom, w.NetworkTypes = model.AssumedNetworkGbps, model.NetworkNoFabric, 0
	}
	return w
}

// hours3 is h to three significant figures, never in exponent form
// (walk38: %.3g wrote a range "271–1.16e+03 h").
func hours3(h float64) string {
	switch {
	case h >= 100:
		return strconv.FormatFloat(math.Round(h), 'f', -1, 64)
	case h >= 10:
		return strconv.FormatFloat(h, 'f', 1, 64)
	}
	return strconv.FormatFloat(h, 'g', 3, 64)
}
