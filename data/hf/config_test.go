package hf

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// Sources of the published counts:
//
//	[K]  KerasHub preset metadata "params", github.com/keras-team/keras-hub,
//	     keras_hub/src/models/<family>/<family>_presets.py (@71453d08; gemma2 @02aeee5f,
//	     whisper @0e096997, mixtral mixtral_presets.py).
//	[KN] KerasNLP T5 presets, keras-team/keras-hub @0ce2274f, keras_nlp/models/t5/t5_presets.py.
//	[H]  github.com/huggingface/huggingface.js, packages/hub/src/lib/parse-safetensors-metadata.spec.ts
//	     (counts read from the published safetensors headers).
//	Model cards and index files as named per case.
//
// exact is the count of the transformers class the config names, summed
// module by module; published is the independent figure, which exact must
// match within 0.5%.
var fixtures = []struct {
	file      string
	modelType string
	family    model.Family
	exact     float64 // unique parameters of the transformers model
	active    float64 // MoE: parameters per token; 0 = exact
	published float64 // 0: no independent figure within 0.5% (see source)
	source    string
	maxPos    int
	train     model.Precision // suggested training precision; "" = none
}{
	{"llama-2-7b", "llama", model.FamilyDecoder, 6_738_415_616, 0, 6_738_415_616,
		"[K] llama2_7b_en", 4096, model.AMPFP16},
	{"llama-3.1-8b", "llama", model.FamilyDecoder, 8_030_261_248, 0, 8_030_261_248,
		"[K] llama3.1_8b; huggingface.js spec: Llama-3.1-8B 8_030_261_248", 131072, model.AMPBF16},
	{"mistral-7b", "mistral", model.FamilyDecoder, 7_241_732_096, 0, 7_241_732_096,
		"[K] mistral_7b_en; = pytorch_model.bin.index.json total_size 14,483,464,192 B bf16 / 2", 32768, model.AMPBF16},
	{"mixtral-8x7b", "mixtral", model.FamilyDecoder, 46_702_792_704, 12_879_925_248, 46_702_792_704,
		"[K] mixtral_8_7b_en; active: Mistral AI, \"Mixtral of experts\" (2023-12-11): 12.9B per token", 32768, model.AMPBF16},
	{"qwen2.5-7b", "qwen2", model.FamilyDecoder, 7_615_616_512, 0, 7_615_616_512,
		"Qwen2.5-7B-Instruct model.safetensors.index.json total_size 15,231,233,024 B bf16 / 2; model card 7.61B", 131072, model.AMPBF16},
	{"qwen3-8b", "qwen3", model.FamilyDecoder, 8_190_735_360, 0, 8.2e9,
		"Qwen3-8B model card: 8.2B (6.95B non-embedding)", 40960, model.AMPBF16},
	{"gemma-7b", "gemma", model.FamilyDecoder, 8_537_680_896, 0, 8_537_680_896,
		"[K] gemma_7b_en", 8192, model.AMPBF16},
	{"gemma-2-9b", "gemma2", model.FamilyDecoder, 9_241_705_984, 0, 9_241_705_984,
		"[K] gemma2_9b_en", 8192, model.FP32},
	{"phi-3-mini-4k", "phi3", model.FamilyDecoder, 3_821_079_552, 0, 3_821_079_552,
		"[K] phi3_mini_4k_instruct_en", 4096, model.AMPBF16},
	{"phi-2", "phi", model.FamilyDecoder, 2_779_683_840, 0, 2_779_683_840,
		"microsoft/phi-2 model.safetensors.index.json total_size 5,559,367,680 B fp16 / 2", 2048, model.AMPFP16},
	{"gpt2", "gpt2", model.FamilyDecoder, 124_439_808, 0, 124_439_808,
		"[K] gpt2_base_en (the Hub's 137M adds 12 attn.bias mask buffers)", 1024, ""},
	{"gpt2-xl", "gpt2", model.FamilyDecoder, 1_557_611_200, 0, 1_557_611_200,
		"[K] gpt2_extra_large_en", 1024, model.FP32},
	{"pythia-1.4b", "gpt_neox", model.FamilyDecoder, 1_414_647_808, 0, 1_414_647_808,
		"Pythia model card, table \"Naming convention and parameter count\"", 2048, model.AMPFP16},
	{"gpt-neox-20b", "gpt_neox", model.FamilyDecoder, 20_554_567_680, 0, 20_554_567_680,
		"GPT-NeoX-20B model card, n_parameters", 2048, model.AMPFP16},
	{"gpt-j-6b", "gptj", model.FamilyDecoder, 6_050_882_784, 0, 6_053_381_344,
		"GPT-J-6B model card, n_parameters (2,498,560 = 610×4096 above GPTJForCausalLM; origin unknown)", 2048, ""},
	{"falcon-7b-legacy", "RefinedWebModel", model.FamilyDecoder, 6_921_720_704, 0, 6_921_720_704,
		"falcon-7b pytorch_model.bin.index.json total_size 14,434,379,520 B bf16 / 2, minus the stored copy of the tied lm_head (65024×4544)", 2048, model.AMPBF16},
	{"falcon-7b", "falcon", model.FamilyDecoder, 6_921_720_704, 0, 6_921_720_704,
		"as falcon-7b-legacy: same weights, current config keys", 2048, model.AMPBF16},
	{"opt-1.3b", "opt", model.FamilyDecoder, 1_315_758_080, 0, 1_315_753_984,
		"[K] opt_1.3b_en, which leaves out the 2 position offset rows (2×2048)", 2048, model.AMPFP16},
	{"opt-350m", "opt", model.FamilyDecoder, 331_196_416, 0, 0,
		"exact only: the paper's nominal 350M is 5.7% high; exercises project_in/out and no final norm", 2048, model.AMPFP16},
	{"bloom-560m", "bloom", model.FamilyDecoder, 559_214_592, 0, 559_214_592,
		"[K] bloom_560m_multi", 0, ""},
	{"bert-base-uncased", "bert", model.FamilyEncoder, 109_482_240, 0, 109_482_240,
		"[K] bert_base_en_uncased (BertModel with pooler)", 512, ""},
	{"roberta-base", "roberta", model.FamilyEncoder, 124_645_632, 0, 124_697_433,
		"[H] model.safetensors, F32: RobertaForMaskedLM (LM head, no pooler); we count RobertaModel with pooler", 512, ""},
	{"t5-base", "t5", model.FamilyEncoderDecoder, 222_903_552, 0, 222_903_552,
		"[KN] t5_base", 0, ""},
	{"flan-t5-xl", "t5", model.FamilyEncoderDecoder, 2_849_757_184, 0, 2_849_757_184,
		"[K] t5_1.1_xl (same dimensions)", 0, model.FP32},
	{"whisper-large-v2", "whisper", model.FamilyEncoderDecoder, 1_543_304_960, 0, 1_543_304_960,
		"[K] whisper_large_multi_v2", 448, model.FP32},
	{"whisper-large-v3", "whisper", model.FamilyEncoderDecoder, 1_543_490_560, 0, 1.55e9,
		"Radford et al. (2022), \"Whisper\", Table 1: large 1550M (v3: 128 mel bins, +1 token)", 448, model.AMPFP16},
}

func TestParseConfigFixtures(t *testing.T) {
	types := map[string]bool{}
	for _, tt := range fixtures {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "config", tt.file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := ParseConfig(data)
			if err != nil {
				t.Fatalf("ParseConfig() error: %v", err)
			}
			types[c.ModelType] = true
			a := c.Arch
			if c.ModelType != tt.modelType || a.Family != tt.family {
				t.Errorf("model_type %q family %q, want %q %q", c.ModelType, a.Family, tt.modelType, tt.family)
			}
			if len(c.Warnings) > 0 {
				t.Errorf("warnings: %q", c.Warnings)
			}
			if got := a.ParamCount(); got != tt.exact {
				t.Errorf("ParamCount() = %.0f, want %.0f (diff %+.0f)", got, tt.exact, got-tt.exact)
			}
			wantActive := tt.active
			if wantActive == 0 {
				wantActive = tt.exact
			}
			if got := a.ActiveParams(); got != wantActive {
				t.Errorf("ActiveParams() = %.0f, want %.0f", got, wantActive)
			}
			if tt.published > 0 {
				if rel := math.Abs(a.ParamCount()-tt.published) / tt.published; rel > 0.005 {
					t.Errorf("ParamCount() = %.0f is %.2f%% from published %.0f (%s)", a.ParamCount(), 100*rel, tt.published, tt.source)
				}
			}
			if a.MaxPositions != tt.maxPos {
				t.Errorf("MaxPositions = %d, want %d", a.MaxPositions, tt.maxPos)
			}
			p, ok := c.Precision(model.TaskTrain)
			if p != tt.train || ok != (tt.train != "") {
				t.Errorf("Precision(train) = %q, %v; want %q", p, ok, tt.train)
			}
			if a.ExtraParams < 0 || a.Params < 0 {
				t.Errorf("ExtraParams %v, Params %v: want ≥ 0", a.ExtraParams, a.Params)
			}
			if err := a.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
	if len(types) < 12 {
		t.Errorf("fixtures cover %d model types, want ≥ 12", len(types))
	}
}

// TestActiveParamsPublished checks Mixtral's active count against Mistral
// AI's rounded 12.9B.
func TestActiveParamsPublished(t *testing.T) {
	c := mustRead(t, "mixtral-8x7b")
	if got := c.Arch.ActiveParams(); math.Abs(got-12.9e9)/12.9e9 > 0.005 {
		t.Errorf("ActiveParams() = %.4g, want 12.9e9 within 0.5%%", got)
	}
}

func mustRead(tb testing.TB, name string) *Config {
	tb.Helper()
	c, err := ReadConfig(filepath.Join("testdata", "config", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestParseConfigMapping(t *testing.T) {
	// Field-level checks of mappings the counts alone would not pin.
	tests := []struct {
		name  string
		check func(a model.Architecture) bool
	}{
		{"qwen2.5-7b", func(a model.Architecture) bool { return a.QKVBias && !a.LinearBias && a.KVHeads == 4 }},
		{"gemma-7b", func(a model.Architecture) bool { return a.Tied && a.HeadDim == 256 && a.GatedMLP }},
		{"gemma-2-9b", func(a model.Architecture) bool { return a.NormsPerLayer == 4 && a.KVHeads == 8 }},
		{"falcon-7b-legacy", func(a model.Architecture) bool { return a.KVHeads == 1 && a.NormsPerLayer == 1 && a.Tied }},
		{"falcon-7b", func(a model.Architecture) bool { return a.KVHeads == 1 && a.NormsPerLayer == 1 && a.Tied }},
		{"gpt-j-6b", func(a model.Architecture) bool { return !a.Tied && a.ExtraParams == 28*(16384+4096)+50400 }},
		{"opt-1.3b", func(a model.Architecture) bool { return a.LearnedPositions == 2050 && a.Tied }},
		{"opt-350m", func(a model.Architecture) bool { return a.Params == 331_196_416 && a.ExtraParams == 0 }},
		{"bloom-560m", func(a model.Architecture) bool { return a.ExtraParams == 2048 && a.FFN == 4096 }},
		{"bert-base-uncased", func(a model.Architecture) bool { return a.Pooler && a.TokenTypes == 2 && a.LearnedPositions == 512 }},
		{"roberta-base", func(a model.Architecture) bool { return a.TokenTypes == 1 && a.LearnedPositions == 514 }},
		{"t5-base", func(a model.Architecture) bool {
			return a.Tied && !a.GatedMLP && a.DecoderLayers == 12 && a.ExtraParams == 2*32*12
		}},
		{"flan-t5-xl", func(a model.Architecture) bool { return !a.Tied && a.GatedMLP && a.HeadDim == 64 }},
		{"whisper-large-v3", func(a model.Architecture) bool { return a.Tied && a.LearnedPositions == 448 && a.DecoderLayers == 32 }},
		{"mixtral-8x7b", func(a model.Architecture) bool { return a.Experts == 8 && a.ExpertsPerToken == 2 }},
		{"llama-2-7b", func(a model.Architecture) bool { return a.Name == "meta-llama/Llama-2-7b-hf" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := mustRead(t, tt.name).Arch
			if !tt.check(a) {
				t.Errorf("unexpected mapping: %+v", a)
			}
		})
	}
}

// TestParseConfigFusedProjections pins which model_types compute Q, K and V
// (and a gated MLP's gate and up) with one Linear, as their transformers
// modeling files name the modules.
func TestParseConfigFusedProjections(t *testing.T) {
	tests := []struct {
		name          string
		qkv, gateUp   bool
		modelingNames string
	}{
		{"gpt2", true, false, "modeling_gpt2.py GPT2Attention.c_attn"},
		{"gpt-neox-20b", true, false, "modeling_gpt_neox.py query_key_value"},
		{"pythia-1.4b", true, false, "gpt_neox query_key_value"},
		{"falcon-7b", true, false, "modeling_falcon.py query_key_value"},
		{"falcon-7b-legacy", true, false, "RefinedWebModel query_key_value"},
		{"bloom-560m", true, false, "modeling_bloom.py query_key_value"},
		{"phi-3-mini-4k", true, true, "modeling_phi3.py qkv_proj, gate_up_proj"},
		{"llama-2-7b", false, false, "modeling_llama.py q_proj/k_proj/v_proj, gate_proj/up_proj"},
		{"mistral-7b", false, false, "q_proj/k_proj/v_proj"},
		{"qwen2.5-7b", false, false, "q_proj/k_proj/v_proj"},
		{"gemma-2-9b", false, false, "q_proj/k_proj/v_proj"},
		{"phi-2", false, false, "modeling_phi.py q_proj/k_proj/v_proj"},
		{"gpt-j-6b", false, false, "modeling_gptj.py q_proj/k_proj/v_proj"},
		{"opt-1.3b", false, false, "modeling_opt.py q_proj/k_proj/v_proj"},
		{"bert-base-uncased", false, false, "modeling_bert.py query/key/value"},
		{"roberta-base", false, false, "query/key/value"},
		{"flan-t5-xl", false, false, "modeling_t5.py q/k/v, wi_0/wi_1"},
		{"whisper-large-v3", false, false, "modeling_whisper.py q_proj/k_proj/v_proj"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := mustRead(t, tt.name).Arch
			if a.FusedQKV != tt.qkv || a.FusedGateUp != tt.gateUp {
				t.Errorf("FusedQKV, FusedGateUp = %v, %v; want %v, %v (%s)", a.FusedQKV, a.FusedGateUp, tt.qkv, tt.gateUp, tt.modelingNames)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, json string
		want       []string // substrings of the error
	}{
		{"empty", ``, []string{"empty file"}},
		{"array", `[1, 2]`, []string{"want a JSON object", "[1, 2]"}},
		{"null", `null`, []string{"want a JSON object"}},
		{"truncated", `{"model_type": "llama", "hidden_size": 40`, []string{"malformed JSON", "line 1"}},
		{"syntax on line 3", "{\n\"model_type\": \"llama\",\n\"hidden_size\": 4096,,\n}", []string{"line 3, column"}},
		{"missing fields named", `{"model_type": "llama", "hidden_size": 4096}`,
			[]string{`missing "num_hidden_layers"`, `missing "num_attention_heads"`, `missing "intermediate_size"`, `missing "vocab_size"`}},
		{"missing with other spellings", `{"model_type": "gpt2", "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{`missing "n_embd" (or "hidden_size")`}},
		{"string for a number", `{"model_type": "gpt2", "n_embd": "768", "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{`n_embd: want a whole number, got "768"`}},
		{"fraction", `{"model_type": "gpt2", "n_embd": 76.5, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{"n_embd: want a whole number, got 76.5"}},
		{"negative", `{"model_type": "gpt2", "n_embd": -768, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{"n_embd must be 1–2147483647, got -768"}},
		{"negative optional", `{"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 16, "num_key_value_heads": -2}`,
			[]string{"num_key_value_heads must be 0–2147483647, got -2"}},
		{"huge", `{"model_type": "gpt2", "n_embd": 1e300, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{"n_embd: 1e300 is out of range"}},
		{"zero", `{"model_type": "gpt2", "n_embd": 0, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{"n_embd must be 1–2147483647, got 0"}},
		{"bool of wrong type", `{"model_type": "gpt2", "n_embd": 8, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8, "tie_word_embeddings": "yes"}`,
			[]string{`tie_word_embeddings: want true or false, got "yes"`}},
		{"model_type not a string", `{"model_type": 7}`, []string{"model_type: want a string, got 7"}},
		{"shape rejected by Validate", `{"model_type": "gpt2", "n_embd": 10, "n_layer": 2, "n_head": 3, "vocab_size": 10, "n_positions": 8}`,
			[]string{"hidden 10 is not a multiple of heads 3"}},
		{"too many layers", `{"model_type": "gpt2", "n_embd": 8, "n_layer": 100000, "n_head": 2, "vocab_size": 10, "n_positions": 8}`,
			[]string{"shape out of range"}},
		{"moe without top-k", `{"model_type": "mixtral", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 16, "vocab_size": 10, "num_local_experts": 4}`,
			[]string{`missing "num_experts_per_tok"`}},
		{"bad quantization_config", `{"model_type": "gpt2", "n_embd": 8, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8, "quantization_config": {"bits": "four"}}`,
			[]string{`quantization_config: bits: want a whole number`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tt.json))
			if err == nil {
				t.Fatalf("ParseConfig() = %+v, want an error", c.Arch)
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error %v does not wrap ErrConfig", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseConfigTooLarge(t *testing.T) {
	data := make([]byte, MaxConfigBytes+1)
	if _, err := ParseConfig(data); err == nil || !strings.Contains(err.Error(), "4 MiB limit") {
		t.Errorf("ParseConfig(4 MiB + 1) error = %v, want the size limit", err)
	}
}

func TestParseConfigUnknownModelType(t *testing.T) {
	// A Llama-shaped config under a name we do not map: same count, with a warning.
	data, err := os.ReadFile(filepath.Join("testdata", "config", "llama-2-7b.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig([]byte(strings.Replace(string(data), `"llama"`, `"my_llama"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `model_type "my_llama" is not one gpuplan knows`) {
		t.Errorf("Warnings = %q, want one about my_llama", c.Warnings)
	}
	if got := c.Arch.ParamCount(); got != 6_738_415_616 {
		t.Errorf("ParamCount() = %.0f, want 6738415616 (generic keys read as Llama)", got)
	}

	c, err = ParseConfig([]byte(`{"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "no model_type") {
		t.Errorf("Warnings = %q, want one about the missing model_type", c.Warnings)
	}
	if c.Arch.FFN != 256 || c.Arch.Norm != model.LayerNorm || !c.Arch.Tied {
		t.Errorf("generic defaults: %+v", c.Arch)
	}

	// Unknown model_type missing a generic key: the error names it.
	_, err = ParseConfig([]byte(`{"model_type": "mamba", "d_model": 768, "n_layer": 24, "vocab_size": 50280}`))
	if err == nil || !strings.Contains(err.Error(), `missing "num_attention_heads"`) {
		t.Errorf("error = %v, want missing num_attention_heads", err)
	}
}

func TestParseConfigTextConfig(t *testing.T) {
	data := `{"model_type": "llava", "torch_dtype": "float16", "_name_or_path": "llava-hf/llava-1.5-7b-hf",
		"text_config": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
			"intermediate_size": 11008, "vocab_size": 32064, "max_position_embeddings": 4096, "rms_norm_eps": 1e-05}}`
	c, err := ParseConfig([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if c.ModelType != "llava" || c.DType != "float16" || c.Arch.Name != "llava-hf/llava-1.5-7b-hf" {
		t.Errorf("got %q %q %q", c.ModelType, c.DType, c.Arch.Name)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "vision or audio tower is not counted") {
		t.Errorf("Warnings = %q", c.Warnings)
	}
	if c.Arch.HeadDim != 0 || c.Arch.Vocab != 32064 || !c.Arch.GatedMLP {
		t.Errorf("text_config not read as llama: %+v", c.Arch)
	}
}

func TestParseConfigVariants(t *testing.T) {
	tests := []struct {
		name, json string
		want       float64
	}{
		// Llama with attention_bias only: q/k/v via QKVBias, o_proj in ExtraParams.
		{"llama attention_bias", `{"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
			"intermediate_size": 16, "vocab_size": 10, "attention_bias": true}`,
			10*8*2 + 2*(4*64+3*8+3*8*16+2*8) + 8 + 2*8},
		{"llama mlp_bias", `{"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
			"intermediate_size": 16, "vocab_size": 10, "mlp_bias": true}`,
			10*8*2 + 2*(4*64+3*8*16+2*8) + 8 + 2*(2*16+8)},
		{"llama both biases", `{"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
			"intermediate_size": 16, "vocab_size": 10, "attention_bias": true, "mlp_bias": true}`,
			10*8*2 + 2*(4*64+4*8+3*8*16+2*16+8+2*8) + 8},
		// Falcon-40B-style new decoder architecture: GQA, ln_attn and ln_mlp.
		{"falcon new arch", `{"model_type": "falcon", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 4,
			"num_kv_heads": 2, "new_decoder_architecture": true, "vocab_size": 10}`,
			10*8 + 2*(8*8*2+2*8*4+2*8*32+2*2*8) + 2*8},
		{"falcon legacy RefinedWeb", `{"model_type": "RefinedWeb", "hidden_size": 8, "n_layer": 2, "n_head": 4,
			"n_head_kv": 2, "vocab_size": 10}`,
			10*8 + 2*(8*8*2+2*8*4+2*8*32+2*2*8) + 2*8},
		{"falcon sequential", `{"model_type": "falcon", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 4,
			"multi_query": false, "parallel_attn": false, "vocab_size": 10}`,
			10*8 + 2*(4*64+2*8*32+2*2*8) + 2*8},
		// GPT-NeoX without attention biases keeps the MLP biases.
		{"gpt_neox no attention_bias", `{"model_type": "gpt_neox", "hidden_size": 8, "num_hidden_layers": 2,
			"num_attention_heads": 2, "intermediate_size": 32, "vocab_size": 10, "attention_bias": false}`,
			2*10*8 + 2*(4*64+2*8*32+32+8+2*2*8) + 2*8},
		// Distil-Whisper-like: 2 decoder layers with a smaller MLP.
		{"whisper asymmetric", `{"model_type": "whisper", "d_model": 8, "encoder_layers": 2, "decoder_layers": 1,
			"encoder_attention_heads": 2, "decoder_attention_heads": 2, "encoder_ffn_dim": 32, "decoder_ffn_dim": 16,
			"vocab_size": 10, "max_source_positions": 6, "max_target_positions": 4, "num_mel_bins": 3}`,
			10*8 + 4*8 + 6*8 + (3*8*3 + 8) + (8*8*3 + 8) + // embeddings, positions, convs
				2*((4*64+3*8)+(2*8*32+32+8)+2*16) + 16 + // encoder layers + final norm
				1*(2*(4*64+3*8)+(2*8*16+16+8)+3*16) + 16}, // decoder layer (self, cross) + final norm
		{"opt untied narrow embedding", `{"model_type": "opt", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
			"ffn_dim": 16, "vocab_size": 10, "max_position_embeddings": 6, "word_embed_proj_dim": 4, "tie_word_embeddings": false}`,
			2*10*4 + 8*8 + 2*4*8 + (4*64 + 4*8) + (2*8*16 + 16 + 8) + 2*16 + 16},
		{"opt without norm weights", `{"model_type": "opt", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
			"ffn_dim": 16, "vocab_size": 10, "max_position_embeddings": 6, "layer_norm_elementwise_affine": false}`,
			10*8 + 8*8 + (4*64 + 4*8) + (2*8*16 + 16 + 8)},
		{"phi qk_layernorm", `{"model_type": "phi", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
			"intermediate_size": 16, "vocab_size": 10, "qk_layernorm": true}`,
			2*10*8 + 10 + (4*64 + 4*8) + (2*8*16 + 16 + 8) + 16 + 4*4 + 16},
		{"bert relative_key", `{"model_type": "bert", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
			"intermediate_size": 16, "vocab_size": 10, "max_position_embeddings": 6, "position_embedding_type": "relative_key"}`,
			(10+6+2)*8 + (4*64 + 4*8) + (2*8*16 + 16 + 8) + 2*16 + 16 + (64 + 8) + 11*4},
		{"generic moe", `{"model_type": "new_moe", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
			"intermediate_size": 32, "moe_intermediate_size": 16, "num_experts": 4, "num_experts_per_tok": 2,
			"vocab_size": 10, "rms_norm_eps": 1e-6, "tie_word_embeddings": false}`,
			2*10*8 + 4*64 + 4*3*8*16 + 8*4 + 2*8 + 8},
		{"generic encoder-decoder", `{"model_type": "bart", "d_model": 8, "encoder_layers": 2, "decoder_layers": 1,
			"encoder_attention_heads": 2, "encoder_ffn_dim": 16, "vocab_size": 10, "is_encoder_decoder": true}`,
			10*8 + 2*(4*64+2*8*16+2*16) + 16 + (2*4*64 + 2*8*16 + 3*16) + 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Arch.ParamCount(); got != tt.want {
				t.Errorf("ParamCount() = %.0f, want %.0f (diff %+.0f)", got, tt.want, got-tt.want)
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-llama")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "config", "mistral-7b.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, filepath.Join(dir, "config.json")} {
		c, err := ReadConfig(path)
		if err != nil {
			t.Fatalf("ReadConfig(%s): %v", path, err)
		}
		if c.Arch.Name != "my-llama" || c.Arch.Source != filepath.Join(dir, "config.json") {
			t.Errorf("ReadConfig(%s): Name %q Source %q, want the directory name and file", path, c.Arch.Name, c.Arch.Source)
		}
		if c.Arch.ParamCount() != 7_241_732_096 {
			t.Errorf("ReadConfig(%s): ParamCount() = %.0f", path, c.Arch.ParamCount())
		}
	}

	// A file not named config.json names the model after itself.
	if c := mustRead(t, "mistral-7b"); c.Arch.Name != "mistral-7b" {
		t.Errorf("Name = %q, want mistral-7b", c.Arch.Name)
	}

	// Errors name the path.
	empty := t.TempDir()
	if _, err := ReadConfig(empty); err == nil || !strings.Contains(err.Error(), filepath.Join(empty, "config.json")) {
		t.Errorf("ReadConfig(dir without config.json) error = %v, want it to name the file", err)
	}
	bad := filepath.Join(empty, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"model_type": "llama"`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadConfig(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+": ") || !errors.Is(err, ErrConfig) {
		t.Errorf("ReadConfig(bad) error = %v, want it to start with the path and wrap ErrConfig", err)
	}
}

func TestPrecision(t *testing.T) {
	tests := []struct {
		dtype     string
		quantized model.Precision
		task      model.Task
		want      model.Precision
		ok        bool
	}{
		{"bfloat16", "", model.TaskTrain, model.AMPBF16, true},
		{"bfloat16", "", model.TaskInference, model.BF16, true},
		{"float16", "", model.TaskFinetune, model.AMPFP16, true},
		{"torch.float16", "", model.TaskInference, model.FP16, true},
		{"float32", "", model.TaskTrain, model.FP32, true},
		{"BF16", "", model.TaskInference, model.BF16, true},
		{"F8_E4M3", "", model.TaskInference, model.FP8, true},
		{"I8", "", model.TaskTrain, "", false},
		{"bfloat16", model.FP8, model.TaskInference, model.FP8, true},
		{"bfloat16", model.INT4, model.TaskLoRA, model.AMPBF16, true},
		{"", "", model.TaskTrain, "", false},
		{"auto", "", model.TaskTrain, "", false},
	}
	for _, tt := range tests {
		c := Config{DType: tt.dtype, Quantized: tt.quantized}
		if got, ok := c.Precision(tt.task); got != tt.want || ok != tt.ok {
			t.Errorf("Precision(%q, %q, %s) = %q, %v; want %q, %v", tt.dtype, tt.quantized, tt.task, got, ok, tt.want, tt.ok)
		}
	}
}

func TestQuantization(t *testing.T) {
	base := `{"model_type": "gpt2", "n_embd": 8, "n_layer": 2, "n_head": 2, "vocab_size": 10, "n_positions": 8, "quantization_config": %s}`
	for q, want := range map[string]model.Precision{
		`{"quant_method": "fp8", "fmt": "e4m3"}`:                 model.FP8,
		`{"quant_method": "gptq", "bits": 4}`:                    model.INT4,
		`{"quant_method": "awq", "w_bit": 4}`:                    model.INT4,
		`{"quant_method": "bitsandbytes", "load_in_8bit": true}`: model.INT8,
		`{"quant_method": "mxfp4"}`:                              model.INT4,
		`{"quant_method": "something-new"}`:                      "",
	} {
		c, err := ParseConfig([]byte(strings.Replace(base, "%s", q, 1)))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if c.Quantized != want {
			t.Errorf("%s: Quantized = %q, want %q", q, c.Quantized, want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"meta-llama/Llama-2-7b-hf":     "meta-llama/Llama-2-7b-hf",
		"gpt2-xl":                      "gpt2-xl",
		"/scratch/ckpt/llama-7b/":      "llama-7b",
		"./out/final":                  "final",
		`C:\models\phi`:                "phi",
		"":                             "llama",
		"/home/u/.cache/hub/a/b/c/x-y": "x-y",
	} {
		if got := displayName(in, "llama"); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}
