package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassifierIsNotLaunchedAsAnLM: a sequence-classification config.json
// is priced as the classifier (fix51a), so the launch formats must not
// write TRL's SFT script for it, which loads AutoModelForCausalLM and
// trains the LM head, a bigger job than priced (walk 52: Qwen3 8B with 5
// labels, LoRA, priced 28.35 GiB, exported as a 32.86 GiB LM job); nor a
// vllm serve of generation for it: vLLM runs *For*Classification as a
// pooling model (docs/models/pooling_models.md), with no tokens generated.
func TestClassifierIsNotLaunchedAsAnLM(t *testing.T) {
	cls := "data/hf/testdata/config/llama-3.1-8b-seq-cls.json"
	dir := t.TempDir()
	script := filepath.Join(dir, "train_cls.py")
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		stderr string
		file   string // in the written file
	}{
		{"lora torchrun, no script", []string{"export", "--hf-config", cls, "--task", "lora", "--instance", "aws/g6e.xlarge", "--format", "torchrun", "-o", filepath.Join(dir, "a.sh")},
			2, "is a sequence-classification model, and TRL's SFT script trains causal LMs", ""},
		// walk53: the refusal must name --script-args, since the arguments
		// gpuplan writes are TRL's, which run_classification.py refuses.
		{"lora docker, no script", []string{"export", "--hf-config", cls, "--task", "lora", "--instance", "aws/g6e.xlarge", "--format", "docker", "-o", filepath.Join(dir, "e.sh")},
			2, "and its arguments with --script-args (the ones gpuplan writes are TRL's)", ""},
		{"finetune skypilot, no script", []string{"export", "--hf-config", cls, "--task", "finetune", "--gpus", "8", "--strategy", "fsdp", "--instance", "aws/p5.48xlarge", "--format", "skypilot", "-o", filepath.Join(dir, "b.yaml")},
			2, "name your training script with --script", ""},
		{"lora torchrun, own script", []string{"export", "--hf-config", cls, "--task", "lora", "--instance", "aws/g6e.xlarge", "--format", "torchrun", "--script", script, "-o", filepath.Join(dir, "c.sh")},
			0, "", "train_cls.py"},
		{"serving", []string{"export", "--hf-config", cls, "--task", "inference", "--instance", "aws/g6e.xlarge", "--format", "skypilot", "-o", filepath.Join(dir, "d.yaml")},
			2, "vLLM serves it as a pooling model", ""},
		// walk54: the serving refusal named --script but not where the
		// script's own arguments go.
		{"serving names --script-args", []string{"export", "--hf-config", cls, "--task", "inference", "--instance", "aws/g6e.xlarge", "--format", "docker", "-o", filepath.Join(dir, "f.sh")},
			2, "name your inference script with --script and its arguments with --script-args", ""},
		{"estimate on a GPU", []string{"estimate", "--hf-config", cls, "--task", "inference", "--gpu", "l40s"},
			0, "no serving plan: a sequence-classification model generates no tokens", ""},
		// walk53: --gen-tokens 128 timed a decode the classifier never runs
		// (a 32-minute job became 11 hours).
		{"generated tokens", []string{"estimate", "--hf-config", cls, "--task", "inference", "--gpu", "l40s", "--gen-tokens", "128"},
			2, "a sequence-classification model generates no tokens: drop gen_tokens", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("exit %d, want %d; stderr %q lacks %q", code, tt.code, stderr, tt.stderr)
			}
			if tt.name == "estimate on a GPU" && (strings.Contains(stdout, "generated") || strings.Contains(stdout, "TPOT") || strings.Contains(stdout, "decoding is timed")) {
				t.Errorf("a classifier's estimate generates tokens:\n%s", stdout)
			}
			if tt.file == "" {
				return
			}
			b, err := os.ReadFile(tt.args[len(tt.args)-1])
			if err != nil {
				t.Fatal(err)
			}
			if s := string(b); !strings.Contains(s, tt.file) || strings.Contains(s, "trl.scripts.sft") {
				t.Errorf("the file does not run %s alone:\n%s", tt.file, s)
			}
		})
	}
}
