package hf

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseConfig checks that ParseConfig never panics, and that what it
// accepts is a valid architecture with finite, non-negative counts.
func FuzzParseConfig(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "config", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed configs: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"model_type": "llava", "text_config": {"model_type": "qwen2", "hidden_size": 8, "num_hidden_layers": 1,
		"num_attention_heads": 2, "intermediate_size": 16, "vocab_size": 10}}`))
	f.Add([]byte(`{"model_type": "x", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "vocab_size": 10,
		"num_experts": 4, "num_experts_per_tok": 2, "is_encoder_decoder": true, "quantization_config": {"bits": 4}}`))
	f.Add([]byte(`{"model_type": "bert", "architectures": ["BertForTokenClassification"], "num_labels": 3, "hidden_size": 8,
		"num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 16, "vocab_size": 10}`))
	f.Add([]byte(`{"model_type": "opt", "architectures": ["OPTForSequenceClassification"], "id2label": {"0": "a"}, "hidden_size": 8,
		"word_embed_proj_dim": 4, "num_hidden_layers": 1, "num_attention_heads": 2, "ffn_dim": 16, "vocab_size": 10}`))
	// Sliding-window keys (slidingWindow): a pattern, layer_types of the
	// wrong length and kinds, a window on an MoE.
	f.Add([]byte(`{"model_type": "gemma3_text", "hidden_size": 8, "num_hidden_layers": 7, "intermediate_size": 16,
		"sliding_window": 4, "sliding_window_pattern": 3}`))
	f.Add([]byte(`{"model_type": "gpt_oss", "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
		"head_dim": 4, "intermediate_size": 8, "vocab_size": 10, "num_local_experts": 2, "num_experts_per_tok": 1,
		"sliding_window": 2, "layer_types": ["sliding_attention", "chunked_attention", "full_attention"]}`))
	f.Add([]byte(`{"model_type": "qwen2", "hidden_size": 8, "num_hidden_layers": 3, "num_attention_heads": 2, "intermediate_size": 16,
		"vocab_size": 10, "use_sliding_window": true, "sliding_window": 2147483647, "max_window_layers": -5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			if c != nil {
				t.Errorf("ParseConfig returned a config with error %v", err)
			}
			return
		}
		a := c.Arch
		if err := a.Validate(); err != nil {
			t.Fatalf("accepted an invalid architecture: %v", err)
		}
		total, active := a.ParamCount(), a.ActiveParams()
		for _, v := range []float64{total, active, a.ExtraParams, a.Params} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("count %v: want finite and ≥ 0 (total %v, active %v, extra %v, params %v)",
					v, total, active, a.ExtraParams, a.Params)
			}
		}
		if total < 1 || active > total {
			t.Fatalf("total %v, active %v: want 1 ≤ active ≤ total", total, active)
		}
	})
}

// FuzzParseSafetensorsHeader checks that the header parser never panics
// and that what it accepts adds up: non-negative counts, per-dtype counts
// summing to Params, and (with the file size known) bytes within the file.
func FuzzParseSafetensorsHeader(f *testing.F) {
	seed := func(js string) {
		f.Add(append(binary.LittleEndian.AppendUint64(nil, uint64(len(js))), js...), int64(-1))
	}
	seed(`{"__metadata__": {"format": "pt"}, "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
		"h.0.attn.bias": {"dtype": "BOOL", "shape": [1, 1, 2, 2], "data_offsets": [24, 28]}}`)
	seed(`{"b": {"dtype": "F4", "shape": [4], "data_offsets": [0, 2]}, "c": {"dtype": "F6_E2M3", "shape": [4], "data_offsets": [2, 5]}}`)
	seed(`{"x.inv_freq": {"dtype": "BF16", "shape": [], "data_offsets": [0, 2]}}`)
	seed(`{}`)
	head, n := header(f, gpt2Block, 0)
	f.Add(append(head, make([]byte, n)...), int64(len(head))+n)
	f.Add(binary.LittleEndian.AppendUint64(nil, 1<<40), int64(8))
	f.Fuzz(func(t *testing.T, data []byte, size int64) {
		if size >= 0 {
			size = int64(len(data)) // the real size, or unknown
		}
		c, err := ParseSafetensorsHeader(bytes.NewReader(data), size)
		if err != nil {
			return
		}
		var sum int64
		for d, v := range c.ByDType {
			if v < 0 {
				t.Fatalf("ByDType[%s] = %d", d, v)
			}
			sum += v
		}
		if c.Params < 0 || c.Buffers < 0 || c.Bytes < 0 || c.Tensors < c.BufferTensors || c.BufferTensors < 0 || sum != c.Params {
			t.Fatalf("inconsistent counts: %+v (dtype sum %d)", c, sum)
		}
		if size >= 0 && c.Bytes > size {
			t.Fatalf("tensors hold %d bytes in a %d-byte file", c.Bytes, size)
		}
	})
}

// FuzzParseIndex checks that the index parser never panics, and that what
// it accepts names shards that are plain, distinct, sorted file names
// covering the weight map.
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte(`{"metadata": {"total_size": 24}, "weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}`))
	f.Add([]byte(`{"weight_map": {"a": "../x.safetensors"}}`))
	f.Add([]byte(`{"metadata": {"total_size": 1.5e10}, "weight_map": {"a": "x", "b": "x"}}`))
	f.Add([]byte(`{"weight_map": {}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		shards, wm, total, err := parseIndex(data)
		if err != nil {
			return
		}
		if total < -1 || len(wm) == 0 || len(shards) == 0 || len(shards) > len(wm) {
			t.Fatalf("accepted %d shards, %d tensors, total_size %d", len(shards), len(wm), total)
		}
		set := map[string]bool{}
		for i, s := range shards {
			if s == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`) || set[s] || i > 0 && shards[i-1] >= s {
				t.Fatalf("shard %q: want distinct, sorted plain file names (%q)", s, shards)
			}
			set[s] = true
		}
		for name, s := range wm {
			if !set[s] {
				t.Fatalf("tensor %q in shard %q, which is not among %q", name, s, shards)
			}
		}
	})
}
