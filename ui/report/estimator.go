package report

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Estimator v2 outputs (issue 13): the recipe, the peak phase, the two
// PyTorch totals beside nvidia-smi's, the per-phase memory and the 90%
// bands. JSON field names are stable: add, never rename.

// BandConfidence is the share of calibration cases a band covers: the
// bands are the 5th–95th percentiles of true / estimated
// (model.BandFromRatios over data/testdata/calibration/cases.toml).
const BandConfidence = 0.9

// BandJSON is a 90% range of an estimate, in the estimate's unit.
type BandJSON struct {
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence"` // BandConfidence
	Cases      int     `json:"cases"`      // calibration cases behind the band; 0 for the fallback band
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
	return BandJSON{Low: lo, High: hi, Confidence: BandConfidence, Cases: b.Cases}
}

// addEstimatorV2 fills out's estimator v2 fields from e and f.
func addEstimatorV2(out *EstimateJSON, e *model.Estimate, f *model.Fit) {
	w := &e.Workload
	if e.Recipe != model.RecipeAuto {
		out.Recipe = string(e.Recipe)
	}
	m := &out.Memory
	m.PerGPUBytes = NewBreakdownJSON(e.Memory)
	m.TorchAllocatedBytes, m.TorchReservedBytes = i64(e.TorchAllocated), i64(e.TorchReserved)
	m.PeakPhase = string(e.PeakPhase)
	m.Phases = []PhaseJSON{}
	for _, p := range e.PhaseList() {
		m.Phases = append(m.Phases, PhaseJSON{Phase: string(p.Phase), Bytes: NewBreakdownJSON(p.Memory)})
	}
	b := newBandJSON(e.MemoryBand[0], e.MemoryBand[1], model.BandFor("memory", w))
	b.Low, b.High = float64(i64(b.Low)), float64(i64(b.High))
	m.Band = &b
	if e.HasTime {
		out.Time = &TimeJSON{Hours: e.Hours, Band: newBandJSON(e.TimeBand[0], e.TimeBand[1], model.BandFor("time", w))}
	}
	if f != nil && out.GPU != nil {
		out.GPU.Verdict = string(f.Verdict)
	}
}

// NeedsLine is the one-line memory need with its band:
// "needs 15.20 GiB, 14.40–16.30 GiB at 90%".
func NeedsLine(e *model.Estimate) string {
	return fmt.Sprintf("needs %s, %.2f–%s at %.0f%%", GiB(e.Memory.Total()), e.MemoryBand[0]/model.GiB,
		GiB(e.MemoryBand[1]), BandConfidence*100)
}

// TotalsLine names the two PyTorch totals beside nvidia-smi's and the
// phase that peaks: "torch allocated 13.10 GiB, reserved 14.20 GiB; peak
// in backward".
func TotalsLine(e *model.Estimate) string {
	s := fmt.Sprintf("torch allocated %s, reserved %s", GiB(e.TorchAllocated), GiB(e.TorchReserved))
	if e.TorchAllocated <= 0 {
		return "" // an estimate without a memory model (none today)
	}
	if e.PeakPhase != "" {
		s += "; peak at " + PhaseName(e.PeakPhase)
	}
	return s
}

// PhaseName reads a phase in a sentence: "forward end", "backward",
// "optimizer step", "inference".
func PhaseName(p model.Phase) string {
	switch p {
	case model.PhaseForward:
		return "forward end"
	case model.PhaseStep:
		return "optimizer step"
	}
	return string(p)
}

// RecipeLine names the recipe, the loss and, for QLoRA, the 4-bit format:
// "recipe autocast · loss hf-fp32 · nf4 + double quant". Empty for
// inference.
func RecipeLine(e *model.Estimate) string {
	w := &e.Workload
	if e.Recipe == model.RecipeAuto {
		return ""
	}
	s := []string{"recipe " + string(e.Recipe)}
	if !w.Model.Family.Vision() {
		s = append(s, "loss "+string(w.LossImpl()))
	}
	if w.Task == model.TaskQLoRA {
		q, dq := w.FourBit()
		t := string(q)
		if dq {
			t += " + double quant"
		}
		s = append(s, t)
	}
	return strings.Join(s, " · ")
}

// VerdictWord is the fit verdict with its mark: "✓ fits", "~ borderline",
// "✗ does not fit", styled.
func VerdictWord(v model.FitVerdict, st *Styles) string {
	switch v {
	case model.VerdictFits:
		return st.Good.Render("✓ fits")
	case model.VerdictBorderline:
		return st.Warn.Render("~ borderline")
	}
	return st.Bad.Render("✗ does not fit")
}

// DetailedBreakdownLines is BreakdownLines with the estimator's finer
// lines under the segment that folds them in (see parts): gathered
// parameters and the cast cache under weights, communication buffers
// under gradients, step temporaries under optimizer states.
func DetailedBreakdownLines(m model.Memory, st *Styles) []string {
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
		lines = append(lines, fmt.Sprintf("%s %-17s %11s", st.Segments[i].Render(segmentGlyphs[i]), segmentNames[i], GiB(v)))
		for _, p := range sub[i] {
			if p.v > 0 {
				lines = append(lines, st.Muted.Render(fmt.Sprintf("  incl. %-11s %11s", p.name, GiB(p.v))))
			}
		}
	}
	return lines
}

// BandNote is the memory band in parentheses for the VRAM heading:
// "(14.40–16.30 GiB at 90%)".
func BandNote(e *model.Estimate) string {
	return fmt.Sprintf("(%.2f–%s at %.0f%%)", e.MemoryBand[0]/model.GiB, GiB(e.MemoryBand[1]), BandConfidence*100)
}

// BorderlineNote says why a job that fits at the point estimate is
// borderline: the top of the band is past the usable memory.
func BorderlineNote(e *model.Estimate, f *model.Fit) string {
	return fmt.Sprintf("borderline: the %.0f%% band reaches %s, past the %s usable; leave room or take the advice of a smaller micro-batch",
		BandConfidence*100, GiB(e.MemoryBand[1]), GiB(f.UsableBytes))
}

// TimeBandNote is the job time's band: "90% range 1.6 h – 2.6 h".
func TimeBandNote(e *model.Estimate) string {
	return fmt.Sprintf("%.0f%% range %s – %s", BandConfidence*100, Hours(e.TimeBand[0]), Hours(e.TimeBand[1]))
}
