package model

import "testing"

// TestCheckpointModelType: vLLM reads the config.json's top-level
// model_type (hf_config.model_type); a multimodal checkpoint gpuplan reads
// by its text_config keeps the language model's type in ModelType, so
// Gemma 3 12B (Gemma3ForConditionalGeneration: "gemma3" over a text_config
// "gemma3_text") said "gemma3_text" where vLLM says "gemma3".
func TestCheckpointModelType(t *testing.T) {
	tests := []struct {
		name string
		a    Architecture
		want string
	}{
		{"Gemma 3 12B, a vision tower over gemma3_text: gemma3", Architecture{ModelType: "gemma3_text", VisionParams: 421_290_864}, "gemma3"},
		{"Gemma 3 1B, text only: gemma3_text", Architecture{ModelType: "gemma3_text"}, "gemma3_text"},
		{"Llama 4 Scout, a vision tower over llama4_text: llama4", Architecture{ModelType: "llama4_text", VisionParams: 871_932_416}, "llama4"},
		{"Gemma 2 9B: gemma2", Architecture{ModelType: "gemma2"}, "gemma2"},
		{"no type: none", Architecture{VisionParams: 1}, ""},
	}
	for _, tt := range tests {
		if got := tt.a.CheckpointModelType(); got != tt.want {
			t.Errorf("%s: CheckpointModelType() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
