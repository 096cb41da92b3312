package cli

import (
	"cmp"
	"slices"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/ui/report"
)

// maxFitHints is how many changes "What would make it fit" lists.
const maxFitHints = 4

// wouldFit returns, when rec ranks no offer, the single changes that make
// some offer rank, best first (the cheapest job, else hour, of the ranking
// each gives), at most maxFitHints. The changes are those estimate --gpu
// advises (advice.FitAdvice) for the GPU of the nearest near miss, or the
// largest GPU when no near miss was short of memory, and dropping each
// search limit that removed offers. Each is ranked by model.Recommend as
// the command would with it: computed, never a canned answer.
func wouldFit(w model.Workload, cat *model.Catalog, q model.Query, rec *model.Recommendation) []report.FitHint {
	if len(rec.Offers) > 0 {
		return nil
	}
	type change struct {
		msg model.Message
		w   model.Workload
		q   model.Query
	}
	var changes []change
	if capBytes, sized := fitTarget(cat, rec, w, q.AutoGPUs); capBytes > 0 {
		for _, a := range advice.FitAdvice(sized, capBytes) {
			v := a.Workload
			if v.GPUs == sized.GPUs && v.Strategy == sized.Strategy { // not a sharding change: the command's own GPUs
				v.GPUs, v.Strategy = w.GPUs, w.Strategy
			}
			changes = append(changes, change{a.Msg, v, q})
		}
	}
	for _, r := range rec.Reasons {
		c := change{w: w, q: q}
		switch r.Kind {
		case model.RejectDeadline:
			c.msg, c.q.DeadlineHours = model.Msg("without --deadline-hours"), 0
		case model.RejectGPUCount:
			c.msg, c.q.AllowMultiNode = model.Msg("with --allow-multi-node"), true
		case model.RejectGPULimit:
			c.msg, c.q.MaxGPUs = model.Msg("without --max-gpus"), 0
		case model.RejectPrecision:
			c.msg, c.q.AllowPrecisionFallback = model.Msg("with --allow-precision-fallback"), true
		case model.RejectPrice:
			c.msg, c.q.MaxUSDPerHour = model.Msg("without --max-price-hour"), 0
		case model.RejectBudget:
			c.msg, c.q.BudgetMonthUSD = model.Msg("without --budget-month"), 0
		case model.RejectJobBudget:
			c.msg, c.q.BudgetJobUSD = model.Msg("without --budget-job"), 0
		default:
			continue
		}
		changes = append(changes, c)
	}
	var hints []report.FitHint
	for _, c := range changes {
		r, err := model.Recommend(c.w, cat, c.q)
		if err != nil || len(r.Offers) == 0 {
			continue
		}
		hints = append(hints, report.FitHint{Change: c.msg, Offers: len(r.Offers), Best: r.Offers[0]})
	}
	slices.SortStableFunc(hints, func(a, b report.FitHint) int { return cmp.Compare(hintCost(&a.Best), hintCost(&b.Best)) })
	return hints[:min(len(hints), maxFitHints)]
}

// hintCost is what a hint's best offer costs: the job when timed, else an
// hour (all hints of one workload are timed alike).
func hintCost(o *model.Offer) float64 {
	if o.HasJob {
		return o.JobUSD
	}
	return o.USDPerHour
}

// fitTarget is what fit advice aims at: the usable VRAM of the nearest
// near miss short of memory, and w on the GPUs that near miss was tried
// on when recommend picks the GPU count (sharded as the matcher shards:
// FSDP for training without a strategy), so advice weighs what the
// ranking weighs; else the largest GPU offered and w as it is.
func fitTarget(cat *model.Catalog, rec *model.Recommendation, w model.Workload, autoGPUs bool) (float64, model.Workload) {
	for _, x := range rec.Rejected {
		if x.Kind != model.RejectVRAM {
			continue
		}
		g, err := cat.GPU(x.Instance.GPU)
		if err != nil {
			break
		}
		if n := max(x.Instances, 1) * x.Instance.GPUCount; autoGPUs && n > max(w.GPUs, 1) {
			w.GPUs = n
			if w.Task.Training() && (w.Strategy == "" || w.Strategy == model.Single || w.Strategy == model.DDP) {
				w.Strategy = model.FSDP
			}
		}
		return model.UsableBytes(g), w
	}
	best := 0.0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() {
			continue
		}
		if g, err := cat.GPU(in.GPU); err == nil {
			best = max(best, model.UsableBytes(g))
		}
	}
	return best, w
}
