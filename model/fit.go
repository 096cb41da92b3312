package model

// FitMargin is the share of GPU memory kept free when deciding fit: it
// absorbs what the estimate does not model (temporary buffers of fused
// optimizer steps, NCCL growth, allocator rounding). A job estimated at
// 95% of memory is already at the edge in practice.
const FitMargin = 0.05

// UsableBytes returns the memory per GPU a workload may plan to use:
// the driver-visible memory (GPU.MemoryBytes: UsableMemoryMiB as
// nvidia-smi reports it when the catalog has it, else MemoryGiB) less
// FitMargin, in bytes. The estimate it is compared with is the nvidia-smi
// total (Estimate.Memory.Total), CUDA context included.
func UsableBytes(g *GPU) float64 { return g.MemoryBytes() * (1 - FitMargin) }

// Fit is how an estimate fits one GPU type.
type Fit struct {
	GPU         *GPU
	UsableBytes float64 // per GPU, after FitMargin
	Fits        bool    // the per-GPU total is within UsableBytes
	// Verdict weighs the estimate's 90% band (Estimate.MemoryBand)
	// against UsableBytes: VerdictFits when even its top fits,
	// VerdictBorderline when the band straddles it, VerdictNoFit when
	// even its bottom does not.
	Verdict FitVerdict
	// OOMChance is, for a borderline verdict, the probability (0.05–0.95)
	// that the job needs more than UsableBytes (Estimate.OOMChance); 0
	// otherwise.
	OOMChance     float64
	MaxMicroBatch int      // largest micro-batch (sequences for inference) that fits; 0 if none
	Advice        []Advice // when it does not fit: changes that help, those that fit first
	// Tips are the single changes that save the most on this GPU type,
	// fitting or not (Tips; at most TipCount), quantified.
	Tips []Tip
	// Refused says why g cannot run the workload's precision at all
	// (CannotRun: pure bf16 training below compute capability 8.0 has no
	// fallback); Fits is then false, whatever the memory.
	Refused Message
}

// CannotRun says why g cannot run w's precision at all, as Recommend
// rejects it (GPU.RunPrecision finds no fallback: pure bf16 training
// without bf16 hardware, whose fp16 would need loss scaling the recipe
// does not have); the zero Message when g can, natively or by fallback.
func CannotRun(w *Workload, g *GPU) Message {
	if _, ok := g.RunPrecision(w.Precision, w.Task.Training()); !ok {
		return Msg("%s has no %s (needs compute capability 8.0)", g.Name, w.Precision)
	}
	return Message{}
}

// TipCount is how many tips CheckFit keeps: the few that matter most.
const TipCount = 3

// CheckFit reports whether e (computed from its Workload) fits g, the
// largest batch that would, and fit advice when it does not.
func CheckFit(e *Estimate, g *GPU) Fit {
	f := Fit{GPU: g, UsableBytes: UsableBytes(g), Refused: CannotRun(&e.Workload, g)}
	f.Fits = e.ResidentNeed() <= f.UsableBytes && f.Refused.IsZero()
	f.Verdict = VerdictFor(e.ResidentBand(), f.UsableBytes)
	if !f.Refused.IsZero() {
		f.Verdict = VerdictCannotRun
	}
	if f.Verdict == VerdictBorderline {
		f.OOMChance = e.OOMChance(f.UsableBytes)
	}
	f.MaxMicroBatch, _ = MaxMicroBatch(e.Workload, f.UsableBytes)
	if !f.Fits && f.Refused.IsZero() {
		f.Advice = FitAdvice(e.Workload, f.UsableBytes)
	}
	f.Tips = Tips(e.Workload, g, TipCount)
	return f
}

// FitVerdict is fit against the memory band.
type FitVerdict string

// Fit verdicts, as reports print them.
const (
	VerdictFits       FitVerdict = "fits"
	VerdictBorderline FitVerdict = "borderline"
	VerdictNoFit      FitVerdict = "does not fit"
	// VerdictCannotRun: the GPU cannot run the precision at all
	// (Fit.Refused), whatever the memory.
	VerdictCannotRun FitVerdict = "cannot run"
)

// VerdictFor weighs a memory band (low, high bytes) against usable bytes:
// fits when even its top fits (at most a 5% chance of needing more),
// borderline when it straddles them (Estimate.OOMChance says how likely
// running out is), does not fit when even its bottom does not.
func VerdictFor(band [2]float64, usable float64) FitVerdict {
	switch {
	case band[1] <= usable:
		return VerdictFits
	case band[0] <= usable:
		return VerdictBorderline
	}
	return VerdictNoFit
}
