package model

// FitMargin is the share of GPU memory kept free when deciding fit: it
// absorbs what the estimate does not model (temporary buffers of fused
// optimizer steps, NCCL growth, allocator rounding). A job estimated at
// 95% of memory is already at the edge in practice. It is a planning
// margin, not where a job fails: the verdicts (VerdictFor) and the fit
// advice weigh the estimate against UsableBytes, while the chance of
// running out of memory (Estimate.OOMChance) is taken at OOMBytes.
const FitMargin = 0.05

// UsableBytes returns the memory per GPU a workload may plan to use:
// the driver-visible memory (GPU.MemoryBytes: UsableMemoryMiB as
// nvidia-smi reports it when the catalog has it, else MemoryGiB) less
// FitMargin, in bytes. The estimate it is compared with is the nvidia-smi
// total (Estimate.Memory.Total), CUDA context included.
func UsableBytes(g *GPU) float64 { return g.MemoryBytes() * (1 - FitMargin) }

// OOMBytes returns the memory per GPU a job can take before CUDA reports
// out of memory, in bytes: all the driver-visible memory (GPU.MemoryBytes,
// nvidia-smi's total), with no FitMargin. Nothing is taken off for the
// CUDA context: the estimate it is compared with (Estimate.Memory.Total,
// what nvidia-smi shows the process using) already counts it
// (Overhead.CUDAContext), as it counts NCCL's buffers.
func OOMBytes(g *GPU) float64 { return g.MemoryBytes() }

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

// FitVerdict is fit against the memory band.
type FitVerdict string

// Fit verdicts, as reports print them.
const (
	VerdictFits       FitVerdict = "fits"
	VerdictBorderline FitVerdict = "borderline"
	VerdictNoFit      FitVerdict = "does not fit"
	// VerdictCannotRun: the GPU cannot run the precision at all
	// (advice.Fit.Refused), whatever the memory.
	VerdictCannotRun FitVerdict = "cannot run"
)

// MemoryVerdict is the fit verdict of a job needing need bytes per GPU
// (the point estimate) with the 90% band: does not fit when the point
// estimate is past usable, whatever the band's bottom, as recommend's
// near misses are; otherwise VerdictFor. One rule for estimate, recommend
// and the configurator: "borderline" always means "fits at the estimate,
// but its band reaches past the usable memory".
func MemoryVerdict(need float64, band [2]float64, usable float64) FitVerdict {
	if need > usable {
		return VerdictNoFit
	}
	return VerdictFor(band, usable)
}

// VerdictFor weighs a memory band (low, high bytes) against usable bytes:
// fits when even its top fits (at most a 5% chance of needing more),
// borderline when it straddles them, does not fit when even its bottom
// does not. The usable bytes keep FitMargin free, so a borderline job may
// still run: Estimate.OOMChance at OOMBytes says how likely running out
// of memory is.
func VerdictFor(band [2]float64, usable float64) FitVerdict {
	switch {
	case band[1] <= usable:
		return VerdictFits
	case band[0] <= usable:
		return VerdictBorderline
	}
	return VerdictNoFit
}
