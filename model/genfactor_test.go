package model

import (
	"math"
	"testing"
)

// TestGenFactorParity: per MLPerf Training (v5.0 Llama 2 70B LoRA:
// MI300X "slightly worse" than H100; v6.0: MI355X "within 5% of NVIDIA
// B200"), an AMD CDNA 3/4 GPU trains at its NVIDIA peer's speed, not at
// its higher peak: peak × HFU factor is equal.
func TestGenFactorParity(t *testing.T) {
	tn := &Tuning{HopperFactor: 0.68}
	for _, tc := range []struct {
		amd, nvidia GPU
	}{
		{GPU{Key: "mi300x", Architecture: "cdna3", BF16TFLOPS: 1307.4}, GPU{Key: "h100-sxm", Architecture: "hopper", BF16TFLOPS: 989.5}},
		{GPU{Key: "mi355x", Architecture: "cdna4", BF16TFLOPS: 2516.6}, GPU{Key: "b200", Architecture: "blackwell", BF16TFLOPS: 2250}},
	} {
		a := tc.amd.BF16TFLOPS * genFactor(&tc.amd, tn)
		n := tc.nvidia.BF16TFLOPS * genFactor(&tc.nvidia, tn)
		if math.Abs(a/n-1) > 1e-9 {
			t.Errorf("%s: %.1f effective TFLOPS, %s %.1f: want equal", tc.amd.Key, a, tc.nvidia.Key, n)
		}
	}
	// By hand: 0.68 × 989.5 / 1307.4 = 0.5146; 0.68 × 2250 / 2516.6 = 0.6080.
	if got := genFactor(&GPU{Architecture: "cdna3"}, tn); math.Abs(got-0.5146) > 5e-4 {
		t.Errorf("cdna3 factor %.4f, want 0.5146", got)
	}
	if got := genFactor(&GPU{Architecture: "cdna4"}, tn); math.Abs(got-0.6080) > 5e-4 {
		t.Errorf("cdna4 factor %.4f, want 0.6080", got)
	}
	if got := genFactor(&GPU{Architecture: "ampere"}, tn); got != 1 {
		t.Errorf("ampere factor %v, want 1", got)
	}
}
