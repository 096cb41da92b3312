package model

import (
	"math"
	"testing"
)

// TestTorchtuneQLoRAQuantizesEveryBlockLinear pins what torchtune's QLoRA
// holds in NF4 whatever the LoRA targets: every linear of the blocks —
// LoRALinear(quantize_base=True) where LoRA is applied, FrozenNF4Linear
// where it is not (torchtune/models/llama2/_component_builders.py
// lora_llama2_self_attention and llama2_mlp, since torchtune#1119, July
// 2024, first released in v0.3.0) — and never the output projection
// ("TODO: quantize_base is not applied to final output_proj currently",
// lora_llama2), which stays bf16 like the embedding and the norms.
//
// Llama 2 7B by hand: a block's linears are 4·4096² + 3·4096·11008 =
// 202,375,168 parameters, 32 blocks 6,476,005,376; the rest is the
// embedding and the output (2 · 32000 · 4096 = 262,144,000) and the norms
// (65 · 4096 = 266,240). NF4 with its quantized block scales is
// 0.515869140625 B/param (bnb4BitWithDQ; torchao's NF4Tensor stores
// 0.5 + 1/64 + 2/(64·256) = 0.515747, 0.02% less), so the frozen base is
// 6,476,005,376 · 0.515869140625 + 262,410,240 · 2 = 3,865,591,808 bytes.
// Adapting q and v only does not leave k, o or the MLP in bf16 (that would
// be 3.87 GB + 5.4e9 · 1.48 ≈ 11.9 GB, torchtune before v0.3.0).
// Hugging Face's load_in_4bit quantizes every block nn.Linear too (not the
// lm_head, llm_int8_skip_modules), whatever PEFT's targets; in pure bf16
// on one GPU prepare_model_for_kbit_training makes the rest fp32
// (kbitFP32): 262,410,240 · 2 bytes more, 4,390,412,288.
func TestTorchtuneQLoRAQuantizesEveryBlockLinear(t *testing.T) {
	for _, tr := range []Trainer{TrainerTorchtune, TrainerHF} {
		want := 3865591808.0
		if tr == TrainerHF {
			want = 4390412288
		}
		for _, targets := range [][]string{{"q", "v"}, {"q", "k", "v", "o", "gate", "up", "down"}} {
			w := Workload{Settings: Settings{Task: TaskQLoRA, Trainer: tr, Precision: BF16, MicroBatch: 2, SeqLen: 512, LoRARank: 8, LoRATargets: targets}, Model: llama2_7B}
			w.Defaults()
			if err := w.Validate(); err != nil {
				t.Fatal(err)
			}
			s := newStepShape(&w)
			if math.Abs(s.frozen-want) > 1 {
				t.Errorf("%s QLoRA on %v: frozen base %.0f bytes, want %.0f (NF4 block linears, 16-bit embedding, norms and output)", tr, targets, s.frozen, want)
			}
		}
	}
}
