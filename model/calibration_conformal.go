package model

// Conformal 90% ranges from cross-validated residuals (issue 30): the
// training calibration (data/calibration_test.go) and the serving one
// (serve calibration test) build their bands here, so both widen and
// round alike.

import (
	"math"
	"sort"
)

// tCrit are Student's t critical values t(0.95, ν) for ν = 1…30
// (NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.2, table of
// upper critical values); beyond 30 the normal's z(0.95) = 1.645.
var tCrit = [...]float64{6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
	1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725,
	1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697}

// SmallSampleFactor returns how much a band over k sources is widened:
// t(0.95, k−1) / z(0.95), the ratio of a 90% prediction interval whose
// spread is estimated from k draws to one whose spread is known (one
// source counts as two).
func SmallSampleFactor(k int) float64 {
	nu := max(k-1, 1)
	if nu > len(tCrit) {
		return 1
	}
	return tCrit[nu-1] / 1.645
}

// Quantile returns the p-quantile of sorted s, linearly interpolated
// (Hyndman & Fan, 1996, type 7).
func Quantile(s []float64, p float64) float64 {
	x := p * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (x-float64(i))*(s[i+1]-s[i])
}

// sourceMedian returns the median of one source's residuals x (type 7).
func sourceMedian(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return Quantile(s, 0.5)
}

// ConformalBand builds a group's band from its cross-validated residuals by
// source, as Band describes: split-conformal ends, quantiles
// widened about the median by SmallSampleFactor, every source's median
// and 0 inside.
func ConformalBand(group string, bySource map[string][]float64) Band {
	var rs []float64
	for _, r := range bySource {
		rs = append(rs, r...)
	}
	sort.Float64s(rs)
	n, last := len(rs), BandLevels-1
	lo := max(int(math.Floor(float64(n+1)*0.05)), 1)
	hi := min(int(math.Ceil(float64(n+1)*0.95)), n)
	var q [BandLevels]float64
	q[0], q[last] = rs[lo-1], rs[hi-1]
	for i := 1; i < last; i++ {
		q[i] = Quantile(rs, BandLevel(i))
	}
	med, f := Quantile(rs, 0.5), SmallSampleFactor(len(bySource))
	for i := range q {
		q[i] = med + f*(q[i]-med)
	}
	for _, r := range bySource {
		m := sourceMedian(r)
		q[0], q[last] = min(q[0], m), max(q[last], m)
	}
	q[0], q[last] = min(q[0], 0), max(q[last], 0)
	for i := 1; i < last; i++ {
		q[i] = min(max(q[i], q[i-1], q[0]), q[last])
	}
	for i := range q {
		q[i] = math.Round(q[i]*1e5) / 1e5 // as calibration_bands.go writes them
	}
	return NewBand(group, n, len(bySource), q)
}

// medianLevel is the index of the band's median among its quantiles:
// BandLevel(9) = 0.5.
const medianLevel = (BandLevels - 1) / 2

// WidenBand returns b with its quantiles moved away from its median by
// factor s ≥ 1 (1 returns b), 0 kept inside: the widening the calibration
// finds a group's band needs to hold runs of sources it was not built on
// (data/calibration_cv_test.go, kindWidening).
func WidenBand(b Band, s float64) Band {
	if !(s > 1) {
		return b
	}
	q, last := b.q, BandLevels-1
	med := q[medianLevel]
	for i := range q {
		q[i] = math.Round((med+s*(q[i]-med))*1e5) / 1e5
	}
	q[0], q[last] = min(q[0], 0), max(q[last], 0)
	return NewBand(b.Group, b.Cases, b.Sources, q)
}

// WideningToHold returns the least factor WidenBand must apply to b for
// its range to hold residual r: 1 when r is inside, +Inf when b's end on
// r's side is its median.
func WideningToHold(b Band, r float64) float64 {
	q, last := b.q, BandLevels-1
	med := q[medianLevel]
	switch {
	case r > q[last]:
		if q[last] <= med {
			return math.Inf(1)
		}
		return (r - med) / (q[last] - med)
	case r < q[0]:
		if q[0] >= med {
			return math.Inf(1)
		}
		return (med - r) / (med - q[0])
	}
	return 1
}
