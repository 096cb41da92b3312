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

// FinerLines lists the estimator's lines that the six bar segments fold
// in (see parts), indented under their segment: gathered parameters,
// cast cache, buffers, temporaries. Empty when all are zero.
func FinerLines(m model.Memory, st *Styles) []string {
	var lines []string
	for _, p := range []struct {
		name string
		v    float64
	}{{"gathered params", m.Gathered}, {"cast cache", m.CastCache}, {"comm buffers", m.Buffers}, {"step temporaries", m.Temporaries}} {
		if p.v > 0 {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("  incl. %-17s %9s", p.name, GiB(p.v))))
		}
	}
	return lines
}
