package model

import (
	"math"
	"strings"
	"sync"
)

// CalibratedVendors are the GPU vendors the training calibration suite
// (data/testdata/calibration/cases*.toml) has sources on: every case ran
// on NVIDIA GPUs (V100 to H100). data's TestCalibratedVendors holds the
// list to the suite, so a case on another vendor's GPU must name it here.
var CalibratedVendors = []string{"nvidia"}

// calibratedVendor reports whether the suite has a source on vendor's
// GPUs; an unnamed vendor (a test GPU) counts as calibrated.
func calibratedVendor(vendor string) bool {
	if vendor == "" {
		return true
	}
	for _, v := range CalibratedVendors {
		if strings.EqualFold(v, vendor) {
			return true
		}
	}
	return false
}

// bandCache holds bands widened from the calibration's, by key, each
// made on first use: bandFor allocates nothing after.
type bandCache[K comparable] struct {
	sync.Mutex
	m map[K]*Band
}

// get returns k's band, made by widen the first time.
func (c *bandCache[K]) get(k K, widen func() Band) *Band {
	c.Lock()
	defer c.Unlock()
	if w, ok := c.m[k]; ok {
		return w
	}
	if c.m == nil {
		c.m = map[K]*Band{}
	}
	v := widen()
	c.m[k] = &v
	return &v
}

// vendorBands are the time bands widened for a vendor without a source
// (widenForVendor), by vendor and group.
var vendorBands bandCache[[2]string]

// uncalibratedTime returns the time band for g: b itself when the suite
// has a source on g's vendor, else b widened (widenForVendor) and marked
// with the vendor (Band.UncalibratedVendor).
func uncalibratedTime(b *Band, g *GPU) *Band {
	all := calibrationBands["time/all"]
	if g == nil || calibratedVendor(g.Vendor) || all == nil {
		return b
	}
	return vendorBands.get([2]string{g.Vendor, b.Group}, func() Band {
		v := widenForVendor(siblingEnvelope(b), *all)
		v.UncalibratedVendor = strings.ToLower(g.Vendor)
		return v
	})
}

// moeBands are the time bands widened for training a mixture-of-experts
// model (uncalibratedMoE), by the band they widen.
var moeBands bandCache[*Band]

// uncalibratedMoE returns the time band for training w: b itself unless
// w's model is a mixture of experts, else b widened (widenForVendor) and
// marked (Band.UncalibratedMoE). Every training case of the suite is a
// dense model: an MoE step's time has terms none of them samples — the
// router, the token permutation and the grouped or looped expert GEMMs
// (transformers 4.x's MoE blocks loop over the experts a batch routes to,
// e.g. modeling_qwen3_moe.py Qwen3MoeSparseMoeBlock.forward), whose
// efficiency depends on how evenly tokens spread — so, as for a GPU
// vendor without a source, the suite's own out-of-sample spread across
// sources ("time/all") is added in quadrature, as one more independent
// error. Serving is calibrated on MoE models (model/serve's suite) and
// keeps its band. On an AMD GPU both widenings apply: two independent
// unmeasured errors.
func uncalibratedMoE(b *Band, w *Workload) *Band {
	all := calibrationBands["time/all"]
	if w == nil || w.Model.Experts <= 1 || !w.Task.Training() || all == nil {
		return b
	}
	return moeBands.get(b, func() Band {
		v := widenForVendor(siblingEnvelope(b), *all)
		v.UncalibratedVendor, v.UncalibratedMoE = b.UncalibratedVendor, true
		return v
	})
}

// siblingEnvelope is b widened to hold the bands of its finer groups
// (b.Group + "/…"), quantile by quantile away from b's median. A GPU of
// a vendor without a source falls back to a coarser group when its
// interconnect has none of its own (AMD's Infinity Fabric:
// "time/decoder/fsdp" where NVLink has "time/decoder/fsdp/nvlink"); how
// its link compares with the calibrated ones is unmeasured, so it gets
// the widest of them, never a narrower band than an NVIDIA GPU's.
func siblingEnvelope(b *Band) Band {
	last, mid := BandLevels-1, BandLevels/2
	q, med := b.q, b.q[BandLevels/2]
	for g, c := range calibrationBands {
		if !strings.HasPrefix(g, b.Group+"/") {
			continue
		}
		for i := range q {
			switch {
			case i < mid:
				q[i] = min(q[i], c.q[i], med)
			case i > mid:
				q[i] = max(q[i], c.q[i], med)
			}
		}
	}
	q[0], q[last] = min(q[0], 0), max(q[last], 0)
	return NewBand(b.Group, b.Cases, b.Sources, q)
}

// widenForVendor widens a time band b for hardware of a vendor no
// calibration source ran on. b's residuals are leave-one-source-out
// errors (Band): they sample how far the time moves on a setup the fit
// never saw — but every setup was an NVIDIA GPU with CUDA kernels, so
// they do not sample a change of vendor (other kernels, ROCm's
// libraries, RCCL for NCCL), whose error no source measures. It is taken
// as one more independent error of the size the whole suite makes on an
// unseen source: the "time/all" band (every time case, every source, its
// spread across sources and families), added to b's in quadrature on
// each side of the median — the 90% half-widths of independent errors
// combine as the square root of the sum of their squares (propagation of
// error for independent terms, NIST/SEMATECH e-Handbook of Statistical
// Methods §2.5.5.2, Y = f(X, Z) after Ku 1966, with no covariance term;
// exact for normal errors in log ratio, an
// approximation otherwise). Each quantile moves away from b's median by
// the ratio of the widened half-width to b's, so the shape (and
// Exceedance) follows. Nothing is fitted: the added width is the suite's
// own out-of-sample spread (×0.63–×1.55 today), not a factor tuned to
// any case; the AMD GPUs (MI300X, MI325X, MI355X) have no case at all.
// uncalibratedTime passes b as its group's envelope (siblingEnvelope).
func widenForVendor(b, all Band) Band {
	last, mid := BandLevels-1, BandLevels/2 // q[mid] is the median (level 0.5)
	med, amed := b.q[mid], all.q[mid]
	loOld, hiOld := med-b.q[0], b.q[last]-med
	loAdd, hiAdd := amed-all.q[0], all.q[last]-amed
	loNew, hiNew := math.Hypot(loOld, loAdd), math.Hypot(hiOld, hiAdd)
	var q [BandLevels]float64
	for i := range q {
		d := b.q[i] - med
		switch {
		case i < mid && loOld > 0:
			q[i] = med + d*loNew/loOld
		case i < mid: // b has no spread below its median: spread evenly
			q[i] = med - loNew*float64(mid-i)/float64(mid)
		case i > mid && hiOld > 0:
			q[i] = med + d*hiNew/hiOld
		case i > mid:
			q[i] = med + hiNew*float64(i-mid)/float64(last-mid)
		default:
			q[i] = med
		}
	}
	q[0], q[last] = min(q[0], 0), max(q[last], 0) // it holds the estimate, as every band
	return NewBand(b.Group, b.Cases, b.Sources, q)
}

// UncalibratedNote says, when e's time is on a GPU of a vendor no
// calibration source ran on, or trains a mixture-of-experts model (its
// band widened: widenForVendor), that the estimate is not calibrated
// there; ok is false otherwise or without a time.
func (e *Estimate) UncalibratedNote() (m Message, ok bool) {
	if !e.HasTime || e.timeBand == nil {
		return Message{}, false
	}
	switch b := e.timeBand; {
	case b.UncalibratedVendor != "" && b.UncalibratedMoE:
		return Msg("not calibrated on %s hardware nor on training a mixture-of-experts model: no calibration source did either, so the 90%% range of the time is widened by the suite's out-of-sample spread for each", strings.ToUpper(b.UncalibratedVendor)), true
	case b.UncalibratedVendor != "":
		return Msg("not calibrated on %s hardware: no calibration source ran on its GPUs, so the 90%% range of the time is widened by the suite's out-of-sample spread", strings.ToUpper(b.UncalibratedVendor)), true
	case b.UncalibratedMoE:
		return Msg("not calibrated on training a mixture-of-experts model: every calibration source trained a dense one, so the 90%% range of the time is widened by the suite's out-of-sample spread"), true
	}
	return Message{}, false
}
