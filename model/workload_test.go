package model

import (
	"slices"
	"testing"
)

// TestLoRATargetNames: PEFT's target_modules names are gpuplan's targets
// (peft LoraConfig.target_modules: "all-linear" is every linear layer but
// the output layer; Llama-style *_proj; BERT's query, key, value); what
// is neither is kept for Validate to refuse.
func TestLoRATargetNames(t *testing.T) {
	for _, tt := range []struct {
		in, want []string
	}{
		{[]string{"q", "v"}, []string{"q", "v"}},
		{[]string{"q_proj", "v_proj"}, []string{"q", "v"}},
		{[]string{" Q_PROJ ", "o"}, []string{"q", "o"}},
		{[]string{"gate_proj", "up_proj", "down_proj"}, []string{"gate", "up", "down"}},
		{[]string{"all-linear"}, []string{"q", "k", "v", "o", "gate", "up", "down"}},
		{[]string{"query", "key", "value"}, []string{"q", "k", "v"}},
		{[]string{"c_attn", "foo_proj"}, []string{"c_attn", "foo_proj"}},
	} {
		if got := LoRATargetNames(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("LoRATargetNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
