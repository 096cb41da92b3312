package model

import "testing"

// TestAutocastRecasts checks the per-block bytes torch.autocast adds by
// casting a block's fp32 norm output once per projection
// (aten/src/ATen/autocast_mode.cpp cached_cast caches only fp32 leaves
// that require grad). Each extra copy is n·h elements at 2 bytes, worked
// by hand below with n = s·b tokens.
func TestAutocastRecasts(t *testing.T) {
	bert := Architecture{Family: FamilyEncoder, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096}
	gpt2 := Architecture{Family: FamilyDecoder, Layers: 12, Hidden: 768, Heads: 12, FFN: 3072, FusedQKV: true}
	llama := Architecture{Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, GatedMLP: true, Norm: RMSNorm}
	phi3 := Architecture{Family: FamilyDecoder, Layers: 32, Hidden: 3072, Heads: 32, FFN: 8192, GatedMLP: true, Norm: RMSNorm, FusedQKV: true, FusedGateUp: true}
	t5 := Architecture{Family: FamilyEncoderDecoder, Layers: 12, DecoderLayers: 12, Hidden: 1024, Heads: 16, FFN: 4096}
	tests := []struct {
		name      string
		w         Workload
		n, nEnc   float64
		cross     bool
		want      float64
		reasoning string
	}{
		{"BERT separate query/key/value", Workload{Settings: Settings{Task: TaskFinetune}, Model: bert}, 512 * 4, 0, false,
			8_388_608, "2 extra copies × 2 B × 2048 × 1024 = 4·s·b·h = 4·512·4·1024"},
		{"GPT-2 fused c_attn", Workload{Settings: Settings{Task: TaskTrain}, Model: gpt2}, 1024 * 8, 0, false,
			0, "one QKV Linear, one MLP input: no extra copy"},
		{"Llama separate q/k/v and gate/up", Workload{Settings: Settings{Task: TaskTrain}, Model: llama}, 1024, 0, false,
			25_165_824, "(2 + 1) copies × 2 B × 1024 × 4096"},
		{"Phi-3 fused qkv_proj and gate_up_proj", Workload{Settings: Settings{Task: TaskTrain}, Model: phi3}, 1024, 0, false,
			0, "both fused"},
		{"LitGPT fuses QKV, not fc_1/fc_2", Workload{Model: llama, Settings: Settings{Task: TaskTrain, Trainer: TrainerLitGPT}}, 1024, 0, false,
			8_388_608, "gate/up: 1 copy × 2 B × 1024 × 4096"},
		{"LoRA q,v without adapter dropout", Workload{Settings: Settings{Task: TaskLoRA, LoRATargets: []string{"q", "v"}}, Model: llama}, 1024, 0, false,
			8_388_608, "two lora_A casts, one already counted: 1 copy × 2 B × 1024 × 4096"},
		{"LoRA all projections without dropout", Workload{Settings: Settings{Task: TaskLoRA, LoRATargets: []string{"q", "k", "v", "o", "gate", "up", "down"}}, Model: llama}, 1024, 0, false,
			25_165_824, "q,k,v: 2 extra; gate,up: 1 extra; × 2 B × 1024 × 4096"},
		{"LoRA with adapter dropout", Workload{Settings: Settings{Task: TaskLoRA, LoRATargets: []string{"q", "v"}}, Model: llama, LoRADropout: 0.05}, 1024, 0, false,
			0, "loraDropout already counts each adapter's input"},
		{"QLoRA saves every projection's input", Workload{Settings: Settings{Task: TaskQLoRA}, Model: llama}, 1024, 0, false,
			25_165_824, "as full training"},
		{"T5 decoder block with cross-attention", Workload{Settings: Settings{Task: TaskFinetune}, Model: t5}, 512, 1024, true,
			6_291_456, "self q/k/v: 2 × 2 B × 512 × 1024; cross k, v each cast the encoder output: 2 × 2 B × 1024 × 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := autocastRecasts(&tt.w, tt.n, tt.nEnc, tt.cross); got != tt.want {
				t.Errorf("autocastRecasts = %.0f B, want %.0f B (%s)", got, tt.want, tt.reasoning)
			}
		})
	}
}

// TestAutocastRecastsInActivations checks that the term reaches the
// saved activations under torch.autocast only: BERT-Large at s = 512,
// b = 4 keeps 24 layers × 4·512·4·1024 B = 192 MiB more than the same
// shape with a fused QKV, and nothing more under pure 16-bit.
func TestAutocastRecastsInActivations(t *testing.T) {
	bert := Architecture{Family: FamilyEncoder, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096, Vocab: 30522, Dropout: true}
	fused := bert
	fused.FusedQKV = true
	w := func(a Architecture, p Precision) *Workload {
		return &Workload{Settings: Settings{Task: TaskFinetune, Precision: p, MicroBatch: 4, SeqLen: 512, TP: 1, FlashAttention: Bool(false), Checkpointing: Bool(false)}, Model: a}
	}
	tests := []struct {
		p    Precision
		r    Recipe
		want float64
	}{
		{AMPFP16, RecipeAutocast, 24 * 4 * 512 * 4 * 1024},
		{AMPBF16, RecipeFSDPMixed, 24 * 4 * 512 * 4 * 1024},
		{BF16, RecipePure16, 0},
		{FP32, RecipeFP32, 0},
	}
	for _, tt := range tests {
		sep := trainingActivations(w(bert, tt.p), tt.r).blocks
		one := trainingActivations(w(fused, tt.p), tt.r).blocks
		if got := sep - one; got != tt.want {
			t.Errorf("%s: separate − fused QKV = %.0f B, want %.0f B", tt.r, got, tt.want)
		}
	}
}

// TestSoftmaxInputBeforeTorch111 checks the scores PyTorch < 1.11 keeps a
// second time as softmax's input (pytorch/pytorch#64000), worked by hand
// for BERT-Large's 16 heads at s = 512, b = 4: a·s²·b = 16 777 216
// elements per layer, in the dtype the softmax output is counted in.
func TestSoftmaxInputBeforeTorch111(t *testing.T) {
	bert := Architecture{Family: FamilyEncoder, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096, Vocab: 30522, Dropout: true}
	tests := []struct {
		name                  string
		p, t                  float64
		flash, cross, autocst bool
		want                  float64
	}{
		{"fp32", 4, 1, false, false, false, 67_108_864},
		{"autocast: fp32 scores after the fp32 mask", 2, 1, false, false, true, 67_108_864},
		{"pure 16-bit", 2, 1, false, false, false, 33_554_432},
		{"tensor parallel 2", 2, 2, false, false, false, 16_777_216},
		{"cross-attention adds its own scores", 2, 1, false, true, false, 67_108_864},
		{"flash attention keeps no scores", 4, 1, true, false, false, 0},
	}
	for _, tt := range tests {
		if got := bert.softmaxInput(512, 512, 4, tt.p, tt.t, tt.flash, tt.cross, tt.autocst); got != tt.want {
			t.Errorf("%s: softmaxInput = %.0f B, want %.0f B", tt.name, got, tt.want)
		}
	}
	// Wired into the saved activations only before PyTorch 1.11: 24 layers × 64 MiB.
	w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPFP16, MicroBatch: 4, SeqLen: 512, TP: 1, FlashAttention: Bool(false), Checkpointing: Bool(false)}, Model: bert}
	now := trainingActivations(&w, RecipeAutocast).blocks
	w.Torch = TorchVersion{1, 10}
	if got := trainingActivations(&w, RecipeAutocast).blocks - now; got != 24*67_108_864 {
		t.Errorf("PyTorch 1.10 adds %.0f B, want %d B", got, 24*67_108_864)
	}
}

// TestAutocastRecastsEncoderDecoder checks that decoder blocks count the
// casts of the encoder output at the encoder's length (Whisper: 1500
// frames, 448 text tokens), worked by hand for two encoder and two
// decoder layers of width 1280, b = 1, flash attention: separate minus
// fused projections is, per encoder layer, 2 copies × 2 B × 1500 × 1280
// = 7 680 000 B; per decoder layer 2 × 2 × 448 × 1280 = 2 293 760 B for
// self-attention plus 1 copy × 2 × 1500 × 1280 = 3 840 000 B for the
// cross-attention's key and value: 27 627 520 B in all.
func TestAutocastRecastsEncoderDecoder(t *testing.T) {
	whisper := Architecture{Family: FamilyEncoderDecoder, Layers: 2, DecoderLayers: 2, Hidden: 1280, Heads: 20, FFN: 5120, Vocab: 51866, EncoderSeqLen: 1500}
	fused := whisper
	fused.FusedQKV = true
	w := func(a Architecture) *Workload {
		return &Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, MicroBatch: 1, SeqLen: 448, TP: 1, FlashAttention: Bool(true), Checkpointing: Bool(false)}, Model: a}
	}
	got := trainingActivations(w(whisper), RecipeAutocast).blocks - trainingActivations(w(fused), RecipeAutocast).blocks
	if got != 27_627_520 {
		t.Errorf("separate − fused = %.0f B, want 27627520 B", got)
	}
}
