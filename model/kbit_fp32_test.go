package model

import (
	"math"
	"testing"
)

// TestKbitFP32 works out by hand what peft's prepare_model_for_kbit_training
// adds to a Llama 3.1 8B QLoRA (vocab 128256, hidden 4096, 32 layers, untied
// head): embed_tokens and lm_head, 128256 × 4096 = 525,336,576 parameters
// each, and the 2·32 + 1 RMSNorm weights of 4096, 266,240 in all —
// 1,050,939,392 parameters at 4 B instead of 2, 2,101,878,784 B more —
// on the Hugging Face path without autocast, on one GPU or DDP only, with
// an fp32 stream: checkpointed block inputs 32·s·b·h at 4 B, the native
// loss's logits and log-softmax 2·s·b·v at 4 B. Under autocast TRL casts
// embeddings and head back to bf16 (or, from 0.26, never casts): nothing.
func TestKbitFP32(t *testing.T) {
	const extra = 2 * (2*128256*4096 + (2*32+1)*4096) // bytes
	s, b, h, v := 2048.0, 2.0, 4096.0, 128256.0
	tests := []struct {
		name      string
		set       Settings
		weights   float64 // HF minus torchtune weights, bytes
		stream    bool    // activations at 4 B where torchtune's are 2
		wantKbit  bool
		gpus      int
		precision Precision
	}{
		{"one GPU, amp-bf16: TRL keeps embeddings and head bf16", Settings{Strategy: Single}, 0, false, false, 1, AMPBF16},
		{"one GPU, pure bf16: fp32 params and stream", Settings{Strategy: Single}, extra, true, true, 1, BF16},
		{"DDP, pure fp16", Settings{Strategy: DDP}, extra, true, true, 2, FP16},
		{"fp32: already 4 B either way", Settings{Strategy: Single}, 0, false, false, 1, FP32},
		{"FSDP: sharded QLoRA skips it", Settings{Strategy: FSDP}, 0, false, false, 2, AMPBF16},
		{"ZeRO-3: sharded QLoRA skips it", Settings{Strategy: ZeRO3}, 0, false, false, 2, AMPBF16},
		{"ZeRO-2: the DeepSpeed engine casts back to 16 bits", Settings{Strategy: ZeRO2}, 0, false, false, 2, BF16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mk := func(tr Trainer) Workload {
				set := tt.set
				set.Task, set.Trainer, set.Precision, set.GPUs = TaskQLoRA, tr, tt.precision, tt.gpus
				set.MicroBatch, set.SeqLen, set.GradAccum, set.Loss = int(b), int(s), 1, LossNative
				w := Workload{Settings: set, Model: llama31_8B}
				w.Defaults()
				return w
			}
			hf, tt2 := mk(TrainerHF), mk(TrainerTorchtune)
			if got := kbitFP32(&hf, hf.TrainingRecipe()); got != tt.wantKbit {
				t.Errorf("kbitFP32 = %v, want %v", got, tt.wantKbit)
			}
			if kbitFP32(&tt2, tt2.TrainingRecipe()) {
				t.Error("kbitFP32 true for torchtune")
			}
			eh, err := Compute(hf, nil)
			if err != nil {
				t.Fatal(err)
			}
			et, err := Compute(tt2, nil)
			if err != nil {
				t.Fatal(err)
			}
			shard := 1.0
			if tt.set.Strategy == FSDP || tt.set.Strategy == ZeRO3 {
				shard = float64(tt.gpus)
			}
			if got := (eh.States.Weights - et.States.Weights) * shard; math.Abs(got-tt.weights) > 1 {
				t.Errorf("weights HF − torchtune = %.0f B, want %.0f B", got, tt.weights)
			}
			ah, at := trainingActivations(&hf, hf.TrainingRecipe()), trainingActivations(&tt2, tt2.TrainingRecipe())
			wantCkpt, wantLogits := at.ckptInputs, at.logits
			if tt.stream {
				wantCkpt = 32 * 4 * s * b * h
				wantLogits = s * b * v * 2 * 4
				if at.ckptInputs != 32*2*s*b*h || at.logits != s*b*v*2*2 {
					t.Errorf("torchtune pure bf16: ckpt %.0f, logits %.0f B, want 16-bit", at.ckptInputs, at.logits)
				}
			}
			if ah.ckptInputs != wantCkpt || ah.logits != wantLogits {
				t.Errorf("HF ckpt inputs %.0f B, logits %.0f B; want %.0f, %.0f", ah.ckptInputs, ah.logits, wantCkpt, wantLogits)
			}
		})
	}
	// LitGPT quantizes every Linear, the head included, and never calls it.
	w := Workload{Settings: Settings{Task: TaskQLoRA, Trainer: TrainerLitGPT}, Model: llama31_8B}
	w.Defaults()
	if kbitFP32(&w, w.TrainingRecipe()) {
		t.Error("kbitFP32 true for LitGPT")
	}
}
