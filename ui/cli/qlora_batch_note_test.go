package cli

import (
	"strings"
	"testing"
)

// TestQLoRABatchSizeSaysRecipeDropped: --batch-size 2 on QLoRA runs
// micro-batch 2 per GPU without the recipe's accumulation 16 (global batch
// 16 → 2); the assumptions say so (a new user saw no line).
func TestQLoRABatchSizeSaysRecipeDropped(t *testing.T) {
	code, out, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "qlora", "--batch-size", "2")
	want := "batch: micro-batch 2 given is per GPU with no accumulation (Trainer's gradient_accumulation_steps=1), global batch 2 on 1 data-parallel GPUs, not the LoRA/QLoRA recipe's 16"
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d; want the assumption %q:\n%s%s", code, want, out, errs)
	}
}
