package report

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// Estimator v2 outputs (issue 13): the recipe, the peak phase, the two
// PyTorch totals beside nvidia-smi's, the per-phase memory and the 90%
// bands. JSON field names are stable: add, never rename.

// BandConfidence is the share of out-of-sample calibration errors a band
// is built to hold (model.Band: split-conformal over the
// leave-one-source-out residuals of data/testdata/calibration).
const BandConfidence = 0.9

// BandJSON is a 90% range of an estimate, in the estimate's unit.
type BandJSON struct {
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence"` // BandConfidence
	Cases      int     `json:"cases"`      // calibration cases behind the band; 0 for the fallback band
	Sources    int     `json:"sources"`    // distinct sources among them
	Group      string  `json:"group"`      // calibration group, e.g. "memory/nvidia-smi/decoder" (model.BandGroups)
	// UncalibratedVendor is, for a time on a GPU of a vendor no
	// calibration source ran on, that vendor ("amd"): the band is
	// widened for it (model.Band.UncalibratedVendor); left out otherwise.
	UncalibratedVendor string `json:"uncalibrated_vendor,omitempty"`
	// UncalibratedMoE is true for the time of training a
	// mixture-of-experts model, which no calibration source did: the band
	// is widened for it (model.Band.UncalibratedMoE); left out otherwise.
	UncalibratedMoE bool `json:"uncalibrated_moe,omitempty"`
}

// PhaseJSON is the memory live at one phase of a step.
type PhaseJSON struct {
	Phase string        `json:"phase"` // forward, backward, optimizer or inference
	Bytes BreakdownJSON `json:"bytes"`
}

// TimeJSON is the job time with its 90% band, in hours.
type TimeJSON struct {
	Hours float64  `json:"hours"`
	Band  BandJSON `json:"band"`
}

// NewBreakdownJSON rounds m to integer bytes, every line of the
// estimator its own: the model states of the ZeRO paper (weights,
// gradients, optimizer_states) apart from the gathered parameters, the
// autocast cast cache, the engine's communication buffers and the step
// temporaries. The total is the sum of the rounded parts, so scripts can
// check it.
func NewBreakdownJSON(m model.Memory) BreakdownJSON {
	p := BreakdownJSON{Weights: i64(m.Weights), Gradients: i64(m.Gradients), OptimizerStates: i64(m.OptimizerStates),
		Gathered: i64(m.Gathered), CastCache: i64(m.CastCache), Buffers: i64(m.Buffers), Activations: i64(m.Activations),
		Temporaries: i64(m.Temporaries), KVCache: i64(m.KVCache), Overhead: i64(m.Overhead)}
	p.Total = p.Weights + p.Gradients + p.OptimizerStates + p.Gathered + p.CastCache + p.Buffers + p.Activations +
		p.Temporaries + p.KVCache + p.Overhead
	return p
}

func newBandJSON(lo, hi float64, b model.Band) BandJSON {
	return BandJSON{Low: lo, High: hi, Confidence: BandConfidence, Cases: b.Cases, Sources: b.Sources, Group: b.Group, UncalibratedVendor: b.UncalibratedVendor, UncalibratedMoE: b.UncalibratedMoE}
}

// addEstimatorV2 fills out's estimator v2 fields from e and f.
func addEstimatorV2(out *EstimateJSON, e *model.Estimate, f *advice.Fit) {
	if e.Recipe != model.RecipeAuto {
		out.Recipe = string(e.Recipe)
	}
	m := &out.Memory
	m.PerGPUBytes = NewBreakdownJSON(e.Memory)
	m.Allocator = "torch"
	if fw := e.Workload.Framework; fw == model.TensorFlow || fw == model.JAX {
		m.Allocator = string(fw)
	}
	m.TorchAllocatedBytes, m.TorchReservedBytes = i64(e.TorchAllocated), i64(e.TorchReserved)
	m.PeakPhase = string(e.PeakPhase)
	m.Phases = []PhaseJSON{}
	for _, p := range e.PhaseList() {
		m.Phases = append(m.Phases, PhaseJSON{Phase: string(p.Phase), Bytes: NewBreakdownJSON(p.Memory)})
	}
	b := newBandJSON(e.MemoryBand[0], e.MemoryBand[1], e.MemoryCalibration())
	b.Low, b.High = float64(i64(b.Low)), float64(i64(b.High))
	m.Band = &b
	if e.TorchAllocated > 0 {
		ab := newBandJSON(e.AllocatedBand[0], e.AllocatedBand[1], e.AllocatedCalibration())
		ab.Low, ab.High = float64(i64(ab.Low)), float64(i64(ab.High))
		rb := newBandJSON(e.ReservedBand[0], e.ReservedBand[1], e.ReservedCalibration())
		rb.Low, rb.High = float64(i64(rb.Low)), float64(i64(rb.High))
		m.TorchAllocatedBand, m.TorchReservedBand = &ab, &rb
	}
	if e.HasTime {
		out.Time = &TimeJSON{Hours: e.Hours, Band: newBandJSON(e.TimeBand[0], e.TimeBand[1], e.TimeCalibration())}
	}
	if f != nil && out.GPU != nil {
		out.GPU.Verdict = string(f.Verdict)
		if f.OOMChance > 0 {
			out.GPU.OOMChance = ptr(model.RoundChance(f.OOMChance))
		}
		if !f.Refused.IsZero() {
			out.GPU.Refused = f.Refused.String()
		}
	}
}

// NeedsLine is the one-line memory need with its band:
// "needs 15.20 GiB, 14.40–16.30 GiB at 90%".
func NeedsLine(e *model.Estimate) string { return NeedsLineIn(nil, e) }

// NeedsLineIn is NeedsLine in p's language.
func NeedsLineIn(p *i18n.Printer, e *model.Estimate) string {
	b := e.ResidentBand() // MemoryBand unless paged optimizer states may page out
	return p.Sprintf("needs %s, %.2f–%s at %.0f%%", GiB(e.ResidentNeed()), b[0]/model.GiB,
		GiB(b[1]), BandConfidence*100)
}

// TotalsLine names the two allocator totals beside nvidia-smi's and the
// phase that peaks, each figure with its 90% range from the calibration
// cases that read it: "torch allocated 13.10 GiB (12.10–14.50 GiB),
// reserved 14.20 GiB (12.90–16.00 GiB) at 90%; peak in backward". With
// TensorFlow or JAX the figures are that framework's allocator's, so the
// line names it ("TensorFlow allocator peak in use …, pool …") rather
// than torch's calls.
func TotalsLine(e *model.Estimate) string { return TotalsLineIn(nil, e) }

// TotalsLineIn is TotalsLine in p's language.
func TotalsLineIn(p *i18n.Printer, e *model.Estimate) string {
	var s string
	switch fw := e.Workload.Framework; fw {
	case model.TensorFlow, model.JAX:
		// Not torch's caching allocator: the framework's own (see
		// model.Estimate.TorchAllocated), named so a TensorFlow or JAX
		// user does not look for a torch call.
		s = p.Sprintf("%s allocator peak in use %s (%.2f–%s), pool %s (%.2f–%s) at %.0f%%", FrameworkName(fw),
			GiB(e.TorchAllocated), e.AllocatedBand[0]/model.GiB, GiB(e.AllocatedBand[1]),
			GiB(e.TorchReserved), e.ReservedBand[0]/model.GiB, GiB(e.ReservedBand[1]), BandConfidence*100)
	default:
		s = p.Sprintf("torch allocated %s (%.2f–%s), reserved %s (%.2f–%s) at %.0f%%",
			GiB(e.TorchAllocated), e.AllocatedBand[0]/model.GiB, GiB(e.AllocatedBand[1]),
			GiB(e.TorchReserved), e.ReservedBand[0]/model.GiB, GiB(e.ReservedBand[1]), BandConfidence*100)
	}
	if e.TorchAllocated <= 0 {
		return "" // an estimate without a memory model (none today)
	}
	if e.PeakPhase != "" {
		s += p.Sprintf("; peak at %s", PhaseNameIn(p, e.PeakPhase))
	}
	return s
}

// PhaseNameIn reads a phase in a sentence: "forward end", "backward",
// "optimizer step", "inference".
// p is the language (nil: English).
func PhaseNameIn(p *i18n.Printer, ph model.Phase) string {
	switch ph {
	case model.PhaseForward:
		return p.T("forward end")
	case model.PhaseStep:
		return p.T("optimizer step")
	}
	return p.T(string(ph))
}

// RecipeLine names the recipe, the loss and, for QLoRA, the 4-bit format:
// "recipe autocast · loss hf-fp32 · nf4 + double quant". Empty for
// inference.
func RecipeLine(e *model.Estimate) string { return RecipeLineIn(nil, e) }

// RecipeLineIn is RecipeLine in p's language; recipe and loss names are
// TOML values and stay as they are.
func RecipeLineIn(p *i18n.Printer, e *model.Estimate) string {
	w := &e.Workload
	if e.Recipe == model.RecipeAuto {
		return ""
	}
	s := []string{p.Sprintf("recipe %s", e.Recipe)}
	if !w.Model.Family.Vision() {
		s = append(s, p.Sprintf("loss %s", w.LossImpl()))
	}
	if w.Task == model.TaskQLoRA {
		q, dq := w.FourBit()
		t := string(q)
		if dq {
			t = p.Sprintf("%s + double quant", t)
		}
		s = append(s, t)
	}
	return strings.Join(s, " · ")
}

// LossShareNote is the share of the per-GPU total above which
// LossAssumptionIn says what the default loss costs: past it, the loss
// implementation (which the user may not know) moves the answer more than
// most calibration errors do.
const LossShareNote = 0.10

// LossAssumptionIn says in words what the default --loss assumes and
// what it costs when that is a large share of the peak: the estimate
// again with a chunked linear cross-entropy (model.LossChunked: the full
// logits never exist), and the difference, when it is more than
// LossShareNote of e's total. The default is Hugging Face transformers'
// loss, which copies the logits to fp32 before the cross-entropy
// (transformers loss/loss_utils.py ForCausalLMLoss: "Upcast to float if
// we need to compute the loss to avoid potential precision issues",
// logits.float()); model.LossHFUpcast. Empty when the loss was chosen
// (--loss), the job computes no logits, or the share is small.
// p is the language (nil: English).
func LossAssumptionIn(p *i18n.Printer, e *model.Estimate) string {
	w := e.Workload
	if w.Loss != model.LossAuto || !w.CountsLogits() || !w.Model.HasShape() || w.LossImpl() != model.LossHFUpcast {
		return ""
	}
	total := e.Memory.Total()
	w.Loss = model.LossChunked
	c, err := model.Compute(w, e.GPU)
	if err != nil || total <= 0 {
		return ""
	}
	extra := total - c.Memory.Total()
	if extra <= LossShareNote*total {
		return ""
	}
	return p.Sprintf("loss: the default loss takes %s per GPU (%.0f%% of the total) more than a chunked linear cross-entropy would (%s in all): gpuplan assumes Hugging Face transformers' loss, which copies the %d-token logits to fp32 before the cross-entropy (transformers loss_utils.py ForCausalLMLoss: logits.float()); if your trainer fuses or chunks the loss (Liger, Cut Cross-Entropy, Unsloth) or frees the logits, give --loss chunked, fused or native",
		GiB(extra), extra/total*100, GiB(c.Memory.Total()), w.Model.Vocab)
}

// VerdictWordIn is the fit verdict with its mark: "✓ fits", "~ borderline",
// "✗ does not fit", styled.
// p is the language (nil: English).
func VerdictWordIn(p *i18n.Printer, v model.FitVerdict, st *Styles) string {
	switch v {
	case model.VerdictFits:
		return st.Good.Render(p.T("✓ fits"))
	case model.VerdictBorderline:
		return st.Warn.Render(p.T("~ borderline"))
	case model.VerdictCannotRun:
		return st.Bad.Render(p.T("✗ cannot run on"))
	}
	return st.Bad.Render(p.T("✗ does not fit"))
}

// DetailedBreakdownLinesIn is BreakdownLines with the estimator's finer
// lines under the segment that folds them in (see parts): gathered
// parameters and the cast cache under weights, communication buffers
// under gradients, step temporaries under optimizer states.
// p is the language (nil: English).
// names are padded by display width, so CJK names align.
func DetailedBreakdownLinesIn(p *i18n.Printer, m model.Memory, st *Styles) []string {
	sub := [6][]struct {
		name string
		v    float64
	}{
		0: {{"gathered", m.Gathered}, {"cast cache", m.CastCache}},
		1: {{"buffers", m.Buffers}},
		2: {{"temporaries", m.Temporaries}},
	}
	var lines []string
	for i, v := range parts(m) {
		if v <= 0 && i != 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s %11s", st.Segments[i].Render(segmentGlyphs[i]), PadRight(p.T(segmentNames[i]), 17), GiB(v)))
		for _, s := range sub[i] {
			if s.v > 0 {
				lines = append(lines, st.Muted.Render(p.Sprintf("  incl. %s %11s", PadRight(p.T(s.name), 11), GiB(s.v))))
			}
		}
	}
	return lines
}

// BandNoteIn is the memory band in parentheses for the VRAM heading:
// "(14.40–16.30 GiB at 90%)".
// p is the language (nil: English).
func BandNoteIn(p *i18n.Printer, e *model.Estimate) string {
	return p.Sprintf("(%.2f–%s at %.0f%%)", e.MemoryBand[0]/model.GiB, GiB(e.MemoryBand[1]), BandConfidence*100)
}

// BorderlineNoteIn says why a job is borderline and how likely it is to
// run out of memory, two different limits: the band straddles the usable
// memory (the driver's less model.FitMargin, which the verdict keeps
// free), and f.OOMChance is the chance the job needs more than all the
// driver exposes (model.OOMBytes), where CUDA fails.
// p is the language (nil: English).
//
// It names only advice there is: a smaller micro-batch when the
// micro-batch is above 1, else the savings listed below it (f.Tips), else
// none (a new user at micro-batch 1 was told to take the advice of a
// smaller one).
func BorderlineNoteIn(p *i18n.Printer, e *model.Estimate, f *advice.Fit) string {
	format := "borderline: the %.0f%% band reaches %s, past the %s usable (the %.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %s the driver exposes; leave room or take the advice of a smaller micro-batch"
	switch {
	case e.Workload.MicroBatch > 1:
	case len(f.Tips) > 0:
		format = "borderline: the %.0f%% band reaches %s, past the %s usable (the %.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %s the driver exposes; leave room or take a saving below"
	default:
		format = "borderline: the %.0f%% band reaches %s, past the %s usable (the %.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %s the driver exposes; leave room"
	}
	return p.Sprintf(format,
		BandConfidence*100, GiB(e.ResidentBand()[1]), GiB(f.UsableBytes), model.FitMargin*100, model.RoundChance(f.OOMChance)*100, GiB(f.OOMBytes))
}

// NoFitChanceNoteIn is the note under "does not fit" when the job may
// still run in the memory the driver exposes (advice.Fit.OOMChance set):
// the estimate is past the usable memory, so the verdict is no fit, but
// the margin is not the card's end.
// p is the language (nil: English).
func NoFitChanceNoteIn(p *i18n.Printer, f *advice.Fit) string {
	return p.Sprintf("the estimate is past the %s usable (the %.0f%% margin kept free); about %.0f%% chance of running out of memory, that is of needing more than the %s the driver exposes; take the fit advice below",
		GiB(f.UsableBytes), model.FitMargin*100, model.RoundChance(f.OOMChance)*100, GiB(f.OOMBytes))
}

// TimeBandNoteIn is the job time's band: "90% range 1.6 h – 2.6 h".
// p is the language (nil: English).
func TimeBandNoteIn(p *i18n.Printer, e *model.Estimate) string {
	return p.Sprintf("%.0f%% range %s – %s", BandConfidence*100, HoursIn(p, e.TimeBand[0]), HoursIn(p, e.TimeBand[1]))
}

// FrameworkName is a framework as its project spells it: "PyTorch",
// "TensorFlow", "JAX".
func FrameworkName(f model.Framework) string {
	switch f {
	case model.TensorFlow:
		return "TensorFlow"
	case model.JAX:
		return "JAX"
	}
	return "PyTorch"
}
