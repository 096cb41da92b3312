package model

import "testing"

// ZeRO-3 parameter offload (Settings.OffloadParams) moves the 16-bit
// parameter partition, 2 B per parameter over the 8 ranks under the
// deepspeed recipe, to host RAM; the GPU keeps the gathered parameters:
// Llama 3.1 8B's largest module, the 128256 × 4096 embedding, plus
// stage3_prefetch_bucket_size = 5e7 (a block, 218M parameters, is bigger),
// 575,336,576 parameters × 2 B = 1,150,673,152 B, with or without offload.
// With the optimizer offloaded too, host RAM adds 12 B per parameter of
// AdamW states over 8 ranks and the sub-group's fp32 gradient,
// min(p/8, sub_group_size = 1e9) × 4 B = 4e9 B (p/8 ≈ 1.004e9).
func TestOffloadParams(t *testing.T) {
	const gathered = (128256*4096 + 5e7) * 2
	for _, tt := range []struct {
		name      string
		optimizer bool
		host      func(p float64) float64 // bytes per GPU in host RAM
	}{
		{"params", false, func(p float64) float64 { return 2 * p / 8 }},
		{"params and optimizer", true, func(p float64) float64 { return 2*p/8 + 12*p/8 + 4e9 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 8, Strategy: ZeRO3}, Model: llama31_8B}
			base, off := withSwitches(t, w, Switches{OffloadParams: true, OffloadOptimizer: tt.optimizer})
			p := base.Params
			if got, want := base.States.Weights, 2*p/8; !near(got, want, 1e-9) {
				t.Fatalf("without offload: weights %.4g B, want %.4g", got, want)
			}
			if off.States.Weights != 0 || off.Memory.Weights != 0 {
				t.Errorf("offloaded parameter partition on the GPU: %.4g B", off.Memory.Weights)
			}
			for _, g := range []float64{base.States.Gathered, off.States.Gathered} {
				if !near(g, gathered, 1e-9) {
					t.Errorf("gathered %.10g B, want %.10g", g, float64(gathered))
				}
			}
			if got, want := off.States.HostOffload, tt.host(p); !near(got, want, 1e-9) {
				t.Errorf("host RAM %.4g B per GPU, want %.4g", got, want)
			}
			if off.Memory.Total() >= base.Memory.Total() {
				t.Errorf("GPU total %.4g B with offload, not below %.4g", off.Memory.Total(), base.Memory.Total())
			}
		})
	}
}
