package model

import "testing"

// TestCheckFitRefusesPureBF16: pure bf16 training on a GPU without bf16
// (V100, compute capability 7.0) cannot run, whatever the memory: there is
// no fallback (GPU.RunPrecision), as Recommend rejects it, so CheckFit says
// so rather than "fits"; amp-fp16 on the same GPU, and pure bf16 on an
// A100, are judged on memory alone.
func TestCheckFitRefusesPureBF16(t *testing.T) {
	v100 := fuzzV100
	a100 := GPU{Key: "a100", Name: "A100", Vendor: "nvidia", ComputeCapability: "8.0", MemoryGiB: 80, FP16TFLOPS: 312, BF16TFLOPS: 312}
	small := Architecture{Key: "small", Family: FamilyDecoder, Layers: 2, Hidden: 256, Heads: 4, FFN: 1024, Vocab: 1000, MaxPositions: 512}
	for _, tt := range []struct {
		name    string
		g       *GPU
		p       Precision
		refused bool
	}{
		{"pure bf16 on V100", &v100, BF16, true},
		{"amp-fp16 on V100", &v100, AMPFP16, false},
		{"pure bf16 on A100", &a100, BF16, false},
	} {
		w := Workload{Settings: Settings{Task: TaskFinetune, Precision: tt.p, MicroBatch: 1, SeqLen: 128}, Model: small}
		e, err := Compute(w, tt.g)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		f := CheckFit(&e, tt.g)
		if got := !f.Refused.IsZero(); got != tt.refused || f.Fits == tt.refused || (f.Verdict == VerdictCannotRun) != tt.refused {
			t.Errorf("%s: refused %v (%q), fits %v, verdict %s; want refused %v", tt.name, got, f.Refused.String(), f.Fits, f.Verdict, tt.refused)
		}
		if tt.refused && len(f.Advice) > 0 {
			t.Errorf("%s: memory advice %v for a GPU that cannot run the precision", tt.name, f.Advice)
		}
	}
}

// fuzzV100 is a Volta GPU (no bf16, no fp8 in vLLM) as the catalog has it.
var fuzzV100 = GPU{Key: "v100-16gb", Name: "NVIDIA V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryGiB: 16,
	MemoryBandwidthGBps: 900, FP16TFLOPS: 125, Interconnect: "nvlink", InterconnectGBps: 300}
