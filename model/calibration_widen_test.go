package model

import (
	"math"
	"testing"
)

// widenTestBand is a band whose log-ratio quantiles run evenly from −0.18
// (level 0.05) to +0.18 (level 0.95), 0.02 apart, its median (level 0.5)
// at 0.
func widenTestBand() Band {
	var q [BandLevels]float64
	for i := range q {
		q[i] = -0.18 + 0.02*float64(i)
	}
	return NewBand("memory/test", 30, 5, q)
}

// TestWidenBand: WidenBand moves every quantile away from the median by
// the factor, keeps 0 inside, and a factor of 1 or less leaves the band.
func TestWidenBand(t *testing.T) {
	b := widenTestBand()
	// By hand: the median is q[9] = −0.18 + 0.18 = 0; ×1.5 sends the ends
	// to ∓0.27 and q[4] (−0.10) to −0.15.
	w := WidenBand(b, 1.5).Quantiles()
	for i, want := range map[int]float64{0: -0.27, 4: -0.15, 9: 0, 18: 0.27} {
		if math.Abs(w[i]-want) > 1e-9 {
			t.Errorf("q[%d] = %.5f, want %.5f", i, w[i], want)
		}
	}
	if got := WidenBand(b, 1.5); math.Abs(got.Hi-math.Exp(0.27)) > 1e-9 || got.Cases != 30 || got.Sources != 5 || got.Group != "memory/test" {
		t.Errorf("widened band %+v", got)
	}
	for _, s := range []float64{1, 0.5, math.NaN()} {
		if got := WidenBand(b, s); got.Quantiles() != b.Quantiles() {
			t.Errorf("factor %v changed the band: %v", s, got.Quantiles())
		}
	}
	// A band all above 0 (every residual an under-estimate) keeps 0 inside
	// once widened: median 0.2, ends 0.1 and 0.3 → ×2 gives 0 and 0.4.
	var q [BandLevels]float64
	for i := range q {
		q[i] = 0.1 + 0.2*float64(i)/float64(BandLevels-1)
	}
	got := WidenBand(NewBand("g", 3, 3, q), 2).Quantiles()
	if math.Abs(got[0]) > 1e-9 || math.Abs(got[BandLevels-1]-0.4) > 1e-9 {
		t.Errorf("ends %.5f, %.5f, want 0 and 0.4", got[0], got[BandLevels-1])
	}
}

// TestWideningToHold: the least factor that brings a residual inside,
// worked by hand on widenTestBand (ends ∓0.18 about a median of 0).
func TestWideningToHold(t *testing.T) {
	b := widenTestBand()
	for _, c := range []struct{ r, want float64 }{
		{0.05, 1},       // inside
		{0.18, 1},       // on the top
		{0.27, 1.5},     // 0.27 / 0.18
		{-0.36, 2},      // 0.36 / 0.18
		{-0.18001, 1.0}, // past the bottom by a hair: just over 1
	} {
		got := WideningToHold(b, c.r)
		if math.Abs(got-c.want) > 1e-4 {
			t.Errorf("r = %v: %.5f, want %.5f", c.r, got, c.want)
		}
		if !(WidenBand(b, got+1e-9).Lo <= math.Exp(c.r)+1e-9 && math.Exp(c.r) <= WidenBand(b, got+1e-9).Hi+1e-9) {
			t.Errorf("r = %v: widened by %.5f the band does not hold it", c.r, got)
		}
	}
	// An end at the median cannot be widened to reach past it.
	var q [BandLevels]float64
	if got := WideningToHold(NewBand("g", 3, 3, q), 0.1); !math.IsInf(got, 1) {
		t.Errorf("a band of zeros: %v, want +Inf", got)
	}
}
