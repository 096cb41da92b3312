package model

import (
	"strings"
	"testing"
)

// TestQLoRARoutedExpertsWarned: the routed experts that stay 16-bit under
// Hugging Face QLoRA are most of an MoE model's weights; said only as the
// 11th Assumptions line, "weights 85.19 GiB" for a 4-bit Mixtral read as
// a bug (walk49). It is a workload warning, printed by estimate,
// recommend, --json and the configurator, naming the count; not for a
// dense model, nor under LitGPT, whose experts are nn.Linear (4-bit).
func TestQLoRARoutedExpertsWarned(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a       Architecture
		trainer Trainer
		want    bool
	}{
		{"qwen3-30b-a3b, hf", qwen3MoE, TrainerHF, true},
		{"qwen3-30b-a3b, trainer unset", qwen3MoE, "", true},
		{"llama-3.1-8b, hf", llama8B(), TrainerHF, false},
		{"qwen3-30b-a3b, litgpt", qwen3MoE, TrainerLitGPT, false},
	} {
		w := Workload{Settings: Settings{Task: TaskQLoRA, Trainer: tc.trainer, MicroBatch: 1, GradAccum: 1, SeqLen: 2048}, Model: tc.a}
		var got string
		for _, m := range w.WarningMessages() {
			if strings.Contains(m.String(), "routed experts stay 16-bit") {
				got = m.String()
			}
		}
		if (got != "") != tc.want {
			t.Errorf("%s: warning %q, want one: %t", tc.name, got, tc.want)
		}
		if tc.want && (!strings.Contains(got, "29B parameters") || !strings.Contains(got, "nn.Linear") || !strings.Contains(got, "3-D parameters")) {
			t.Errorf("%s: %q does not name the count and why", tc.name, got)
		}
	}
	w := Workload{Settings: Settings{Task: TaskLoRA, MicroBatch: 1, GradAccum: 1, SeqLen: 2048}, Model: qwen3MoE}
	for _, m := range w.WarningMessages() {
		if strings.Contains(m.String(), "routed experts") {
			t.Errorf("lora warns %q", m)
		}
	}
}
