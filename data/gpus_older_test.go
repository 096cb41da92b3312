package data

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOlderConsumerGPUs holds the cards issue 30's held-out users named
// (published benchmarks on Pascal GeForce, Volta and Turing Titans, the RTX
// 2080 Ti) to their datasheet figures, and the rules the rows follow:
// Pascal GeForce has no fast FP16, so autocast's matmuls run at the fp32
// rate; Turing GeForce stores the FP32-accumulate tensor rate, which the
// Turing whitepaper's Appendix A prints at half the FP16-accumulate rate
// (53.8 against 107.6 TFLOPS for the RTX 2080 Ti, 4× its 13.4 FP32).
func TestOlderConsumerGPUs(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key            string
		gib            float64
		gbps, fp32, pk float64 // pk: the amp-fp16 peak autocast runs at
		runs           model.Precision
	}{
		{"gtx-1060", 6, 192, 4.4, 4.4, model.FP32},
		{"gtx-1080-ti", 11, 484, 11.3, 11.3, model.FP32},
		{"titan-v", 12, 652.8, 14.9, 110, model.AMPFP16},
		{"rtx-2080-ti", 11, 616, 13.4, 53.8, model.AMPFP16},
		{"titan-rtx", 24, 672, 16.3, 130, model.AMPFP16},
	} {
		g, err := cat.GPU(tt.key)
		if err != nil {
			t.Errorf("%s: %v", tt.key, err)
			continue
		}
		if g.MemoryGiB != tt.gib || g.MemoryBandwidthGBps != tt.gbps || g.FP32TFLOPS != tt.fp32 {
			t.Errorf("%s: %v GiB, %v GB/s, %v TFLOPS fp32; want %v, %v, %v", tt.key, g.MemoryGiB, g.MemoryBandwidthGBps, g.FP32TFLOPS, tt.gib, tt.gbps, tt.fp32)
		}
		if got := g.PeakTFLOPS(model.AMPFP16); got != tt.pk || g.ComputePrecision(model.AMPFP16) != tt.runs {
			t.Errorf("%s: amp-fp16 runs as %s at %v TFLOPS, want %s at %v", tt.key, g.ComputePrecision(model.AMPFP16), got, tt.runs, tt.pk)
		}
		if g.BF16TFLOPS != 0 || g.TF32TFLOPS != 0 {
			t.Errorf("%s: bf16/tf32 need Ampere; got %v/%v", tt.key, g.BF16TFLOPS, g.TF32TFLOPS)
		}
		if g.Source == "" || g.AsOf == "" {
			t.Errorf("%s: no source or as_of", tt.key)
		}
	}
	g, err := cat.GPU("rtx-2080-ti")
	if err == nil && math.Abs(g.FP16TFLOPS/g.FP32TFLOPS-4) > 0.05 {
		t.Errorf("rtx-2080-ti: fp16 %v is %.2f× fp32, want 4× (FP32-accumulate, half the FP16-accumulate 8×)", g.FP16TFLOPS, g.FP16TFLOPS/g.FP32TFLOPS)
	}
}
