package plan

import (
	"slices"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
)

// Job is a job phase on its pinned offer as rented: what gpuplan plan
// checks (CheckJobHours), estimate --phase estimates and export --phase
// writes, so the three name the same offer, strategy and verdict
// (walk36b: plan priced a 70B QLoRA phase on 8 A100 40GB as FSDP, where
// estimate --phase said DDP does not fit; export --phase wrote 2 nodes
// for a phase renting one 8-GPU instance whose answers said 16 GPUs).
type Job struct {
	// Instance is the phase's instance type in the catalog; Nodes the
	// instances it rents, GPUs the GPUs on them (PhaseOffer).
	Instance    *model.Instance
	Nodes, GPUs int
	// Workload is the phase's answers on the offer's GPUs (OnPhaseOffer),
	// with the strategy the matcher takes there (model.OnInstance: DDP,
	// else FSDP over the same GPUs where DDP does not fit or fits only at
	// the estimate and FSDP across its range, as recommend and estimate
	// do, unless the answers name one); OnPhaseOffer's (DDP on several
	// GPUs) when nothing fits.
	Workload model.Workload
	// Query is the search as the offer is rented: its GPUs fixed, as many
	// instances as the phase rents, the strategy kept once resolved, and
	// none of the ranking's limits (budget, deadline, price, GPU cap).
	Query model.Query
	// Offer is the job on the type (model.OnInstance), priced at the
	// phase's usd_per_hour; zero when Why is set.
	Offer model.Offer
	// Kind and Why say why the job does not run on the type (memory,
	// host RAM, precision, framework); zero when it does.
	Kind model.RejectKind
	Why  model.Message
	// Note is set when the answers name another GPU count than the
	// offer's (OnPhaseOffer), or the configuration file the phase names
	// is for one GPU and the offer has more.
	Note model.Message
	// Fix is, when the job is short of GPU memory on the offer, the one
	// change that makes it fit there (fitOnOffer); FixTotal its per-GPU
	// bytes, FixChance its chance of running out of memory when it fits
	// at the estimate only (0: across its 90% range), FixCombined set when
	// Fix is a combination of savers (advice.Advice.Combined), which the
	// words do not call one change. Zero when none does.
	Fix                 model.Message
	FixTotal, FixChance float64
	FixCombined         bool
}

// JobOnOffer is phase ph, whose scenario is s (PhaseScenarioFor: its
// answers, inline or from its config file, resolved), on its pinned
// offer as rented. ok is false when the phase names no offer or cat
// lacks its instance type; err is the workload's own error
// (Workload.Validate).
func JobOnOffer(cat *model.Catalog, ph *Phase, s *PhaseScenario) (job Job, ok bool, err error) {
	in, n := PhaseOffer(cat, ph)
	if in == nil {
		return Job{}, false, nil
	}
	nodes := max(ph.Instances, 1)
	w, note := OnPhaseOffer(ph, n, s.Workload, s.Query.AutoGPUs)
	q := s.Query
	// The offer as it is rented: fixed GPUs, as many instances as it
	// has; the search's limits (budget, deadline, price, GPU cap) are
	// the ranking's, not the plan's.
	q.AutoGPUs, q.MaxGPUs, q.AllowMultiNode = false, 0, nodes > 1
	q.MaxNodes = max(q.MaxNodes, nodes, 1)
	q.MaxUSDPerHour, q.BudgetMonthUSD, q.BudgetJobUSD, q.DeadlineHours, q.Sort = 0, 0, 0, 0, ""
	job = Job{Instance: in, Nodes: nodes, GPUs: n, Workload: w, Query: q, Note: note}
	// The job on the type itself (model.OnInstance), not looked up among
	// Recommend's offers: those keep one type per provider, region and
	// GPU, so a dearer host of a GPU already listed (aws g5.2xlarge
	// beside g5.xlarge) was in neither its offers nor its near misses,
	// and its job_hours went unchecked (walk35).
	o, kind, why, err := model.OnInstance(w, cat, in, ph.Region, ph.USDPerHour/float64(nodes), q)
	if err != nil {
		return Job{}, false, err
	}
	job.Kind, job.Why = kind, why
	if kind == model.RejectVRAM {
		job.Fix, job.FixTotal, job.FixChance, job.FixCombined = fitOnOffer(cat, in, ph, w, q)
	}
	if why.IsZero() {
		job.Offer = o
		if o.Estimate != nil && o.Estimate.Workload.Strategy != "" {
			job.Workload.Strategy = o.Estimate.Workload.Strategy
		}
		job.Query.KeepStrategy = true // resolved: DDP, or FSDP where DDP does not fit or is borderline
	}
	if job.Note.IsZero() && ph.Config != "" && len(ph.Answers) == 0 && s.Workload.GPUs <= 1 && n > 1 {
		// A configuration file's one GPU (every exported file says gpus
		// = 1, strategy = "single" for a one-GPU pick) is the offer's n:
		// said once, as the answers' other count is (walk37: it was
		// replaced silently).
		job.Note = model.Msg("phase %q: its configuration file %s is for 1 GPU (strategy %s), but its offer %s %s has %d; the phase is estimated on the offer's %v as %s",
			ph.Name, ph.Config, s.Workload.Strategy, ph.Provider, offerName(ph), n, model.CountMsg(n, "GPU"), job.Workload.Strategy)
	}
	if m := batchOnOffer(ph, &s.Workload, &job.Workload); !m.IsZero() {
		job.Note = model.JoinMsgs(slices.DeleteFunc([]model.Message{job.Note, m}, model.Message.IsZero))
	}
	return job, true, nil
}

// maxFitTries bounds the changes fitOnOffer runs through the matcher:
// FitAdviceOn lists those that fit first, so the first few hold the answer.
const maxFitTries = 4

// fitOnOffer is the one change that makes job w, short of GPU memory on
// instance type in (the phase's offer), fit there, its per-GPU bytes and,
// when it fits at the estimate only, its chance of running out of memory
// (0 when it fits across its 90% range): among estimate's fit advice
// (advice.FitAdviceOn, those that fit first: none the offer's GPU cannot
// run, such as pure bf16 on a V100) on the offer's usable memory,
// the changes that keep the offer's GPUs (not a sharding over more of
// them), run on the type by the matcher (model.OnInstance); the first
// that fits across the range, else the first borderline one, as
// recommend's near misses name one (report.NearMissFit). Zero when none
// fits (walk: a LoRA phase at batch 2 × 4096 on one L40S needed 83.8 GiB
// and the plan only said to pick another offer; activation checkpointing
// runs it there at 35.3 GiB, borderline).
func fitOnOffer(cat *model.Catalog, in *model.Instance, ph *Phase, w model.Workload, q model.Query) (fix model.Message, total, chance float64, combined bool) {
	g, err := cat.GPU(in.GPU)
	if err != nil {
		return model.Message{}, 0, 0, false
	}
	tries := 0
	for _, a := range advice.FitAdviceOn(w, g, model.UsableBytes(g), cat.LargestNode(g)) {
		if !a.Fits || a.Workload.GPUs != w.GPUs {
			continue
		}
		if tries++; tries > maxFitTries {
			break
		}
		o, _, why, err := model.OnInstance(a.Workload, cat, in, ph.Region, ph.USDPerHour/float64(max(ph.Instances, 1)), q)
		switch {
		case err != nil || !why.IsZero():
		case o.Verdict != model.VerdictBorderline:
			return a.Msg, a.Total, 0, a.Combined
		case fix.IsZero():
			fix, total, chance, combined = a.Msg, a.Total, max(model.RoundChance(o.OOMChance), 0.05), a.Combined
		}
	}
	return fix, total, chance, combined
}

// batchOnOffer says how the answers' batch (a, defaulted) runs on the
// offer's GPUs (w, JobOnOffer's job), so plan, estimate --phase and
// export --phase say it alike, export in the file's notes (walk38: batch
// 2 × accumulation 8 on one GPU was written --gradient_accumulation_steps
// 1 on eight, unsaid; a global batch of 4 ran as 32 on eight GPUs with
// only estimate saying so): a global batch the GPUs cannot share, which
// runs larger (Workload.GlobalBatchChange), else the micro-batch and
// accumulation recomputed to keep it. Zero when nothing changed, or when
// the adapter recipe's note says it already (Workload.BatchNote).
func batchOnOffer(ph *Phase, a, w *model.Workload) model.Message {
	if !w.Task.Training() {
		return model.Message{}
	}
	if m, changed := w.GlobalBatchChange(); changed {
		return model.Msg("phase %q: %v", ph.Name, m)
	}
	if !w.BatchNote().IsZero() || a.GPUs == w.GPUs || a.MicroBatch == w.MicroBatch && a.GradAccum == w.GradAccum {
		return model.Message{}
	}
	return model.Msg("phase %q: the answers' micro-batch %d × gradient accumulation %d on %v is micro-batch %d × accumulation %d on the offer's %v, the same global batch of %d",
		ph.Name, max(a.MicroBatch, 1), max(a.GradAccum, 1), model.CountMsg(max(a.GPUs, 1), "GPU"), max(w.MicroBatch, 1), max(w.GradAccum, 1), model.CountMsg(w.GPUs, "GPU"), w.GlobalBatch())
}

// Verdict is the job's mark on its pinned offer, as gpuplan plan shows
// it (PhaseCost.Targets) and export --phase repeats it: "does not fit its
// pinned offer" with the matcher's reason when memory is short (GPU
// memory, host RAM), "cannot run on its pinned offer" with the kind and
// reason otherwise (precision, framework, layout, batch: "does not fit"
// read as memory for a T4 without fp8), or, when it fits at the estimate
// only, "borderline on its pinned offer" with the chance of running out
// of memory (model.Offer.Verdict, OOMChance: the 90% range past the
// usable memory, as estimate marks it ~); zero when it fits across the
// range.
func (j *Job) Verdict() (msg model.Message, borderline bool) {
	switch {
	case !j.Why.IsZero() && !memoryShort(j.Kind):
		return model.Msg("cannot run on its pinned offer (%v): %v", model.Msg(string(j.Kind)), j.Why), false
	case !j.Why.IsZero() && !j.Fix.IsZero():
		return model.Msg("does not fit its pinned offer: %v; %v", j.Why, j.FixMsg()), false
	case !j.Why.IsZero():
		return model.Msg("does not fit its pinned offer: %v", j.Why), false
	case j.Offer.Verdict == model.VerdictBorderline && j.Offer.Estimate != nil:
		o := &j.Offer
		return model.Msg("borderline on its pinned offer: the 90%% range reaches %.2f GiB per GPU, past the %.2f GiB usable; about %.0f%% chance of running out of memory",
			o.Estimate.ResidentBand()[1]/model.GiB, o.UsableBytes/model.GiB, model.RoundChance(o.OOMChance)*100), true
	}
	return model.Message{}, false
}

// FixMsg is the change that fits the job on its offer (Fix), in the
// words of the plan's row and note: "one change fits it there, at 35.3
// GiB per GPU (borderline: about 5% chance of running out of memory):
// turn on activation checkpointing (…)", or for a combination "these
// changes together fit it there, at 23.4 GiB per GPU: combine …"; zero
// when there is none.
func (j *Job) FixMsg() model.Message {
	switch {
	case j.Fix.IsZero():
		return model.Message{}
	case j.FixCombined && j.FixChance > 0:
		return model.Msg("these changes together fit it there, at %.1f GiB per GPU (borderline: about %.0f%% chance of running out of memory): %v", j.FixTotal/model.GiB, j.FixChance*100, j.Fix)
	case j.FixCombined:
		return model.Msg("these changes together fit it there, at %.1f GiB per GPU: %v", j.FixTotal/model.GiB, j.Fix)
	case j.FixChance > 0:
		return model.Msg("one change fits it there, at %.1f GiB per GPU (borderline: about %.0f%% chance of running out of memory): %v", j.FixTotal/model.GiB, j.FixChance*100, j.Fix)
	}
	return model.Msg("one change fits it there, at %.1f GiB per GPU: %v", j.FixTotal/model.GiB, j.Fix)
}

// memoryShort reports whether a reason of kind (model.OnInstance) is
// memory the offer lacks (GPU memory, host RAM), which "does not fit"
// says; an unknown kind is taken as memory, the common case.
func memoryShort(kind model.RejectKind) bool {
	return kind == model.RejectVRAM || kind == model.RejectHostRAM || kind == ""
}
