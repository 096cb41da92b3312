package model

import (
	"math"
	"sort"
)

// BandLevels is how many quantiles of its residuals a Band keeps: the
// levels 0.05, 0.10, …, 0.95.
const BandLevels = 19

// BandLevel returns the probability level of quantile i of a Band,
// 0.05·(i+1).
func BandLevel(i int) float64 { return 0.05 * float64(i+1) }

// Band is the 90% range around an estimate and the error distribution
// behind it, from the calibration suite (data/testdata/calibration/
// cases*.toml) scored out of sample: every case predicted with the fitted
// constants (Tuning) refitted without its source (leave-one-source-out
// cross-validation), as residuals r = log(true / estimated), grouped by
// comparable workloads (BandGroups).
//
// The range is split-conformal (Vovk et al., 2005; Lei et al., 2018,
// "Distribution-Free Predictive Inference for Regression", §2.2): the
// ⌊(n+1)·0.05⌋-th and ⌈(n+1)·0.95⌉-th smallest of the group's n
// residuals (the extremes when n is too small for them), then widened
// for few sources — residuals of one source share its setup, so a group
// knows only as many independent errors as it has sources k: every
// quantile moves away from the group's median residual by the factor
// t(0.95, k−1)/z(0.95), that of a 90% prediction interval whose spread is
// estimated from k draws over one whose spread is known (NIST/
// SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.2, critical values
// of Student's t) — and never narrower than the spread across sources (it
// holds every source's median residual). It always holds the estimate
// itself (Lo ≤ 1 ≤ Hi).
type Band struct {
	Lo, Hi  float64 // multipliers of the estimate: true/estimated at the ends of the 90% range
	Cases   int     // calibration cases behind the band; 0 for the fallback band
	Sources int     // distinct sources among them
	// Group names the calibration group, coarsest part first:
	// "memory/nvidia-smi/decoder/pure16", "time/cnn", "memory/all"
	// (BandGroups).
	Group string
	// UncalibratedVendor is, for a time band on a GPU of a vendor no
	// calibration source ran on, that vendor ("amd"), the band widened
	// for it (widenForVendor); empty otherwise.
	UncalibratedVendor string
	// UncalibratedMoE is set on a time band of training a
	// mixture-of-experts model, which no calibration source did: the band
	// is widened for it (uncalibratedMoE).
	UncalibratedMoE bool
	// q are the quantiles of the widened residuals at BandLevel(i), q[0]
	// = log Lo and q[BandLevels-1] = log Hi.
	q [BandLevels]float64
}

// fallbackBand is the band when no calibration group applies (none does
// for a kind without cases): ×0.75–×1.33, uniform in log.
var fallbackBand = func() Band {
	b := Band{Lo: 0.75, Hi: 1 / 0.75, Group: "uncalibrated/fallback"}
	for i := range b.q {
		b.q[i] = math.Log(0.75) * (1 - 2*float64(i)/float64(BandLevels-1))
	}
	return b
}()

// init sets each generated band's range from its quantiles, so that the
// two agree exactly.
func init() {
	for _, b := range calibrationBands {
		b.Lo, b.Hi = math.Exp(b.q[0]), math.Exp(b.q[BandLevels-1])
	}
}

// NewBand returns a band from its range, counts, group and quantiles
// (log ratios at BandLevel(i), non-decreasing); the generator of
// calibration_bands.go and tests build bands with it.
func NewBand(group string, cases, sources int, q [BandLevels]float64) Band {
	return Band{Lo: math.Exp(q[0]), Hi: math.Exp(q[BandLevels-1]), Cases: cases, Sources: sources, Group: group, q: q}
}

// Quantiles returns the band's quantiles of log(true/estimated) at
// BandLevel(i).
func (b Band) Quantiles() [BandLevels]float64 { return b.q }

// Exceedance returns the probability that the true value exceeds x times
// the estimate, from the band's quantiles, linearly interpolated in log
// ratio: 0.95 or more below the range (reported as 0.95), 0.05 or less
// above it (reported as 0.05).
func (b *Band) Exceedance(x float64) float64 {
	l := math.Log(x)
	last := BandLevels - 1
	switch {
	case l <= b.q[0]:
		return 1 - BandLevel(0)
	case l >= b.q[last]:
		return 1 - BandLevel(last)
	}
	for i := 1; i <= last; i++ {
		if l <= b.q[i] {
			lo, hi := b.q[i-1], b.q[i]
			p := BandLevel(i)
			if hi > lo {
				p = BandLevel(i-1) + (l-lo)/(hi-lo)*(BandLevel(i)-BandLevel(i-1))
			}
			return 1 - p
		}
	}
	return 1 - BandLevel(last)
}

// BandGroups returns the calibration groups an estimate of kind falls in,
// finest first; its band is that of the first group the suite has enough
// sources for (calibration_bands.go), else BandFor's fallback.
//
//	memory: memory/reading/family/recipe, memory/reading/family,
//	        memory/reading, memory/all — reading is what was measured:
//	        "allocated" (torch.cuda.max_memory_allocated), "reserved"
//	        (max_memory_reserved) or "nvidia-smi", the figure estimates
//	        print; recipe is TrainingRecipe or "inference"
//	time:   time/family/strategy/link, time/family/strategy,
//	        time/family, time/all — link is "one-gpu", the GPU's
//	        interconnect ("nvlink", "pcie", …) or "network" when the
//	        GPUs span nodes
//
// g and h matter for time only (g may be nil for memory).
func BandGroups(kind, reading string, w *Workload, g *GPU, h Host) []string {
	parts := bandParts(kind, reading, w, g, h)
	out := make([]string, 0, len(parts))
	for n := len(parts); n >= 1; n-- {
		out = append(out, string(appendGroup(nil, parts[:n])))
	}
	return out
}

// bandParts returns the parts of w's finest calibration group of kind.
func bandParts(kind, reading string, w *Workload, g *GPU, h Host) [4]string {
	if kind == "memory" {
		recipe := "inference"
		if w.Task.Training() {
			recipe = string(w.TrainingRecipe())
		}
		return [4]string{kind, reading, string(w.Model.Family), recipe}
	}
	link := "one-gpu"
	switch {
	case w.GPUs <= 1:
	case h.GPUsPerNode > 0 && w.GPUs > h.GPUsPerNode:
		link = "network"
	case g == nil || g.Interconnect == "":
		link = "pcie"
	default:
		link = g.Interconnect
	}
	return [4]string{kind, string(w.Model.Family), string(w.Strategy), link}
}

// appendGroup appends parts joined by "/" to b; the kind alone is
// "kind/all" (every case of the kind).
func appendGroup(b []byte, parts []string) []byte {
	for i, p := range parts {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, p...)
	}
	if len(parts) == 1 {
		b = append(b, "/all"...)
	}
	return b
}

// bandFor returns the band of the first of w's groups of kind that the
// suite covers (see BandGroups), or the fallback band; it allocates
// nothing.
func bandFor(kind, reading string, w *Workload, g *GPU, h Host) *Band {
	parts := bandParts(kind, reading, w, g, h)
	var buf [96]byte
	for n := len(parts); n >= 1; n-- {
		if b, ok := calibrationBands[string(appendGroup(buf[:0], parts[:n]))]; ok {
			if kind == "time" {
				return uncalibratedMoE(uncalibratedTime(b, g), w)
			}
			return b
		}
	}
	return &fallbackBand
}

// CalibrationBand returns the band of a calibration group by name, as
// BandGroups names them ("memory/all", …).
func CalibrationBand(group string) (Band, bool) {
	b, ok := calibrationBands[group]
	if !ok {
		return Band{}, false
	}
	return *b, true
}

// CalibrationGroups returns the names of the groups that have a band of
// their own, sorted.
func CalibrationGroups() []string {
	out := make([]string, 0, len(calibrationBands))
	for g := range calibrationBands {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// BandFor returns the band an estimate of kind ("memory" for the reading
// given, "time") of w on g over h gets: the first of BandGroups the suite
// covers, else ×0.75–×1.33.
func BandFor(kind, reading string, w *Workload, g *GPU, h Host) Band {
	return *bandFor(kind, reading, w, g, h)
}

// RoundChance rounds a probability to the nearest 5%, as reports print a
// chance of running out of memory ("about 30%"): finer steps would claim
// more than a few dozen calibration sources can tell.
func RoundChance(p float64) float64 { return math.Round(p*20) / 20 }
