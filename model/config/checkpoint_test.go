package config_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

func TestFromCheckpoint(t *testing.T) {
	tests := []struct {
		name     string
		task     model.Task
		ckpt     model.Precision
		wantTask model.Task
		wantP    model.Precision
		note     string // substring; "" is no note
	}{
		{"no dtype: nothing to say", model.TaskFinetune, "", model.TaskFinetune, "", ""},
		{"bf16 inference runs bf16", model.TaskInference, model.BF16, model.TaskInference, model.BF16, ""},
		{"bf16 fine-tuning is amp-bf16", model.TaskFinetune, model.BF16, model.TaskFinetune, model.AMPBF16, ""},
		{"fp16 LoRA is amp-fp16", model.TaskLoRA, model.FP16, model.TaskLoRA, model.AMPFP16, ""},
		{"fp32 trains as fp32", model.TaskTrain, model.FP32, model.TaskTrain, model.FP32, ""},
		// issue 17: an fp32 checkpoint no longer doubles the memory where a
		// 16-bit copy is what runs (vllm/config.py ModelConfig: dtype "auto"
		// "will use FP16 precision for FP32 and FP16 models")
		{"fp32 inference is served in fp16", model.TaskInference, model.FP32, model.TaskInference, model.FP16, "serves it in fp16"},
		{"fp32 LoRA: 16-bit base at the default", model.TaskLoRA, model.FP32, model.TaskLoRA, "", "frozen base in 16 bits"},
		{"fp32 full fine-tune stays fp32", model.TaskFinetune, model.FP32, model.TaskFinetune, model.FP32, ""},
		{"AWQ/GPTQ 4-bit inference keeps int4", model.TaskInference, model.INT4, model.TaskInference, model.INT4, ""},
		{"4-bit fine-tuning is QLoRA", model.TaskFinetune, model.INT4, model.TaskQLoRA, "", "fine-tuning it is QLoRA"},
		{"4-bit LoRA is QLoRA", model.TaskLoRA, model.INT4, model.TaskQLoRA, "", "--task qlora"},
		{"4-bit QLoRA stays, no note", model.TaskQLoRA, model.INT4, model.TaskQLoRA, "", ""},
		{"4-bit train from scratch: default precision", model.TaskTrain, model.INT4, model.TaskTrain, "", "training from scratch"},
		{"8-bit inference keeps int8", model.TaskInference, model.INT8, model.TaskInference, model.INT8, ""},
		{"8-bit fine-tuning is LoRA", model.TaskFinetune, model.INT8, model.TaskLoRA, "", "--task lora with a 16-bit base"},
		{"8-bit LoRA: over-estimate noted", model.TaskLoRA, model.INT8, model.TaskLoRA, "", "about twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task, p, note := config.FromCheckpoint(tt.task, tt.ckpt)
			if task != tt.wantTask || p != tt.wantP {
				t.Errorf("FromCheckpoint(%s, %q) = %s, %q; want %s, %q", tt.task, tt.ckpt, task, p, tt.wantTask, tt.wantP)
			}
			if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("note %q, want %q", note, tt.note)
			}
			// What comes back must validate once defaults apply.
			w := model.Workload{
				Settings: model.Settings{Task: task, Precision: p},
				Model:    model.Architecture{Family: model.FamilyDecoder, Layers: 2, Hidden: 64, Heads: 4, FFN: 256, Vocab: 100},
			}
			w.Defaults()
			if err := w.Validate(); err != nil {
				t.Errorf("the workload does not validate: %v", err)
			}
		})
	}
}
