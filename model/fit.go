package model

// FitMargin is the share of GPU memory kept free when deciding fit: it
// absorbs what the estimate does not model (temporary buffers of fused
// optimizer steps, NCCL growth, allocator rounding). A job estimated at
// 95% of memory is already at the edge in practice.
const FitMargin = 0.05

// UsableBytes returns the memory per GPU a workload may plan to use:
// the driver-visible memory less FitMargin, in bytes.
func UsableBytes(g *GPU) float64 { return g.MemoryBytes() * (1 - FitMargin) }

// Fit is how an estimate fits one GPU type.
type Fit struct {
	GPU           *GPU
	UsableBytes   float64  // per GPU, after FitMargin
	Fits          bool     // the per-GPU total is within UsableBytes
	MaxMicroBatch int      // largest micro-batch (sequences for inference) that fits; 0 if none
	Advice        []Advice // when it does not fit: changes that help, those that fit first
}

// CheckFit reports whether e (computed from its Workload) fits g, the
// largest batch that would, and fit advice when it does not.
func CheckFit(e *Estimate, g *GPU) Fit {
	f := Fit{GPU: g, UsableBytes: UsableBytes(g)}
	f.Fits = e.Memory.Total() <= f.UsableBytes
	f.MaxMicroBatch, _ = MaxMicroBatch(e.Workload, f.UsableBytes)
	if !f.Fits {
		f.Advice = FitAdvice(e.Workload, f.UsableBytes)
	}
	return f
}
