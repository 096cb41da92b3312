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
		{TaskLoRA, 3, 1, 0, 1, 5, false, "batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation stays, at 5: 3 data-parallel GPUs cannot share its global batch of 16, so the nearest they share, 15; give --grad-accum 1 for none"},                                  // 3 GPUs cannot share 16: 1 × 5 × 3 (was 1 × 1, a global batch of 3, unsaid)
		{TaskLoRA, 1, 2, 3, 2, 3, false, ""}, // both given: left alone
		{TaskLoRA, 3, 0, 0, 1, 5, false, "batch: 3 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), so the nearest they share: 15 = micro-batch 1 × accumulation 5 × 3 GPUs; give --batch-size or --grad-accum to change it"},
		{TaskQLoRA, 6, 0, 0, 1, 3, false, "batch: 6 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), so the nearest they share: 18 = micro-batch 1 × accumulation 3 × 6 GPUs; give --batch-size or --grad-accum to change it"},
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
// that cannot share it take the global batch nearest 16 they share (3:
// 1 × 5 = 15; 6: 1 × 3 = 18; 32: 1 × 1 = 32), not 1 per GPU (3 on 3).
func TestAdapterDefaultsOnGPUs(t *testing.T) {
	a := Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 2, Vocab: 100, DefaultBatch: 4}
	for _, tt := range []struct{ gpus, micro, accum, global int }{{1, 1, 16, 16}, {8, 1, 2, 16}, {16, 1, 1, 16}, {3, 1, 5, 15}, {5, 1, 3, 15}, {6, 1, 3, 18}, {7, 1, 2, 14}, {32, 1, 1, 32}} {
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
		{1, 0, 3, "batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation stays, at 5: 3 data-parallel GPUs cannot share its global batch of 16, so the nearest they share, 15; give --grad-accum 1 for none"},
		{0, 0, 3, "batch: 3 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), so the nearest they share: 15 = micro-batch 1 × accumulation 5 × 3 GPUs; give --batch-size or --grad-accum to change it"},
		{0, 0, 6, "batch: 6 data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of 16 (artidoro/qlora qlora.py), so the nearest they share: 18 = micro-batch 1 × accumulation 3 × 6 GPUs; give --batch-size or --grad-accum to change it"},
	} {
		w := Workload{Settings: Settings{Task: TaskLoRA, GPUs: 1, MicroBatch: tt.micro, GradAccum: tt.accum}, Model: a}
		w.Defaults()
		v, _ := w.OnGPUs(tt.n)
		if got := v.BatchNote().String(); got != tt.note {
			t.Errorf("batch %d accum %d on %d GPUs: note %q, want %q", tt.micro, tt.accum, tt.n, got, tt.note)
		}
	}
}

// TestAdapterRecipeOnGPUsAgrees: the recipe's batch on one GPU moved to
// n (recommend, export: OnGPUs) is the one estimate --gpus n gives
// (Defaults), with the same note: 3 GPUs ran 1 × 1 from estimate and
// were refused by recommend ("GPUs cannot share a global batch of 16").
func TestAdapterRecipeOnGPUsAgrees(t *testing.T) {
	a := Architecture{Name: "m", Layers: 2, Hidden: 64, Heads: 4, Vocab: 100, Params: 1e6, DefaultBatch: 4, DefaultSeqLen: 128}
	for _, micro := range []int{0, 1} {
		one := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: micro}, Model: a}
		one.Defaults()
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32} {
			on := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: micro, GPUs: n}, Model: a}
			on.Defaults()
			v, ok := one.OnGPUs(n)
			if !ok || v.MicroBatch != on.MicroBatch || v.GradAccum != on.GradAccum || v.BatchNote().String() != on.BatchNote().String() {
				t.Errorf("micro %d, %d GPUs: OnGPUs %d × %d (ok %v, %q); Defaults %d × %d (%q)", micro, n, v.MicroBatch, v.GradAccum, ok, v.BatchNote().String(), on.MicroBatch, on.GradAccum, on.BatchNote().String())
			}
			if _, changed := v.GlobalBatchChange(); changed {
				t.Errorf("micro %d, %d GPUs: a second line, GlobalBatchChange, beside the batch note", micro, n)
			}
		}
	}
}
