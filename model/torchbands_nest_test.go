package model

import (
	"math"
	"testing"
)

// TestNestedTorchBands: reserved ≤ nvidia-smi − the memory outside the
// allocator, allocated ≤ reserved, on the ranges' tops; never below the
// point estimates; bottoms untouched. Values in GiB, the README's LoRA example before the bands widened:
// total 31.28, reserved 30.86 (outside 0.42), nvidia-smi top 37.74, so the
// reserved top 86.60 becomes 37.74 − 0.42 = 37.32 and the allocated top
// 37.72 the same 37.32.
func TestNestedTorchBands(t *testing.T) {
	for _, tt := range []struct {
		name                      string
		alloc, res, total, smiTop float64
		allocBand, resBand        [2]float64
		wantAlloc, wantRes        [2]float64
	}{
		{"README LoRA", 30.08, 30.86, 31.28, 37.74, [2]float64{25.99, 37.72}, [2]float64{27.29, 86.60},
			[2]float64{25.99, 37.32}, [2]float64{27.29, 37.32}},
		{"already nested", 10, 11, 12, 15, [2]float64{9, 12}, [2]float64{10, 13}, [2]float64{9, 12}, [2]float64{10, 13}},
		{"allocated over reserved only", 10, 11, 12, 20, [2]float64{9, 14}, [2]float64{10, 13}, [2]float64{9, 13}, [2]float64{10, 13}},
		// A nvidia-smi top below reserved + outside (it cannot be, the
		// bands hold 1): the tops stay at the points.
		{"never below the points", 10, 11, 12, 11.5, [2]float64{9, 14}, [2]float64{10, 13}, [2]float64{9, 11}, [2]float64{10, 11}},
	} {
		a, r := nestedTorchBands(tt.alloc, tt.res, tt.total, tt.smiTop, tt.allocBand, tt.resBand)
		near := func(x, y [2]float64) bool {
			return math.Abs(x[0]-y[0]) < 1e-9 && math.Abs(x[1]-y[1]) < 1e-9
		}
		if !near(a, tt.wantAlloc) || !near(r, tt.wantRes) {
			t.Errorf("%s: allocated %v, reserved %v; want %v, %v", tt.name, a, r, tt.wantAlloc, tt.wantRes)
		}
	}
}
