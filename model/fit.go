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
// rejects it, estimate --gpu marks it "✗ cannot run" and export refuses
// it; the zero Message when g can, natively or by fallback:
//
//   - GPU.RunPrecision finds no fallback: pure bf16 training without
//     bf16 hardware, whose fp16 would need loss scaling the recipe does
//     not have.
//   - Training of a model whose activations overflow fp16
//     (FP16Overflows) would run them in fp16 on g: the amp-fp16 fallback
//     of a GPU without bf16, or fp16/amp-fp16 asked for. The run gives
//     NaN, so no switch accepts it (not allow_precision_fallback, not
//     fp16 asked; unlike inference, where transformers keeps T5's wo
//     layers in fp32 and a forward pass has no gradients to blow up):
//     Gemma 3 4B's LoRA gives NaN losses from the first steps on a V100,
//     Linear4bit, MLP and RMSNorm input gradients NaN (unslothai/unsloth
//     issues 2040 and 2044); "Gemma 3 is broken with fp16", its fp16
//     fix left unmerged for the scores it cost (huggingface/transformers
//     issue 36822, pull 36832); T5's overflow "happens during both
//     training and inference" (huggingface/transformers issue 9295) and
//     its 16-mixed fine-tune on a V100 logged NaN losses
//     (declare-lab/flan-alpaca issue 19). fp32 trains them anywhere,
//     amp-bf16 on a GPU with bf16.
func CannotRun(w *Workload, g *GPU) Message {
	run, ok := g.RunPrecision(w.Precision, w.Task.Training())
	switch {
	case !ok:
		return Msg("%s has no %s (needs compute capability 8.0)", g.Name, w.Precision)
	case !w.Task.Training() || run != FP16 && run != AMPFP16 || !FP16Overflows(&w.Model):
		return Message{}
	case run != w.Precision: // the fallback of a GPU without bf16
		return Msg("%s has no %s, and %s models overflow in its fallback %s (inf activations, then NaN): precision fp32 trains them there",
			g.Name, w.Precision, w.Model.ModelType, run)
	}
	if bf16, _ := g.Supports(BF16); bf16 {
		return Msg("%s models overflow in %s (inf activations, then NaN): precision amp-bf16 trains them on %s", w.Model.ModelType, run, g.Name)
	}
	return Msg("%s models overflow in %s (inf activations, then NaN), and %s has no bf16: precision fp32 trains them there", w.Model.ModelType, run, g.Name)
}

// Refused says why g does not run w as asked, the one rule recommend's
// matcher and estimate --gpu share: CannotRun's reasons, then
// PrecisionKept's (a precision asked for, fp8, or one kept from its
// fallback, that g runs only by fallback) unless allowFallback
// (Query.AllowPrecisionFallback, --allow-precision-fallback). asked is
// Query.PrecisionAsked: --precision typed. The zero Message when g runs
// it.
func Refused(w *Workload, g *GPU, asked, allowFallback bool) Message {
	if why := CannotRun(w, g); !why.IsZero() {
		return why
	}
	if why := PrecisionKept(w, g, asked); !allowFallback {
		return why
	}
	return Message{}
}

// CannotRunHint is what runs w on g where CannotRun refuses it and its
// reason does not say it: pure bf16 training on a GPU without bf16 runs
// as amp-fp16 (GradScaler's loss scaling), or, for a model that
// overflows fp16 (FP16Overflows), as fp32. The zero Message otherwise.
func CannotRunHint(w *Workload, g *GPU) Message {
	if _, ok := g.RunPrecision(w.Precision, w.Task.Training()); ok {
		return Message{}
	}
	if FP16Overflows(&w.Model) {
		return Msg("pure bf16 training has no fp16 fallback (fp16 needs loss scaling), and %s models overflow in fp16: --precision fp32 runs there", w.Model.ModelType)
	}
	return Msg("pure bf16 training has no fp16 fallback (fp16 needs loss scaling): --precision amp-fp16 runs there")
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
