package model

import (
	"math"
	"testing"
)

// gptOss120B is gpt-oss-120b's shape (config.json), as data/catalog has it.
var gptOss120B = Architecture{Family: FamilyDecoder, Layers: 36, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64,
	FFN: 2880, GatedMLP: true, FusedGateUp: true, LinearBias: true, Vocab: 201088, Norm: RMSNorm, Experts: 128,
	ExpertsPerToken: 4, ExtraParams: 6912, QuantMethod: "mxfp4"}

// TestQLoRARoutedExpertsStay16Bit: bitsandbytes' conversion replaces
// nn.Linear modules only (transformers integrations/bitsandbytes.py
// _replace_with_bnb_linear), and transformers 5 keeps an MoE layer's
// routed experts as 3-D parameters of one module (integrations/moe.py;
// gpt-oss's GptOssExperts always did), so under Hugging Face QLoRA they
// stay 16-bit (bitsandbytes#1849) and only the rest of the block linears
// are NF4. Before, every block linear was counted 4-bit: gpt-oss-120b's
// weights were 57.85 GiB, "borderline" on one H100 (walk49). The routed
// experts' linears, by hand (no bias counted, as LinearParams):
//
//	qwen3-30b-a3b: 48 layers × 128 experts × 3 × 2048 × 768   = 28,991,029,248
//	gpt-oss-20b:   24 × 32 × 3 × 2880 × 2880                  = 19,110,297,600
//	gpt-oss-120b:  36 × 128 × 3 × 2880 × 2880                 = 114,661,785,600
//	deepseek-v3:   58 MoE layers × 256 routed × 3 × 7168 × 2048 = 653,908,770,816
//	               (the shared expert and the 3 dense layers stay nn.Linear: 4-bit)
//
// LitGPT (its MoE is a ModuleList of nn.Linear MLPs, quantized by
// Fabric's BitsandbytesPrecision) keeps them 4-bit.
func TestQLoRARoutedExpertsStay16Bit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a       Architecture
		trainer Trainer
		routed  float64 // 16-bit under HF QLoRA
	}{
		{"qwen3-30b-a3b, hf", qwen3MoE, TrainerHF, 28991029248},
		{"gpt-oss-20b, hf", gptOss20B, TrainerHF, 19110297600},
		{"gpt-oss-120b, hf", gptOss120B, TrainerHF, 114661785600},
		{"deepseek-v3, hf: the shared expert stays 4-bit", deepseekV3, TrainerHF, 653908770816},
		{"llama-3.1-8b, hf: dense, every block linear 4-bit", llama8B(), TrainerHF, 0},
		{"qwen3-30b-a3b, litgpt: nn.Linear experts, 4-bit", qwen3MoE, TrainerLitGPT, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.RoutedExpertLinearParams(); tc.trainer == TrainerHF && got != tc.routed {
				t.Errorf("RoutedExpertLinearParams() = %.0f, want %.0f", got, tc.routed)
			}
			w := Workload{Settings: Settings{Task: TaskQLoRA, Trainer: tc.trainer, MicroBatch: 1, GradAccum: 1, SeqLen: 2048}, Model: tc.a}
			w.Defaults()
			q, _ := fourBitLinear(&w)
			want := tc.a.LinearParams() - tc.routed
			if tc.trainer == TrainerLitGPT {
				want = tc.a.LinearParams() + tc.a.headParams() // Fabric quantizes the head too
			}
			if math.Abs(q-want) > 1 {
				t.Errorf("4-bit parameters %.0f, want %.0f", q, want)
			}
			if tc.trainer != TrainerHF {
				return
			}
			e, err := Compute(w, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Autocast QLoRA: the 4-bit linears, every other parameter
			// 16-bit, the adapters fp32.
			frozen := want*FourBitBytesPerParam(true) + (e.Params-want)*2
			if got, wantW := e.States.Weights, frozen+e.TrainableParams*4; math.Abs(got-wantW) > 1 {
				t.Errorf("weights %.4g B, want %.4g B (%.4g 4-bit of %.4g)", got, wantW, want, e.Params)
			}
		})
	}
	// gpt-oss-120b does not fit one H100 80GB: its experts alone are
	// 114.7e9 × 2 B = 213.6 GiB at bf16.
	w := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, Model: gptOss120B}
	w.Defaults()
	e, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Memory.Total() / GiB; got < 213.6 {
		t.Errorf("gpt-oss-120b QLoRA needs %.2f GiB per GPU, want above its 213.6 GiB of bf16 experts", got)
	}
}

// TestPrequantizedQLoRAWarned: QLoRA of a checkpoint released quantized
// in another format than bitsandbytes' (gpt-oss "mxfp4", DeepSeek-V3
// "fp8", an AWQ upload) runs on a 16-bit copy, as transformers loads a
// checkpoint in its own quantization (quantizers/auto.py
// merge_quantization_configs), and says so; a bitsandbytes upload,
// LoRA and an unquantized release do not.
func TestPrequantizedQLoRAWarned(t *testing.T) {
	for _, tc := range []struct {
		task  Task
		quant string
		warn  bool
	}{
		{TaskQLoRA, "mxfp4", true},
		{TaskQLoRA, "fp8", true},
		{TaskQLoRA, "awq", true},
		{TaskQLoRA, "bitsandbytes", false},
		{TaskQLoRA, "", false},
		{TaskLoRA, "mxfp4", false},
	} {
		a := gptOss20B
		a.Name, a.QuantMethod = "gpt-oss 20b (MoE)", tc.quant
		w := Workload{Settings: Settings{Task: tc.task, MicroBatch: 1, SeqLen: 2048}, Model: a}
		w.Defaults()
		m, ok := w.PrequantizedQLoRA()
		found := false
		for _, x := range w.WarningMessages() {
			found = found || x.Key == m.Key && ok
		}
		if ok != tc.warn || found != tc.warn {
			t.Errorf("%s of a %q release: warned %v (in the warnings %v), want %v", tc.task, tc.quant, ok, found, tc.warn)
		}
	}
}
