package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestMaxMicroBatch: the largest micro-batch that fits means what the ✓
// verdict means, its 90% band within the capacity (a new user's walk: a
// borderline 70B fine-tune was told "largest micro-batch that fits: 2",
// and batch 2 reached 82.90 GiB at 90%, past what the driver exposes);
// MaxBorderlineBatch is the largest that fits at the estimate alone.
func TestMaxMicroBatch(t *testing.T) {
	verdict := func(w model.Workload, b int, capBytes float64) model.FitVerdict {
		w.MicroBatch = b
		e, _ := model.Compute(w, nil)
		return model.MemoryVerdict(e.ResidentNeed(), e.ResidentBand(), capBytes)
	}
	for _, c := range []struct {
		name     string
		w        model.Workload
		capBytes float64
	}{
		{"7B QLoRA, 2048 tokens, on 24 GiB", model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, SeqLen: 2048}, Model: modeltest.Llama2_7B}, 24 * model.GiB},
		{"70B ZeRO-3 over 8, checkpointing, 8-bit AdamW, pure bf16, on 80 GB", model.Workload{Settings: model.Settings{Task: model.TaskFinetune, SeqLen: 4096, GPUs: 8, Strategy: model.ZeRO3,
			Checkpointing: model.Bool(true), Optimizer: model.AdamW8bit, Precision: model.BF16}, Model: llama31_70B}, 80 * model.GiB * (1 - model.FitMargin)},
	} {
		b, err := MaxMicroBatch(c.w, c.capBytes)
		if err != nil {
			t.Fatalf("%s: MaxMicroBatch() = %d, %v", c.name, b, err)
		}
		if b >= 1 && verdict(c.w, b, c.capBytes) != model.VerdictFits || verdict(c.w, b+1, c.capBytes) == model.VerdictFits {
			t.Errorf("%s: MaxMicroBatch() = %d: batch %d is %s, batch %d %s", c.name, b, b, verdict(c.w, b, c.capBytes), b+1, verdict(c.w, b+1, c.capBytes))
		}
		bb, err := MaxBorderlineBatch(c.w, c.capBytes)
		if err != nil || bb < b || verdict(c.w, bb, c.capBytes) == model.VerdictNoFit || verdict(c.w, bb+1, c.capBytes) != model.VerdictNoFit {
			t.Errorf("%s: MaxBorderlineBatch() = %d, %v: batch %d is %s, batch %d %s", c.name, bb, err, bb, verdict(c.w, bb, c.capBytes), bb+1, verdict(c.w, bb+1, c.capBytes))
		}
	}
	if b, _ := MaxMicroBatch(model.Workload{Settings: model.Settings{Task: model.TaskFinetune}, Model: modeltest.Llama2_7B}, 24*model.GiB); b != 0 {
		t.Errorf("full fine-tune of 7B on 24 GiB: MaxMicroBatch() = %d, want 0", b)
	}
}

func TestFitAdvice(t *testing.T) {
	// A global batch of 8 (1 × 8): sharding over up to 8 GPUs keeps it.
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 8, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	adv := FitAdvice(w, 80*model.GiB*(1-model.FitMargin))
	if len(adv) == 0 {
		t.Fatal("no advice for a full fine-tune of 7B on one 80 GiB GPU")
	}
	if !adv[0].Fits {
		t.Errorf("first advice %q does not fit", adv[0].Change)
	}
	var sawZeRO bool
	for _, a := range adv {
		e, _ := model.Compute(a.Workload, nil)
		if e.Memory.Total() != a.Total {
			t.Errorf("%q: Total %.4g B, recomputed %.4g B", a.Change, a.Total, e.Memory.Total())
		}
		sawZeRO = sawZeRO || a.Workload.Strategy == model.ZeRO3
		// Advice keeps the job (issue 31): never another task (LoRA for a
		// full fine-tune) or model.
		if a.Workload.Task != model.TaskFinetune || a.Workload.Model.Key != modeltest.Llama2_7B.Key {
			t.Errorf("%q changes the job: task %s, model %s", a.Change, a.Workload.Task, a.Workload.Model.Key)
		}
	}
	if !sawZeRO {
		t.Errorf("advice lacks ZeRO-3: %+v", adv)
	}
	// A global batch of one sample cannot be shared by two GPUs: no
	// sharding is advised rather than one that changes the batch.
	w.GradAccum = 1
	for _, a := range FitAdvice(w, 80*model.GiB*(1-model.FitMargin)) {
		if a.Workload.Strategy == model.ZeRO3 {
			t.Errorf("global batch 1: %q", a.Change)
		}
	}
}

// TestFitAdviceKeepsGlobalBatch: sharding over more GPUs keeps a global
// batch the job states (micro-batch 1 × accumulation 8 = 8): each of n
// GPUs accumulates 8 ÷ n, and a GPU count that cannot share it (none
// here up to 8) is not advised.
func TestFitAdviceKeepsGlobalBatch(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 8, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	for _, a := range FitAdvice(w, 40*model.GiB*(1-model.FitMargin)) {
		v := a.Workload
		if g := v.GlobalBatch(); g != 8 {
			t.Errorf("%q: global batch %d (micro-batch %d × accumulation %d × %d GPUs), want 8", a.Change, g, v.MicroBatch, v.GradAccum, v.GPUs)
		}
	}
}

func TestSameGlobalBatch(t *testing.T) {
	for _, tt := range []struct{ global, limit, micro, accum int }{
		{256, 160, 128, 2}, {1000, 160, 125, 8}, {768, 160, 128, 6}, {7, 4, 1, 7}, {64, 64, 64, 1},
	} {
		m, a := sameGlobalBatch(tt.global, tt.limit)
		if m != tt.micro || a != tt.accum || m*a != tt.global {
			t.Errorf("sameGlobalBatch(%d, %d) = %d × %d, want %d × %d", tt.global, tt.limit, m, a, tt.micro, tt.accum)
		}
	}
}

// TestFitAdviceKeepsGPUCount: an 8-GPU DDP job (recommend --gpus 8) that
// does not fit an H200 (141 GiB; 16 bytes × 8B parameters of model states
// alone are 119 GiB) is advised to shard over its own 8 GPUs, never fewer
// though 2 would fit: with
// ZeRO-3 the model states split 8 ways (Rajbhandari et al., 2020, §5.3),
// and 2 GPUs would be another job (issue 31).
func TestFitAdviceKeepsGPUCount(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, GPUs: 8, Strategy: model.DDP, MicroBatch: 4, GradAccum: 4, SeqLen: 2048}, Model: modeltest.Llama31_8B}
	var saw bool
	for _, a := range FitAdvice(w, 141*model.GiB*(1-model.FitMargin)) {
		if a.Workload.Strategy != model.ZeRO3 {
			continue
		}
		saw = true
		if a.Workload.GPUs < 8 {
			t.Errorf("%q shards over %d GPUs, fewer than the job's 8", a.Change, a.Workload.GPUs)
		}
	}
	if !saw {
		t.Error("no ZeRO-3 advice for an 8-GPU DDP job that does not fit")
	}
}

// Sharding tries a smaller micro-batch with more accumulation on the
// job's own GPUs before more GPUs: Llama 3.1 8B fully fine-tuned on 8 H100s
// at micro-batch 4 × 4096 tokens needs ~300 GiB a GPU under DDP; ZeRO-3
// over 8 at micro-batch 4 still holds four samples' activations, but at
// micro-batch 1 × accumulation 4 (the same global batch of 32) it fits,
// where the advice said ZeRO-3 over 32 GPUs (new-user walk).
func TestFitAdviceShardsOnItsGPUsAtSmallerMicroBatch(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, GPUs: 8, Strategy: model.DDP, MicroBatch: 4, GradAccum: 1, SeqLen: 4096}, Model: modeltest.Llama31_8B}
	capBytes := 79.19 * model.GiB * (1 - model.FitMargin)
	var saw bool
	for _, a := range FitAdvice(w, capBytes) {
		if a.Workload.Strategy != model.ZeRO3 {
			continue
		}
		saw = true
		v := a.Workload
		if v.GPUs != 8 || v.MicroBatch*v.GradAccum*v.GPUs != 32 || !a.Fits {
			t.Errorf("%q: ZeRO-3 over %d GPUs at %d × %d (fits %v); want over the job's 8 at the same global batch of 32, fitting", a.Change, v.GPUs, v.MicroBatch, v.GradAccum, a.Fits)
		}
	}
	if !saw {
		t.Error("no ZeRO-3 advice")
	}
}

// TestFitAdviceQuantizesCausalLMsOnly: int8/int4 weights (GPTQ/AWQ) are
// advised for a causal LM's inference, never for an encoder's, which has
// no such checkpoint (quantizableWeights; a new user's walk: estimate
// --gpu t4 advised ModernBERT's "int4-quantized weights (GPTQ/AWQ)").
func TestFitAdviceQuantizesCausalLMsOnly(t *testing.T) {
	quantized := func(a model.Architecture) (n int) {
		w := model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.BF16, SeqLen: 512}, Model: a}
		for _, adv := range FitAdvice(w, 1*model.GiB) {
			if adv.Workload.Precision == model.INT8 || adv.Workload.Precision == model.INT4 {
				n++
			}
		}
		return n
	}
	if n := quantized(modeltest.Llama2_7B); n != 2 {
		t.Errorf("Llama 2 7B inference on 1 GiB: %d int8/int4 advices, want 2", n)
	}
	bert := model.Architecture{Key: "bert-base", Family: model.FamilyEncoder, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072,
		Vocab: 30522, Tied: true, LinearBias: true, LearnedPositions: 512, TokenTypes: 2, Pooler: true}
	if n := quantized(bert); n != 0 {
		t.Errorf("BERT inference on 1 GiB: %d int8/int4 advices, want none", n)
	}
}
