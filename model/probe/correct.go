package probe

import (
	"math"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Kept is one of the user's kept cases with its residual against this
// gpuplan's estimate of the same workload.
type Kept struct {
	Case   Case
	Run    string       // the probe run it came from (RunID; one run gives up to three cases)
	GPU    string       // catalog GPU key
	Family model.Family // the model's family
	Recipe model.Recipe // the training recipe it ran
	// Ratio is true ÷ estimated as the calibration bands use it: measured
	// ÷ estimated memory; estimated ÷ measured throughput (true time ÷
	// estimated time).
	Ratio float64
}

// Prepare estimates each case's workload again and keeps its residual;
// cases this gpuplan cannot estimate (a model or GPU gone from the
// catalog) are returned as errors, one per case, naming its id.
func Prepare(s *Suite, cat *model.Catalog) ([]Kept, []error) {
	archs := map[string]*Arch{}
	for i := range s.Arch {
		archs[s.Arch[i].Key] = &s.Arch[i]
	}
	var out []Kept
	var errs []error
	for _, c := range s.Case {
		k, err := prepareOne(c, archs[c.Model], cat)
		if err != nil {
			errs = append(errs, model.Msg("case %s: %v", show.Printable(c.ID), err))
			continue
		}
		out = append(out, k)
	}
	return out, errs
}

func prepareOne(c Case, arch *Arch, cat *model.Catalog) (Kept, error) {
	w, g, err := c.Settings.Workload(cat, arch)
	if err != nil {
		return Kept{}, err
	}
	if !w.Task.Training() {
		return Kept{}, model.Msg("task %s: only training cases correct estimates", w.Task)
	}
	e, err := model.Compute(w, g)
	if err != nil {
		return Kept{}, err
	}
	k := Kept{Case: c, Run: runOf(c.ID), GPU: g.Key, Family: e.Workload.Model.Family, Recipe: e.Recipe}
	published := c.Published
	switch c.Unit {
	case "GB":
		published *= 1e9
	case "MiB":
		published *= model.MiB
	}
	var predicted float64
	switch c.Quantity {
	case "allocated":
		predicted = e.TorchAllocated
	case "nvidia-smi":
		predicted = e.Memory.Total()
	case "samples_per_second":
		predicted = e.SamplesPerSecond
	case "tokens_per_second":
		predicted = e.SamplesPerSecond * float64(e.Workload.SeqLen)
	default:
		return Kept{}, model.Msg("quantity %q: want allocated, nvidia-smi, samples_per_second or tokens_per_second", show.Printable(c.Quantity))
	}
	if !(predicted > 0) || !(published > 0) {
		return Kept{}, model.Msg("no %s to compare: estimated %.4g, measured %.4g", c.Quantity, predicted, published)
	}
	if err := physical(c, &e, published); err != nil {
		return Kept{}, err
	}
	k.Ratio = published / predicted
	if c.Kind == "time" {
		k.Ratio = predicted / published
	}
	if math.IsNaN(k.Ratio) || math.IsInf(k.Ratio, 0) {
		return Kept{}, model.Msg("residual %v", k.Ratio)
	}
	if !SaneRatio(k.Ratio) {
		return Kept{}, model.Msg("measured %s %.4g %s is ×%.3g gpuplan's estimate (%.4g %s): outside ×%g–×%g, so not a run of this plan; check the result's batch, model, GPU and units",
			c.Quantity, c.Published, c.Unit, published/predicted, predicted/unitScale(c.Unit), c.Unit, MinRatio, MaxRatio)
	}
	return k, nil
}

// MinRatio and MaxRatio bound the residual (true ÷ estimated) a kept case
// may have, and a correction may apply. A policy choice, not a measured
// bound: the calibration suite's tolerances are tens of percent, so a
// reading at a fifth or five times the estimate is a different plan (a
// batch of 1,000,000 with a 13.5 GiB peak was kept as ×1.8e-06, attack
// round 15, finding 3) or a unit error, not an estimate to correct.
const (
	MinRatio = 0.2
	MaxRatio = 5.0
)

// SaneRatio reports whether r is within MinRatio–MaxRatio.
func SaneRatio(r float64) bool { return r >= MinRatio && r <= MaxRatio }

// unitScale is the bytes in one unit ("GB", "MiB", else 1).
func unitScale(unit string) float64 {
	switch unit {
	case "GB":
		return 1e9
	case "MiB":
		return model.MiB
	}
	return 1
}

// physical refuses a measurement no run of the case's plan can give, so
// a hand-edited or mistaken result cannot scale other estimates: memory
// below the weights the plan holds on each GPU (its model-state weights,
// the ZeRO paper's §3.1 accounting, exact for the parameter count and
// dtype), memory above what the GPU holds (MemoryCeiling: allocated above
// one GPU's memory, nvidia-smi above the run's GPUs' — the bounds a
// result file is read with, which a kept case edited by hand skipped:
// issue 29, a kept case of 100 × its estimate made the corrected memory
// 100 ×), or a throughput whose model FLOPs (Kaplan et al., 2020, 6N per
// token, as the estimate counts them) would need more than the GPUs'
// dense peak, an MFU above 100%.
func physical(c Case, e *model.Estimate, published float64) error {
	switch c.Quantity {
	case "allocated", "nvidia-smi":
		if floor := e.Memory.Weights; published < floor {
			return model.Msg("measured %s %.2f GiB is less than the weights alone (%.2f GiB per GPU): not a run of this plan; check the result's model, precision and GPU count", c.Quantity, published/model.GiB, floor/model.GiB)
		}
		if e.GPU == nil {
			break
		}
		ceiling := MemoryCeiling * e.GPU.MemoryGiB * model.GiB
		if c.Quantity == "nvidia-smi" {
			ceiling *= float64(max(1, e.Workload.GPUs))
		}
		if published > ceiling {
			return model.Msg("measured %s %.2f GiB is more than the GPU holds (%.0f GiB, %s): not a run of this plan; check the result's GPU and units", c.Quantity, published/model.GiB, e.GPU.MemoryGiB, e.GPU.Name)
		}
	case "samples_per_second", "tokens_per_second":
		sps := published
		if c.Quantity == "tokens_per_second" {
			sps /= float64(e.Workload.SeqLen)
		}
		peak := float64(e.Workload.GPUs) * e.PeakTFLOPS * 1e12
		if mfu := sps * e.FLOPsPerSample / peak; peak > 0 && mfu > 1 {
			return model.Msg("measured %s implies %.0f%% MFU, above the GPUs' dense peak: not a run of this plan; check the result's model, batch and GPU", c.Quantity, mfu*100)
		}
	}
	return nil
}

// MemoryCeiling is how far above the catalog GPU's memory a kept memory
// reading may be: 1%, the margin probe compare and add allow a result's
// device.memory_bytes (the driver reports a little less than the vendor's
// GiB, never more; docs/probe.md).
const MemoryCeiling = 1.01

// runOf is the run id of a case id: the id without its quantity suffix.
func runOf(id string) string {
	for _, suf := range []string{"-allocated", "-nvidia-smi", "-throughput"} {
		if r, ok := strings.CutSuffix(id, suf); ok {
			return r
		}
	}
	return id
}

// Correction is an estimate scaled by the residuals of the kept cases
// close to it.
type Correction struct {
	GPU    string // the GPU's name
	Family model.Family
	Recipe model.Recipe
	Runs   int // probe runs behind the correction

	// MemoryRatio is the median of measured ÷ estimated memory
	// (nvidia-smi cases when there are any, else allocated); 0 when no case
	// measured memory. Memory is the corrected per-GPU total, Estimated
	// the uncorrected one.
	MemoryRatio, Memory, EstimatedMemory float64
	MemoryRuns                           int
	// TimeRatio is the median of true ÷ estimated time; 0 when no
	// case measured throughput. SamplesPerSecond and Hours are corrected
	// (Hours 0 without a dataset), the Estimated fields not.
	TimeRatio, SamplesPerSecond, EstimatedSamplesPerSecond float64
	Hours, EstimatedHours                                  float64
	TimeRuns                                               int
}

// OK reports whether any kept case was close enough to correct.
func (c *Correction) OK() bool { return c.Runs > 0 }

// Correct returns the correction of estimate e by the kept cases close to
// it: training on the same GPU, a model of the same family, the same
// training recipe (model.Workload.TrainingRecipe). Memory is the total per
// GPU (what nvidia-smi shows) times the median of the nvidia-smi
// residuals; with only allocated cases, the tensors' share (torch
// allocated) times theirs. Time divides the throughput by the median
// true ÷ estimated time. An estimate without a GPU, or inference, gets
// none (OK false).
func Correct(e *model.Estimate, kept []Kept) Correction {
	var c Correction
	if e == nil || e.GPU == nil || !e.Workload.Task.Training() {
		return c
	}
	c.GPU, c.Family, c.Recipe = e.GPU.Name, e.Workload.Model.Family, e.Recipe
	var smi, alloc, tim []float64
	runs, memRuns, timeRuns := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, k := range kept {
		if k.GPU != e.GPU.Key || k.Family != c.Family || k.Recipe != c.Recipe {
			continue
		}
		if !SaneRatio(k.Ratio) { // Prepare refuses such cases; a correction never applies one
			continue
		}
		runs[k.Run] = true
		switch k.Case.Quantity {
		case "nvidia-smi":
			smi = append(smi, k.Ratio)
			memRuns[k.Run] = true
		case "allocated":
			alloc = append(alloc, k.Ratio)
			memRuns[k.Run] = true
		default:
			tim = append(tim, k.Ratio)
			timeRuns[k.Run] = true
		}
	}
	c.Runs, c.MemoryRuns, c.TimeRuns = len(runs), len(memRuns), len(timeRuns)
	c.EstimatedMemory = e.Memory.Total()
	c.EstimatedSamplesPerSecond, c.EstimatedHours = e.SamplesPerSecond, e.Hours
	c.Memory, c.SamplesPerSecond, c.Hours = c.EstimatedMemory, c.EstimatedSamplesPerSecond, c.EstimatedHours
	switch {
	case len(smi) > 0:
		c.MemoryRatio = median(smi)
		c.Memory = c.EstimatedMemory * c.MemoryRatio
	case len(alloc) > 0:
		c.MemoryRatio = median(alloc)
		c.Memory = c.EstimatedMemory + e.TorchAllocated*(c.MemoryRatio-1)
	}
	if len(tim) > 0 {
		c.TimeRatio = median(tim)
		c.SamplesPerSecond = c.EstimatedSamplesPerSecond / c.TimeRatio
		c.Hours = c.EstimatedHours * c.TimeRatio
	}
	return c
}

// median is the median of the ratios x, and for an even count the
// geometric mean of the middle two (the median of their logarithms, so a
// ratio and its inverse weigh alike): one wild run among three or more
// cannot move it past the others, as it moved a geometric mean (issue 29:
// two runs at 1.1 × and one at 100 × made a mean of 4.9 ×; the median is
// 1.1 ×). One or two runs give their own ratio or geometric mean, as
// before.
func median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return math.Sqrt(s[n/2-1] * s[n/2])
}

// Runs lists the distinct runs of kept cases, sorted.
func Runs(kept []Kept) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range kept {
		if !seen[k.Run] {
			seen[k.Run] = true
			out = append(out, k.Run)
		}
	}
	sort.Strings(out)
	return out
}
