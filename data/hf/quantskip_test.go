package hf

import (
	"math"
	"testing"
)

// TestUnconvertedModules: the modules a quantized checkpoint's
// quantization_config leaves unconverted (modules_to_not_convert,
// ignored_layers, ignore, exclude_modules) are counted in layers of
// attention and of MLP, as vLLM skips them (quant_utils.py
// is_layer_skipped, compressed-tensors "re:" entries). Hand-worked on a
// 4-layer shape with 8 query heads and 2 KV heads of 128: q_proj and
// o_proj are 1024 rows each, k_proj and v_proj 256, so one layer's k_proj
// is 256 ÷ 2560 = 0.1 of its attention; a gated MLP's projection a third.
func TestUnconvertedModules(t *testing.T) {
	const shape = `"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
		"num_key_value_heads": 2, "head_dim": 128, "intermediate_size": 4096, "vocab_size": 1000, "torch_dtype": "bfloat16", `
	for _, tt := range []struct {
		name, qc  string
		attn, mlp float64
	}{
		{"no list", `{"quant_method": "fp8"}`, 0, 0},
		{"lm_head only (compressed-tensors FP8 releases)", `{"quant_method": "compressed-tensors", "ignore": ["lm_head"]}`, 0, 0},
		{"fbgemm_fp8, every attention projection by name (Llama 3.1 405B FP8 style)", `{"quant_method": "fbgemm_fp8", "modules_to_not_convert": [` +
			`"model.layers.0.self_attn.q_proj", "model.layers.0.self_attn.k_proj", "model.layers.0.self_attn.v_proj", "model.layers.0.self_attn.o_proj",` +
			`"model.layers.1.self_attn.q_proj", "model.layers.1.self_attn.k_proj", "model.layers.1.self_attn.v_proj", "model.layers.1.self_attn.o_proj",` +
			`"model.layers.2.self_attn.q_proj", "model.layers.2.self_attn.k_proj", "model.layers.2.self_attn.v_proj", "model.layers.2.self_attn.o_proj",` +
			`"model.layers.3.self_attn.q_proj", "model.layers.3.self_attn.k_proj", "model.layers.3.self_attn.v_proj", "model.layers.3.self_attn.o_proj", "lm_head"]}`, 4, 0},
		{"glob (gpt-oss style)", `{"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn", "lm_head"]}`, 4, 0},
		{"one k_proj", `{"quant_method": "fp8", "ignored_layers": ["model.layers.0.self_attn.k_proj"]}`, 0.1, 0},
		{"fused qkv_proj: its shards", `{"quant_method": "fp8", "ignored_layers": ["model.layers.1.self_attn.qkv_proj"]}`, 0.6, 0},
		{"a parent module and a regex", `{"quant_method": "compressed-tensors", "ignore": ["model.layers.0.mlp", "re:.*layers\\.3\\.mlp\\.down_proj$"]}`, 0, 1 + 1.0/3},
		{"multimodal path, fused gate_up_proj", `{"quant_method": "fp8", "modules_to_not_convert": ["model.language_model.layers.2.mlp.gate_up_proj"]}`, 0, 2.0 / 3},
		{"bare name inside every path", `{"quant_method": "fbgemm_fp8", "modules_to_not_convert": ["self_attn"]}`, 4, 0},
		{"modelopt exclude_modules", `{"quant_method": "modelopt", "exclude_modules": ["model.layers.3.mlp.down_proj"]}`, 0, 1.0 / 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte("{" + shape + `"quantization_config": ` + tt.qc + "}"))
			if err != nil {
				t.Fatal(err)
			}
			attn, mlp := unconverted(&c.Arch, c.Quantization.Skip)
			if math.Abs(attn-tt.attn) > 1e-9 || math.Abs(mlp-tt.mlp) > 1e-9 {
				t.Errorf("unconverted = %g attention, %g MLP layers; want %g, %g", attn, mlp, tt.attn, tt.mlp)
			}
		})
	}
}
