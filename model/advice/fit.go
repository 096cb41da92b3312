package advice

import (
	"cmp"

	"github.com/gpuplan/gpuplan/model"
)

// Fit is how an estimate fits one GPU type.
type Fit struct {
	GPU         *model.GPU
	UsableBytes float64 // per GPU, after FitMargin
	Fits        bool    // the per-GPU total is within UsableBytes
	// Verdict is model.MemoryVerdict: VerdictFits when even the 90%
	// band's top fits UsableBytes, VerdictBorderline when the estimate
	// fits but the band's top does not, VerdictNoFit when the estimate
	// itself does not.
	Verdict model.FitVerdict
	// OOMChance is, for a borderline verdict (and a does-not-fit one whose
	// band's bottom is within OOMBytes), the probability (0.05–0.95)
	// that the job needs more than OOMBytes, the memory the driver
	// exposes (Estimate.OOMChance): the chance of running out of memory,
	// not of eating into FitMargin; 0 otherwise.
	OOMChance float64
	OOMBytes  float64 // per GPU, what the driver exposes (model.OOMBytes)
	// MaxMicroBatch is the largest micro-batch (sequences for inference)
	// that fits across its 90% band, as the ✓ verdict means it
	// (MaxMicroBatch); 0 if none.
	MaxMicroBatch int
	// MaxBorderlineBatch is the largest that fits at the estimate alone
	// (borderline past MaxMicroBatch: MaxBorderlineBatch), so a report
	// names such a batch as borderline; 0 if none.
	MaxBorderlineBatch int
	Advice             []Advice // when it does not fit: changes that help, those that fit first
	// Tips are the single changes that save the most on this GPU type,
	// fitting or not (Tips; at most TipCount), quantified.
	Tips []Tip
	// Refused says why g cannot run the workload's precision at all
	// (CannotRun: pure bf16 training below compute capability 8.0 has no
	// fallback), or, from CheckFitAsked, runs it only by a fallback not
	// allowed (model.Refused: fp8 on an A100); Fits is then false,
	// whatever the memory.
	Refused model.Message
	// RefusedHint is what runs there when Refused's reason does not say
	// it (model.CannotRunHint; the fallback's switch), zero otherwise.
	RefusedHint model.Message
}

// TipCount is how many tips CheckFit keeps: the few that matter most.
const TipCount = 3

// CheckFit reports whether e (computed from its Workload) fits g, the
// largest batch that would, and fit advice when it does not. A precision
// g runs only by a fallback is accepted (CheckFitAsked with the fallback
// allowed); only what g cannot run at all is refused (model.CannotRun).
func CheckFit(e *model.Estimate, g *model.GPU) Fit { return CheckFitAsked(e, g, false, true) }

// CheckFitAsked is CheckFit weighing the precision as recommend weighs
// it (model.Refused): a precision asked for (asked: --precision typed),
// or fp8, that g runs only by a fallback is refused unless allowFallback
// (--allow-precision-fallback), as recommend makes such a GPU a near
// miss, so estimate --precision fp8 --gpu a100 says "✗ cannot run" where
// it planned amp-bf16 without a word.
func CheckFitAsked(e *model.Estimate, g *model.GPU, asked, allowFallback bool) Fit {
	return CheckFitAskedNode(e, g, asked, allowFallback, cmp.Or(e.Workload.GPUsPerNode, model.DefaultGPUsPerNode))
}

// CheckFitAskedNode is CheckFitAsked whose advice knows the largest node
// of g the catalog rents (model.Catalog.LargestNode; FitAdviceNode), so
// it shards over up to that many GPUs (8 L4 in an aws g6.48xlarge).
func CheckFitAskedNode(e *model.Estimate, g *model.GPU, asked, allowFallback bool, node int) Fit {
	w := &e.Workload
	f := Fit{GPU: g, UsableBytes: model.UsableBytes(g), OOMBytes: model.OOMBytes(g), Refused: model.Refused(w, g, asked, allowFallback)}
	switch {
	case f.Refused.IsZero():
	case !model.CannotRun(w, g).IsZero():
		f.RefusedHint = model.CannotRunHint(w, g)
	default:
		run, _ := g.RunPrecision(w.Precision, w.Task.Training())
		f.RefusedHint = model.Msg("--allow-precision-fallback estimates it in %s, the precision %s runs in place of %s", run, g.Name, w.Precision)
	}
	f.Fits = e.ResidentNeed() <= f.UsableBytes && f.Refused.IsZero()
	f.Verdict = model.MemoryVerdict(e.ResidentNeed(), e.ResidentBand(), f.UsableBytes)
	if !f.Refused.IsZero() {
		f.Verdict = model.VerdictCannotRun
	}
	// A job past the usable memory may still run in what the driver
	// exposes: its chance is stated with the verdict when the band's
	// bottom is within OOMBytes.
	if f.Verdict == model.VerdictBorderline || f.Verdict == model.VerdictNoFit && e.ResidentBand()[0] <= f.OOMBytes {
		f.OOMChance = e.OOMChance(f.OOMBytes)
	}
	f.MaxMicroBatch, _ = MaxMicroBatch(e.Workload, f.UsableBytes)
	f.MaxBorderlineBatch, _ = MaxBorderlineBatch(e.Workload, f.UsableBytes)
	if !f.Fits && f.Refused.IsZero() {
		f.Advice = FitAdviceOn(e.Workload, g, f.UsableBytes, node)
	}
	f.Tips = Tips(e.Workload, g, TipCount)
	return f
}

// RunnableOn is the advice of as whose changed job g can run
// (model.CannotRun): no pure bf16 on a GPU without bf16, no fp16 for a
// model that overflows it (a new user's walk: "✓ … pure bf16" advised on
// a V100, where estimate then said "✗ cannot run").
func RunnableOn(as []Advice, g *model.GPU) []Advice {
	out := as[:0:0]
	for _, a := range as {
		if model.CannotRun(&a.Workload, g).IsZero() {
			out = append(out, a)
		}
	}
	return out
}
