package launch_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// TestTrainingTPRefused: the estimate splits a --tp job's layers as
// Megatron-LM does, and the launch files start the Hugging Face Trainer,
// which splits none; written anyway, the file ran plain ZeRO over every
// GPU, another job (walk49: --tp 2 --strategy zero1 on 8 H100s estimated
// at 38.03 GiB per GPU and a global batch of 4, written as ZeRO-1 over 8
// ranks with train_batch_size 8, 59.23 GiB). NewPlan refuses every
// training task with TP > 1, with the ZeRO-3 and FSDP figures of the same
// job without it (model.Compute on the offer's GPU); TP 1 and serving's
// TP are written.
func TestTrainingTPRefused(t *testing.T) {
	cat := testCatalog()
	in := &cat.Instances[1] // p4de.24xlarge, 8 × A100 80GB
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		task    model.Task
		tp      int
		refused bool
	}{
		{"finetune tp 2", model.TaskFinetune, 2, true},
		{"finetune tp 8", model.TaskFinetune, 8, true},
		{"train tp 4", model.TaskTrain, 4, true},
		{"lora tp 2", model.TaskLoRA, 2, true},
		{"qlora tp 2", model.TaskQLoRA, 2, true},
		{"finetune tp 1", model.TaskFinetune, 1, false},
		{"inference tp 2 (vLLM's tensor parallel)", model.TaskInference, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			strategy := model.ZeRO1
			if tc.task == model.TaskInference {
				strategy = model.DDP
			}
			w := model.Workload{Settings: model.Settings{Task: tc.task, Strategy: strategy, MicroBatch: 1, GradAccum: 1, SeqLen: 2048, GPUs: 8, TP: tc.tp}, Model: llama8B}
			w.Defaults()
			if err := w.Validate(); err != nil {
				t.Fatal(err)
			}
			o := &model.Offer{Instance: in, GPU: g, Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, GPUs: 8,
				Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 8e9}}
			_, err := launch.NewPlan(w, o, launch.Options{Script: "train.py"})
			if !tc.refused {
				if err != nil {
					t.Fatalf("NewPlan: %v, want a plan", err)
				}
				if m := launch.TrainingTPRefusal(&w, g); !m.IsZero() {
					t.Errorf("TrainingTPRefusal = %q, want none", m)
				}
				return
			}
			var want [2]string
			for i, s := range []model.Strategy{model.ZeRO3, model.FSDP} {
				v := w
				v.TP, v.Strategy = 1, s
				e, err := model.Compute(v, g)
				if err != nil {
					t.Fatal(err)
				}
				want[i] = fmt.Sprintf("%.2f GiB", e.Memory.Total()/model.GiB)
			}
			switch {
			case !errors.Is(err, launch.ErrPlan):
				t.Fatalf("NewPlan: %v, want ErrPlan", err)
			case !strings.Contains(err.Error(), fmt.Sprintf("tensor parallelism (--tp %d)", tc.tp)),
				!strings.Contains(err.Error(), "split no layer"),
				!strings.Contains(err.Error(), "--strategy zero3 needs "+want[0]+" per GPU"),
				!strings.Contains(err.Error(), "--strategy fsdp "+want[1]),
				strings.Contains(err.Error(), "\n"):
				t.Errorf("NewPlan: %v\nwant one line saying why, drop --tp, and zero3 %s, fsdp %s", err, want[0], want[1])
			}
		})
	}
}

// TestPrequantizedQLoRARefused: transformers loads a checkpoint released
// quantized in another format in that format, not with the bitsandbytes
// config the file's --load_in_4bit builds (quantizers/auto.py
// merge_quantization_configs), so QLoRA of such a release (walk49:
// --load_in_4bit on openai/gpt-oss-120b) is refused unless --model-id
// names a 16-bit copy, which the file then loads and its notes say must
// be one.
func TestPrequantizedQLoRARefused(t *testing.T) {
	cat := testCatalog()
	in := &cat.Instances[1]
	g, err := cat.GPU(in.GPU)
	if err != nil {
		t.Fatal(err)
	}
	arch := llama8B
	arch.QuantMethod = "mxfp4"
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, GradAccum: 1, SeqLen: 2048}, Model: arch}
	w.Defaults()
	o := &model.Offer{Instance: in, GPU: g, Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, GPUs: 1,
		Strategy: w.Strategy, USDPerHour: 1, Estimate: &model.Estimate{Workload: w, Params: 8e9}}
	// Without --model-id, or with one naming the release itself (walk49:
	// --model-id openai/gpt-oss-120b was written), every launch file is
	// refused; the TOML configuration, which names no checkpoint, is not.
	arch.Aliases = []string{"meta-llama/Llama-3.1-8B"}
	w.Model = arch
	o.Estimate.Workload = w
	for _, id := range []string{"", "meta-llama/Llama-3.1-8B", "META-LLAMA/llama-3.1-8b"} {
		p, err := launch.NewPlan(w, o, launch.Options{ModelID: id})
		if err != nil {
			t.Fatalf("NewPlan %q: %v", id, err)
		}
		for _, f := range []launch.Format{launch.FormatTorchrun, launch.FormatSkyPilot, launch.FormatDocker, launch.FormatK8s, launch.FormatPyTorchJob} {
			if _, err := p.Render(f); !errors.Is(err, launch.ErrPlan) ||
				!strings.Contains(err.Error(), "released mxfp4-quantized") || !strings.Contains(err.Error(), "give --model-id a 16-bit copy") ||
				!strings.Contains(err.Error(), "Mxfp4Config") {
				t.Errorf("--model-id %q, %s: %v, want refused with --model-id named", id, f, err)
			}
		}
		if out, err := p.Render(launch.FormatTOML); err != nil || !strings.Contains(string(out), "a launch file needs --model-id naming a 16-bit copy") {
			t.Errorf("--model-id %q, toml: %v, want written with the note:\n%s", id, err, out)
		}
	}
	// An fp8 release (DeepSeek-V3) gets DeepSeek's own converter, not the gpt-oss recipe.
	arch.QuantMethod = "fp8"
	w.Model = arch
	o.Estimate.Workload = w
	p8, err := launch.NewPlan(w, o, launch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p8.Render(launch.FormatTorchrun); err == nil || !strings.Contains(err.Error(), "fp8_cast_bf16.py") || strings.Contains(err.Error(), "Mxfp4Config") {
		t.Errorf("fp8 release: %v, want DeepSeek's fp8_cast_bf16.py named and no gpt-oss recipe", err)
	}
	arch.QuantMethod = "mxfp4"
	w.Model = arch
	o.Estimate.Workload = w
	p, err := launch.NewPlan(w, o, launch.Options{ModelID: "me/llama-bf16"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Render(launch.FormatTorchrun)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--model_name_or_path me/llama-bf16", "# note: qlora: me/llama-bf16 must be a 16-bit checkpoint"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the file lacks %q:\n%s", want, out)
		}
	}
	arch.QuantMethod = "bitsandbytes" // a bitsandbytes upload loads with its own config: written as it is
	w.Model = arch
	o.Estimate.Workload = w
	if _, err := launch.NewPlan(w, o, launch.Options{}); err != nil {
		t.Errorf("a bitsandbytes release: %v, want a plan", err)
	}
}
