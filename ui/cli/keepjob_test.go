package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// recommendJSON runs recommend --json and decodes what these tests read.
type keepJobRanking struct {
	Estimate struct {
		Workload struct {
			BatchSize int `json:"batch_size"`
			GradAccum int `json:"grad_accum"`
		} `json:"workload"`
	} `json:"estimate"`
	Offers []struct {
		InstanceType string `json:"instance_type"`
		GPUCount     int    `json:"gpu_count"`
		BatchSize    int    `json:"batch_size"`
		GradAccum    int    `json:"grad_accum"`
	} `json:"offers"`
	Savings *struct {
		Changes []struct {
			Change    string  `json:"change"`
			Kind      string  `json:"kind"`
			SavingUSD float64 `json:"saving_usd"`
		} `json:"changes"`
	} `json:"savings"`
}

func keepJobRecommend(t *testing.T, args ...string) keepJobRanking {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"recommend", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	var r keepJobRanking
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return r
}

// TestSavingsKeepTheJob (issue 31, item 3): what saves the most never
// changes the task (no "fine-tune LoRA adapters" for pre-training) nor the
// global batch, and a LoRA at micro-batch 4 (139 GiB per GPU at 4096
// tokens) gets the smaller micro-batch with accumulation priced.
func TestSavingsKeepTheJob(t *testing.T) {
	train := keepJobRecommend(t, "--model", "llama-3.1-8b", "--task", "train", "--dataset-tokens", "1B", "--limit", "1")
	if train.Savings == nil || len(train.Savings.Changes) == 0 {
		t.Fatal("--task train: no savings listed")
	}
	for _, c := range train.Savings.Changes {
		if strings.Contains(c.Change, "LoRA") || c.Kind == "adapters" {
			t.Errorf("--task train: saving %q (%s) changes the task", c.Change, c.Kind)
		}
	}
	lora := keepJobRecommend(t, "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "4", "--seq-len", "4096", "--dataset-tokens", "100M", "--limit", "1")
	priced := false
	for _, c := range lora.Savings.Changes {
		priced = priced || c.Change == "micro-batch 1 with gradient accumulation 4 (same global batch)"
		if strings.Contains(c.Change, "QLoRA") {
			t.Errorf("--task lora: saving %q changes the task", c.Change)
		}
	}
	if !priced {
		t.Errorf("--task lora --batch-size 4: the smaller micro-batch with accumulation is not priced: %+v", lora.Savings.Changes)
	}
}

// TestRecommendKeepsGlobalBatch (issue 31, item 3): LoRA's default is the
// QLoRA recipe's global batch, one sample × 16 steps (an 8B LoRA fits an
// 80 GB card, its QLoRA a 24 GB one), and without --gpus recommend keeps
// it on every offer, the GPUs sharing the accumulation, and says so; a
// micro-batch given without accumulation is per GPU, and it says that.
func TestRecommendKeepsGlobalBatch(t *testing.T) {
	r := keepJobRecommend(t, "--model", "llama-3.1-8b", "--task", "lora", "--dataset-tokens", "100M", "--limit", "0")
	if w := r.Estimate.Workload; w.BatchSize*w.GradAccum == 0 {
		t.Fatalf("no batch in the estimate: %+v", w)
	}
	multi := 0
	for _, o := range r.Offers {
		if got := o.BatchSize * o.GradAccum * o.GPUCount; got != 16 {
			t.Errorf("%s on %d GPUs: %d × %d, global batch %d; want 16", o.InstanceType, o.GPUCount, o.BatchSize, o.GradAccum, got)
		}
		if o.GPUCount > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Error("no multi-GPU offer to check the global batch on")
	}
	_, out, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--dataset-tokens", "100M", "--limit", "1")
	if !strings.Contains(out, "global batch 16 (micro-batch 1 × gradient accumulation 16) kept on every offer") {
		t.Errorf("recommend does not say it keeps the global batch:\n%s", out)
	}
	_, out, _ = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--batch-size", "2", "--limit", "1")
	if !strings.Contains(out, "the micro-batch of 2 is per GPU, so the global batch is 2 × each offer's GPUs") {
		t.Errorf("recommend does not say the micro-batch is per GPU:\n%s", out)
	}
	for _, tt := range []struct{ task, gpu string }{{"lora", "a100-80gb"}, {"qlora", "l4"}} {
		code, out, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", tt.task, "--gpu", tt.gpu)
		if code != 0 || !strings.Contains(out, "✓ fits") {
			t.Errorf("default %s of Llama 3.1 8B on %s: exit %d, %s\n%s", tt.task, tt.gpu, code, errOut, out)
		}
	}
}
