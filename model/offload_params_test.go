package model

import (
	"slices"
	"strings"
	"testing"
)

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

// DeepSpeed offload on one data-parallel GPU: the engine keeps its ZeRO
// stage whatever the world size, the partition is the whole model, and
// offload moves it to host RAM as on more ranks (newStepShape). Hand-
// worked for a 4-layer decoder (p parameters, far below
// stage3_prefetch_bucket_size, so ZeRO-3 gathers the whole model, 2p B)
// under the deepspeed recipe with AdamW: 2 B weights, 2 B gradients, 12 B
// fp32 master and moments per parameter. The step's fp32 gradient is the
// sub-group's under ZeRO-3, min(p/dp, 1e9) × 4 B, and the flattened
// partition's under ZeRO-1/2, 4p/dp B (or 4p B below stage 2: shard(1)).
// Per GPU in bytes, GPU weights, GPU gradient partition (the reduce
// bucket aside), GPU optimizer states, host RAM:
//
//	zero3 offload_param,       dp 1:  0,  2p, 12p, 2p         (gathered 2p)
//	zero3 offload_param,       dp 2:  0,   p,  6p, p          (gathered 2p)
//	zero3 both,                dp 1:  0,  2p,   0, 2p+12p+4p
//	zero3 both,                dp 2:  0,   p,   0, p+6p+2p
//	zero2 offload_optimizer,   dp 1: 2p,  2p,   0, 12p+4p
//	zero2 offload_optimizer,   dp 2: 2p,   p,   0, 6p+2p
//	zero1 offload_optimizer,   dp 1: 2p,  2p,   0, 12p+4p
//	zero1 offload_optimizer,   dp 2: 2p,  2p,   0, 6p+2p
func TestOffloadOneGPU(t *testing.T) {
	tiny := Architecture{Family: FamilyDecoder, Layers: 4, Hidden: 64, Heads: 4, FFN: 256, Vocab: 1000, GatedMLP: true, Norm: RMSNorm}
	for _, tt := range []struct {
		name                   string
		strategy               Strategy
		gpus                   int
		sw                     Switches
		weights, grads, states float64 // × p bytes on the GPU
		gathered, host         float64 // × p bytes
	}{
		{"zero3 params dp1", ZeRO3, 1, Switches{OffloadParams: true}, 0, 2, 12, 2, 2},
		{"zero3 params dp2", ZeRO3, 2, Switches{OffloadParams: true}, 0, 1, 6, 2, 1},
		{"zero3 both dp1", ZeRO3, 1, Switches{OffloadParams: true, OffloadOptimizer: true}, 0, 2, 0, 2, 18},
		{"zero3 both dp2", ZeRO3, 2, Switches{OffloadParams: true, OffloadOptimizer: true}, 0, 1, 0, 2, 9},
		{"zero2 optimizer dp1", ZeRO2, 1, Switches{OffloadOptimizer: true}, 2, 2, 0, 0, 16},
		{"zero2 optimizer dp2", ZeRO2, 2, Switches{OffloadOptimizer: true}, 2, 1, 0, 0, 8},
		{"zero1 optimizer dp1", ZeRO1, 1, Switches{OffloadOptimizer: true}, 2, 2, 0, 0, 16},
		{"zero1 optimizer dp2", ZeRO1, 2, Switches{OffloadOptimizer: true}, 2, 2, 0, 0, 8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 128,
				GPUs: tt.gpus, Strategy: tt.strategy, Checkpointing: Bool(true), Switches: tt.sw}, Model: tiny}
			e, err := Compute(w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if e.Recipe != RecipeDeepSpeed {
				t.Fatalf("recipe %s, want deepspeed", e.Recipe)
			}
			p := e.Params
			if p > DSPrefetchBucketSize {
				t.Fatalf("%g parameters: not below the prefetch bucket", p)
			}
			m := e.States
			for _, c := range []struct {
				what      string
				got, want float64
			}{
				{"GPU weights", m.Weights, tt.weights * p},
				{"GPU gathered", m.Gathered, tt.gathered * p},
				{"GPU gradients", m.Gradients, tt.grads * p},
				{"GPU optimizer states", m.OptimizerStates, tt.states * p},
				{"host RAM", m.HostOffload, tt.host * p},
			} {
				if !near(c.got, c.want, 1e-12) {
					t.Errorf("%s %.0f B, want %.0f", c.what, c.got, c.want)
				}
			}
			for _, msg := range w.Warnings() {
				if strings.Contains(msg, "shards nothing") {
					t.Errorf("warning %q with offload on", msg)
				}
			}
		})
	}
}

// The single-GPU ZeRO-3 step under DeepSpeed is stage 3's, by sub-group:
// Llama 3.1 8B with both offloads on one GPU keeps 2p B of parameters and
// 12p B of states plus a 1e9-element fp32 gradient (sub_group_size) in
// host RAM, not the stage-1/2 flattened 4p B.
func TestOffloadOneGPUSubGroup(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 1, Strategy: ZeRO3,
		Switches: Switches{OffloadParams: true, OffloadOptimizer: true}}, Model: llama31_8B}
	e, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := e.Params
	if got, want := e.States.HostOffload, 14*p+4e9; !near(got, want, 1e-9) {
		t.Errorf("host RAM %.6g B, want %.6g", got, want)
	}
	if e.States.Weights != 0 {
		t.Errorf("parameter partition on the GPU: %.4g B", e.States.Weights)
	}
	// Without offload the warning stays: nothing is sharded or moved.
	w.Switches = Switches{}
	if !slices.ContainsFunc(w.Warnings(), func(s string) bool { return strings.Contains(s, "shards nothing") }) {
		t.Errorf("no shards-nothing warning without offload: %q", w.Warnings())
	}
}
