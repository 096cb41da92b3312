package model

import (
	"strings"
	"testing"
)

// TestWarningsWalk49: the workload's warnings say what a new user's walk
// found taken silently:
//
//   - a training job of fewer optimizer steps than data-parallel GPUs
//     (a LoRA fine-tune of 500M tokens = 122,070 samples of 4096 tokens on
//     100,000 GPUs is ⌈122070 / 100000⌉ = 2 steps of a global batch of
//     100,000), whose untimed start-up would be most of the job; 8 GPUs
//     on the same data (1,907 steps of 64) and a job without a dataset
//     are not warned;
//   - a training job split with --tp, which gpuplan export cannot write
//     (TPNotExportable); serving's --tp is vLLM's and exports.
func TestWarningsWalk49(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Settings
		want string // "" when no such warning
	}{
		{"lora on 100000 GPUs: 2 steps", Settings{Task: TaskLoRA, MicroBatch: 1, GradAccum: 1, SeqLen: 4096, GPUs: 100000, DatasetTokens: 500e6},
			"the job is 2 optimizer steps, fewer than its 100000 data-parallel GPUs (each step a global batch of 100000)"},
		{"lora on 100000 GPUs: 1 step, not \"1 optimizer steps\"", Settings{Task: TaskLoRA, MicroBatch: 1, GradAccum: 1, SeqLen: 4096, GPUs: 100000, DatasetTokens: 100e6},
			"the job is 1 optimizer step, fewer than its 100000 data-parallel GPUs (each step a global batch of 100000)"},
		{"lora on 8 GPUs: 1907 steps", Settings{Task: TaskLoRA, MicroBatch: 8, GradAccum: 1, SeqLen: 4096, GPUs: 8, DatasetTokens: 500e6}, ""},
		{"no dataset", Settings{Task: TaskLoRA, MicroBatch: 1, GradAccum: 1, SeqLen: 4096, GPUs: 100000}, ""},
		{"finetune --tp 2 on 8 GPUs", Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8, TP: 2, Strategy: ZeRO1},
			"tp 2: tensor parallelism is estimated as Megatron-LM splits a model; gpuplan export writes no launch file for it"},
		{"inference --tp 2", Settings{Task: TaskInference, MicroBatch: 1, SeqLen: 2048, GPUs: 2, TP: 2}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := Workload{Settings: tc.s, Model: llama8B()}
			w.Defaults()
			if err := w.Validate(); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(Strings(w.WarningMessages()), "\n")
			for _, key := range []string{"optimizer step", "optimizer steps of a global batch", "tensor parallelism is estimated as Megatron-LM"} {
				if tc.want == "" && strings.Contains(got, key) {
					t.Errorf("warned %q:\n%s", key, got)
				}
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("warnings lack %q:\n%s", tc.want, got)
			}
		})
	}
}
