package model

import "testing"

// TestOnGPUsKeepsGlobalBatch: moving a job to n GPUs keeps its global
// batch (micro-batch × accumulation × data-parallel replicas), worked by
// hand: 1 × 16 on 1 GPU is 1 × 2 on 8 and 1 × 1 on 16; 4 × 4 on 1 GPU is
// 4 × 2 on 2 and 2 × 1 on 8 (the micro-batch shrinks once the accumulation
// is 1); TP 2 halves the replicas; 3 GPUs cannot share 16 samples; a
// micro-batch per GPU (no accumulation asked) moves as it is.
func TestOnGPUsKeepsGlobalBatch(t *testing.T) {
	train := func(micro, accum, tp int, perGPU bool) Workload {
		return Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: micro, GradAccum: accum, GPUs: 1 * tp, TP: tp}, BatchPerGPU: perGPU}
	}
	for _, tt := range []struct {
		name               string
		w                  Workload
		n                  int
		ok                 bool
		micro, accum, glob int
	}{
		{"1×16 on 8", train(1, 16, 1, false), 8, true, 1, 2, 16},
		{"1×16 on 16", train(1, 16, 1, false), 16, true, 1, 1, 16},
		{"1×16 on 3", train(1, 16, 1, false), 3, false, 0, 0, 0},
		{"1×16 on 32", train(1, 16, 1, false), 32, false, 0, 0, 0},
		{"4×4 on 2", train(4, 4, 1, false), 2, true, 4, 2, 16},
		{"4×4 on 8", train(4, 4, 1, false), 8, true, 2, 1, 16},
		{"6×1 on 4", train(6, 1, 1, false), 4, false, 0, 0, 0},
		{"TP 2: 2×8 on 8 GPUs is 4 replicas", train(2, 8, 2, false), 8, true, 2, 2, 16},
		{"per GPU: 4×1 on 8 stays 4×1", train(4, 1, 1, true), 8, true, 4, 1, 32},
	} {
		v, ok := tt.w.OnGPUs(tt.n)
		if ok != tt.ok || v.GPUs != tt.n {
			t.Errorf("%s: ok %v on %d GPUs, want %v on %d", tt.name, ok, v.GPUs, tt.ok, tt.n)
			continue
		}
		if ok && (v.MicroBatch != tt.micro || v.GradAccum != tt.accum || v.GlobalBatch() != tt.glob) {
			t.Errorf("%s: %d × %d, global %d; want %d × %d, global %d", tt.name, v.MicroBatch, v.GradAccum, v.GlobalBatch(), tt.micro, tt.accum, tt.glob)
		}
	}
}

// TestAdapterDefaults: LoRA and QLoRA with no batch named take the QLoRA
// recipe's one-sample micro-batch and accumulation 16, and keep that global
// batch; a micro-batch given alone is per GPU, as Trainer's is; full
// training keeps the model's micro-batch per GPU.
func TestAdapterDefaults(t *testing.T) {
	a := Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100, DefaultBatch: 4}
	for _, tt := range []struct {
		task         Task
		micro, accum int
		wantMicro    int
		wantAccum    int
		perGPU       bool
	}{
		{TaskLoRA, 0, 0, 1, AdapterGradAccum, false},
		{TaskQLoRA, 0, 0, 1, AdapterGradAccum, false},
		{TaskLoRA, 4, 0, 4, 1, true},
		{TaskLoRA, 0, 2, 4, 2, false},
		{TaskFinetune, 0, 0, 4, 1, true},
	} {
		w := Workload{Settings: Settings{Task: tt.task, MicroBatch: tt.micro, GradAccum: tt.accum}, Model: a}
		w.Defaults()
		if w.MicroBatch != tt.wantMicro || w.GradAccum != tt.wantAccum || w.BatchPerGPU != tt.perGPU {
			t.Errorf("%s batch %d accum %d: %d × %d, per GPU %v; want %d × %d, per GPU %v",
				tt.task, tt.micro, tt.accum, w.MicroBatch, w.GradAccum, w.BatchPerGPU, tt.wantMicro, tt.wantAccum, tt.perGPU)
		}
		w.Defaults() // idempotent
		if w.MicroBatch != tt.wantMicro || w.GradAccum != tt.wantAccum || w.BatchPerGPU != tt.perGPU {
			t.Errorf("%s: Defaults twice changed it", tt.task)
		}
	}
}

// TestAdapterDefaultsOnGPUs: LoRA's recipe batch of 16 on GPUs given is
// shared by them (8 GPUs: 1 × 2 each), not 16 steps on each (128); GPUs
// that cannot share it (3) take the per-GPU default.
func TestAdapterDefaultsOnGPUs(t *testing.T) {
	a := Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100, DefaultBatch: 4}
	for _, tt := range []struct{ gpus, micro, accum, global int }{{1, 1, 16, 16}, {8, 1, 2, 16}, {16, 1, 1, 16}, {3, 4, 1, 12}} {
		w := Workload{Settings: Settings{Task: TaskLoRA, GPUs: tt.gpus}, Model: a}
		w.Defaults()
		if w.MicroBatch != tt.micro || w.GradAccum != tt.accum || w.GlobalBatch() != tt.global {
			t.Errorf("%d GPUs: %d × %d, global %d; want %d × %d, global %d", tt.gpus, w.MicroBatch, w.GradAccum, w.GlobalBatch(), tt.micro, tt.accum, tt.global)
		}
	}
}
