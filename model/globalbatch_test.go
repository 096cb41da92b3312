package model

import (
	"fmt"
	"testing"
)

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

// TestAdapterDefaults: LoRA and QLoRA take the QLoRA recipe (micro-batch 1
// × accumulation 16, global 16) for the parts the request leaves out, and a
// part given never grows another: --grad-accum alone keeps micro-batch 1
// (was: the model's default batch 4, ×2.7 VRAM for an 8B QLoRA); a
// micro-batch of 1 alone (the recipe's, what the configurator shows) keeps
// the recipe's accumulation; another is per GPU, as Trainer's. Full training
// keeps the model's micro-batch per GPU. Each row's note is the printed
// assumption, English text in full.
func TestAdapterDefaults(t *testing.T) {
	a := Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100, DefaultBatch: 4}
	for _, tt := range []struct {
		task         Task
		gpus         int
		micro, accum int
		wantMicro    int
		wantAccum    int
		perGPU       bool
		note         string
	}{
		{TaskLoRA, 1, 0, 0, 1, 16, false, "batch: the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), micro-batch 1 × accumulation 16 × 1 data-parallel GPUs; give --batch-size or --grad-accum to change it"},
		{TaskQLoRA, 1, 0, 0, 1, 16, false, "batch: the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), micro-batch 1 × accumulation 16 × 1 data-parallel GPUs; give --batch-size or --grad-accum to change it"},
		{TaskQLoRA, 1, 0, 16, 1, 16, false, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation 16 given × 1 data-parallel GPUs = global batch 16"},
		{TaskQLoRA, 1, 0, 1, 1, 1, false, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation 1 given × 1 data-parallel GPUs = global batch 1"},
		{TaskLoRA, 1, 0, 2, 1, 2, false, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation 2 given × 1 data-parallel GPUs = global batch 2"},
		{TaskLoRA, 2, 0, 4, 1, 4, false, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation 4 given × 2 data-parallel GPUs = global batch 8"},
		{TaskLoRA, 1, 1, 0, 1, 16, false, "batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation 16 stays (global batch 16 on 1 data-parallel GPUs); give --grad-accum 1 for none"},
		{TaskLoRA, 4, 1, 0, 1, 4, false, "batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation 4 stays (global batch 16 on 4 data-parallel GPUs); give --grad-accum 1 for none"},
		{TaskLoRA, 1, 4, 0, 4, 1, true, "batch: micro-batch 4 given is per GPU with no accumulation (Trainer's gradient_accumulation_steps=1), global batch 4 on 1 data-parallel GPUs, not the LoRA/QLoRA recipe's 16 (micro-batch 1 × accumulation 16); give --grad-accum to accumulate"}, // per GPU, as Trainer's, and said (a new user's --batch-size 2 lost accumulation 16 silently)
		{TaskLoRA, 3, 1, 0, 1, 1, true, ""},  // 3 GPUs cannot share 16
		{TaskLoRA, 1, 2, 3, 2, 3, false, ""}, // both given: left alone
		{TaskLoRA, 3, 0, 0, 1, 1, true, "batch: 3 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16: micro-batch 1 per GPU, no accumulation"},
		{TaskFinetune, 1, 0, 0, 4, 1, true, ""},
		{TaskFinetune, 1, 0, 8, 4, 8, false, ""}, // the model's micro-batch, with or without --grad-accum
	} {
		w := Workload{Settings: Settings{Task: tt.task, GPUs: tt.gpus, MicroBatch: tt.micro, GradAccum: tt.accum}, Model: a}
		w.Defaults()
		name := fmt.Sprintf("%s on %d GPUs, batch %d accum %d", tt.task, tt.gpus, tt.micro, tt.accum)
		if w.MicroBatch != tt.wantMicro || w.GradAccum != tt.wantAccum || w.BatchPerGPU != tt.perGPU {
			t.Errorf("%s: %d × %d, per GPU %v; want %d × %d, per GPU %v",
				name, w.MicroBatch, w.GradAccum, w.BatchPerGPU, tt.wantMicro, tt.wantAccum, tt.perGPU)
		}
		if note := w.BatchNote(); note.IsZero() && tt.note != "" || !note.IsZero() && note.String() != tt.note {
			t.Errorf("%s: note %q, want %q", name, note.String(), tt.note)
		}
		w.Defaults() // idempotent
		if w.MicroBatch != tt.wantMicro || w.GradAccum != tt.wantAccum || w.BatchPerGPU != tt.perGPU {
			t.Errorf("%s: Defaults twice changed it", name)
		}
	}
}

// TestAdapterDefaultsOnGPUs: LoRA's recipe batch of 16 on GPUs given is
// shared by them (8 GPUs: 1 × 2 each), not 16 steps on each (128); GPUs
// that cannot share it (3) take micro-batch 1 per GPU (was the model's 4).
func TestAdapterDefaultsOnGPUs(t *testing.T) {
	a := Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100, DefaultBatch: 4}
	for _, tt := range []struct{ gpus, micro, accum, global int }{{1, 1, 16, 16}, {8, 1, 2, 16}, {16, 1, 1, 16}, {3, 1, 1, 3}} {
		w := Workload{Settings: Settings{Task: TaskLoRA, GPUs: tt.gpus}, Model: a}
		w.Defaults()
		if w.MicroBatch != tt.micro || w.GradAccum != tt.accum || w.GlobalBatch() != tt.global {
			t.Errorf("%d GPUs: %d × %d, global %d; want %d × %d, global %d", tt.gpus, w.MicroBatch, w.GradAccum, w.GlobalBatch(), tt.micro, tt.accum, tt.global)
		}
	}
}

// TestAdapterBatchNoteOnGPUs: the adapter recipe's batch note says the
// batch on the GPUs OnGPUs moves the job to (walk37: a phase's answers
// on 1 GPU estimated on its offer's 8 said "accumulation 16 stays
// (global batch 16 on 1 data-parallel GPUs)" of a job on 8 GPUs with
// accumulation 2), and is dropped when they cannot share the batch
// (GlobalBatchChange says it).
func TestAdapterBatchNoteOnGPUs(t *testing.T) {
	a := Architecture{Name: "m", Layers: 2, Hidden: 64, Heads: 4, Vocab: 100, Params: 1e6, DefaultBatch: 4, DefaultSeqLen: 128}
	for _, tt := range []struct {
		micro, accum, n int
		note            string
	}{
		{1, 0, 8, "batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation 2 stays (global batch 16 on 8 data-parallel GPUs); give --grad-accum 1 for none"},
		{0, 0, 4, "batch: the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), micro-batch 1 × accumulation 4 × 4 data-parallel GPUs; give --batch-size or --grad-accum to change it"},
		{0, 16, 8, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × accumulation 2 × 8 data-parallel GPUs = global batch 16, the one the accumulation 16 given makes, kept on these GPUs"},
		{0, 16, 1, "batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation 16 given × 1 data-parallel GPUs = global batch 16"},
		{4, 0, 8, "batch: micro-batch 4 given is per GPU with no accumulation (Trainer's gradient_accumulation_steps=1), global batch 32 on 8 data-parallel GPUs, not the LoRA/QLoRA recipe's 16 (micro-batch 1 × accumulation 16); give --grad-accum to accumulate"},
		{1, 0, 3, ""}, // 16 on 3 GPUs: GlobalBatchChange says it
	} {
		w := Workload{Settings: Settings{Task: TaskLoRA, GPUs: 1, MicroBatch: tt.micro, GradAccum: tt.accum}, Model: a}
		w.Defaults()
		v, _ := w.OnGPUs(tt.n)
		if got := v.BatchNote().String(); got != tt.note {
			t.Errorf("batch %d accum %d on %d GPUs: note %q, want %q", tt.micro, tt.accum, tt.n, got, tt.note)
		}
	}
}
