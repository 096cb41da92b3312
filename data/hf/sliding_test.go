package hf

import (
	"strings"
	"testing"
)

// TestSlidingWindowFromConfig: config.json's sliding-window keys read as
// transformers' configuration classes and vLLM read them
// (slidingWindow). The fixtures in testdata/config are checked against
// the catalog by TestCatalogMatchesImporter; these are the other ways a
// config.json says it, and the values it may not hold, which cost full
// attention with a note rather than failing the file.
func TestSlidingWindowFromConfig(t *testing.T) {
	const llama = `"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 6, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 4096`
	const qwen2 = `"model_type": "qwen2", "hidden_size": 64, "num_hidden_layers": 6, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 4096`
	const gemma2 = `"model_type": "gemma2", "hidden_size": 64, "num_hidden_layers": 6, "num_attention_heads": 4,
		"intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 8192`
	const gemma3 = `"model_type": "gemma3_text", "hidden_size": 64, "num_hidden_layers": 13, "intermediate_size": 128`
	for _, tt := range []struct {
		name            string
		json            string
		window, sliding int
		note            string // a substring of the one note; "" for none
	}{
		{"no key: full attention", llama, 0, 0, ""},
		{"sliding_window null: full attention", llama + `, "sliding_window": null`, 0, 0, ""},
		{"sliding_window without layer_types: every layer (Mistral 7B v0.1)", llama + `, "sliding_window": 1024`, 1024, 6, ""},
		{"layer_types: 2 of 6 slide", llama + `, "sliding_window": 128, "layer_types": ["sliding_attention", "full_attention", "full_attention",
			"sliding_attention", "full_attention", "full_attention"]`, 128, 2, ""},
		{"layer_types without a sliding layer", llama + `, "sliding_window": 128, "layer_types": ["full_attention", "full_attention",
			"full_attention", "full_attention", "full_attention", "full_attention"]`, 0, 0, ""},
		{"sliding_window_pattern 3: 6 − ⌊6/3⌋ = 4 slide", llama + `, "sliding_window": 512, "sliding_window_pattern": 3`, 512, 4, ""},
		{"a window no shorter than the positions never slides (Phi-4-mini)", llama + `, "sliding_window": 262144`, 0, 0, ""},
		{"use_sliding_window false (Qwen2.5)", llama + `, "sliding_window": 1024, "use_sliding_window": false`, 0, 0, ""},
		{"qwen2 without use_sliding_window: its class's default is false", qwen2 + `, "sliding_window": 1024, "max_window_layers": 2`, 0, 0, ""},
		{"qwen2 with use_sliding_window: the layers from max_window_layers slide", qwen2 + `, "sliding_window": 1024, "use_sliding_window": true, "max_window_layers": 2`, 1024, 4, ""},
		{"gemma2 without keys: Gemma2Config's 4096 on every other layer", gemma2, 4096, 3, ""},
		{"gemma3_text without a pattern: Gemma3TextConfig's 6, 13 − 2 = 11", gemma3 + `, "sliding_window": 1024`, 1024, 11, ""},
		{"layer_types of the wrong length", llama + `, "sliding_window": 128, "layer_types": ["sliding_attention"]`, 0, 0, "layer_types has 1 entries for 6 layers"},
		{"layer_types not a list of strings", llama + `, "sliding_window": 128, "layer_types": [1, 2]`, 0, 0, "layer_types: want a list of strings"},
		{"sliding_window a string", llama + `, "sliding_window": "4096"`, 0, 0, "sliding_window: want a whole number"},
		{"sliding_window negative", llama + `, "sliding_window": -1`, 0, 0, "sliding_window must be 0–"},
		{"sliding_window_pattern 0", llama + `, "sliding_window": 128, "sliding_window_pattern": 0`, 0, 0, "sliding_window_pattern must be 1–"},
		{"use_sliding_window not a boolean", llama + `, "sliding_window": 128, "use_sliding_window": "yes"`, 0, 0, "use_sliding_window: want true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte("{" + tt.json + "}"))
			if err != nil {
				t.Fatalf("ParseConfig: %v (the sliding-window keys never fail a file)", err)
			}
			if a := c.Arch; a.SlidingWindow != tt.window || a.SlidingLayers != tt.sliding {
				t.Errorf("sliding window %d on %d layers, want %d on %d", a.SlidingWindow, a.SlidingLayers, tt.window, tt.sliding)
			}
			var notes []string
			for _, w := range c.Warnings {
				if n := w.String(); strings.Contains(n, "KV cache") {
					notes = append(notes, n)
				}
			}
			all := strings.Join(notes, " | ")
			switch {
			case tt.note == "" && len(notes) > 0:
				t.Errorf("unexpected note: %s", all)
			case tt.note != "" && (len(notes) != 1 || !strings.Contains(all, tt.note) || strings.Contains(all, "\n")):
				t.Errorf("notes %q, want one line saying %q", all, tt.note)
			}
		})
	}
}
