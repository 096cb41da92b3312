package hf

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
)

// TestRopePositions: the positions the importer gives a config.json with
// a RoPE scaling are those vLLM derives (vllm/config/model.py
// _get_and_verify_max_len at 18ec6629253632af0a384f2ffbb8c6b28af322e7): a
// factor multiplies them for every rope_type but su, longrope and llama3,
// a yarn's from its original_max_position_embeddings, and none for a
// Gemma 3 model type. A new user's walk: Qwen3 8B's config.json with
// YaRN × 4 from 32768 was refused at --max-model-len 128K, "above the
// model's 40960 positions". Failing before: 40960, and no rope_theta.
func TestRopePositions(t *testing.T) {
	const qwen3 = `{"model_type": "qwen3", "hidden_size": 4096, "num_hidden_layers": 36, "num_attention_heads": 32,
	"num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 12288, "vocab_size": 151936, "max_position_embeddings": 40960`
	const llama = `{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
	"num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "max_position_embeddings": 4096`
	const gemma3 = `{"model_type": "gemma3_text", "hidden_size": 2560, "num_hidden_layers": 34, "num_attention_heads": 8,
	"num_key_value_heads": 4, "head_dim": 256, "intermediate_size": 10240, "vocab_size": 262208, "max_position_embeddings": 131072`
	for _, tt := range []struct {
		name      string
		json      string
		positions int
		theta     float64
		err       string
	}{
		{"Qwen3 8B with YaRN × 4 from 32768: 32768 × 4 = 131072", qwen3 + `, "rope_theta": 1000000,
		"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}`, 131072, 1e6, ""},
		{"Qwen3 8B as released, rope_scaling null: 40960", qwen3 + `, "rope_theta": 1000000, "rope_scaling": null}`, 40960, 1e6, ""},
		{"transformers v5 rope_parameters, its rope_theta inside: 131072", qwen3 + `,
		"rope_parameters": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "rope_theta": 1000000}}`, 131072, 1e6, ""},
		{"legacy type yarn, DeepSeek-V3's 4096 × 40 = 163840", llama + `, "rope_theta": 10000,
		"rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096, "beta_fast": 32}}`, 163840, 1e4, ""},
		{"yarn without original_max_position_embeddings: 4096 × 2 = 8192", llama + `, "rope_scaling": {"rope_type": "yarn", "factor": 2}}`, 8192, 0, ""},
		{"linear × 2: 4096 × 2 = 8192", llama + `, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}`, 8192, 0, ""},
		{"dynamic × 3: 4096 × 3 = 12288", llama + `, "rope_scaling": {"type": "dynamic", "factor": 3.0}}`, 12288, 0, ""},
		{"llama3 (Llama 3.1): max_position_embeddings already counts it", llama + `, "rope_theta": 500000.0,
		"rope_scaling": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}}`, 4096, 5e5, ""},
		{"legacy su is longrope: kept", llama + `, "rope_scaling": {"type": "su", "short_factor": [1], "long_factor": [2]}}`, 4096, 0, ""},
		{"Gemma 3: linear × 8 already in its 131072", gemma3 + `, "rope_theta": 1000000,
		"rope_scaling": {"rope_type": "linear", "factor": 8.0}}`, 131072, 1e6, ""},
		{"nested per layer type, default: kept, the full-attention base", llama + `, "rope_parameters": {
		"sliding_attention": {"rope_type": "default", "rope_theta": 10000}, "full_attention": {"rope_type": "default", "rope_theta": 1000000}}}`, 4096, 1e6, ""},
		{"nested, yarn on full attention: 2048 × 4 = 8192", llama + `, "rope_parameters": {
		"full_attention": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 2048, "rope_theta": 150000}}}`, 8192, 1.5e5, ""},
		{"a factor that is no number", llama + `, "rope_scaling": {"rope_type": "linear", "factor": "two"}}`, 0, 0, `rope_scaling: factor: want a number ≥ 0, got "two"`},
		{"a factor past 65536", llama + `, "rope_scaling": {"rope_type": "linear", "factor": 1e9}}`, 0, 0, "rope_scaling: factor must be 0–65536, got 1e+09"},
		{"rope_scaling not an object", llama + `, "rope_scaling": 4}`, 0, 0, "rope_scaling: want an object, got 4"},
		{"rope_theta not a number", llama + `, "rope_theta": "big"}`, 0, 0, `rope_theta: want a number ≥ 0, got "big"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tt.json))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseConfig() error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Arch.MaxPositions != tt.positions || c.Arch.RopeTheta != tt.theta {
				t.Errorf("MaxPositions %d, RopeTheta %g; want %d, %g", c.Arch.MaxPositions, c.Arch.RopeTheta, tt.positions, tt.theta)
			}
		})
	}
}

// TestCatalogRopeThetaMatchesConfig: a catalog entry's rope_theta, which
// the override vLLM is given carries (model/serve RopeScaling), is its
// config.json's, where both say one.
func TestCatalogRopeThetaMatchesConfig(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for file, key := range catalogKeys {
		got := mustRead(t, file).Arch
		want, err := cat.Model(key)
		if err != nil {
			t.Fatal(err)
		}
		if want.RopeTheta > 0 && got.RopeTheta > 0 {
			checked++
			if want.RopeTheta != got.RopeTheta {
				t.Errorf("%s: catalog rope_theta %g, config.json %g", key, want.RopeTheta, got.RopeTheta)
			}
		}
	}
	if checked == 0 {
		t.Error("no catalog entry with a rope_theta has a config.json here: the test proves nothing")
	}
}

// TestRopeOriginal: a config.json that already scales RoPE keeps the
// positions its scaling multiplied (model.Architecture.RopeOriginal), so
// a --rope-scaling given on top, whose --hf-overrides replace the whole
// rope_parameters, multiplies what the model was trained on (a new user's
// walk: yarn:2 on Qwen3's card config suggested 131072 × 2 and wrote
// original_max_position_embeddings 131072); 0 when nothing is scaled.
func TestRopeOriginal(t *testing.T) {
	const llama = `{"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
	"num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256, "max_position_embeddings": 4096`
	for _, tt := range []struct {
		name     string
		json     string
		original int
	}{
		{"yarn from its original 2048", llama + `, "rope_theta": 10000, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}}`, 2048},
		{"yarn without an original: max_position_embeddings", llama + `, "rope_scaling": {"rope_type": "yarn", "factor": 2}}`, 4096},
		{"linear: max_position_embeddings", llama + `, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}`, 4096},
		{"llama3 counts its scaling already: none", llama + `, "rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}}`, 0},
		{"no scaling: none", llama + `, "rope_theta": 10000}`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if c.Arch.RopeOriginal != tt.original {
				t.Errorf("RopeOriginal %d, want %d (positions %d)", c.Arch.RopeOriginal, tt.original, c.Arch.MaxPositions)
			}
		})
	}
}
