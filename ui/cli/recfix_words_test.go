package cli

import (
	"strings"
	"testing"
)

// TestWordsForTheCase (new-user walk): a dense model's Compute line names
// no "active per token" figure (a CNN has no tokens: YOLOv8m's "active
// per token 25.9M"), an MoE's keeps it; a spot ranking says spot in the
// table's price column; --pricing preemptible says once that it ranks
// spot prices; fit advice that trains in pure bf16 says what it can cost
// (no fp32 master weights: Zamirai et al. 2020).
func TestWordsForTheCase(t *testing.T) {
	for _, tt := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"estimate", "--model", "yolov8m", "--gpu", "l4"}, "  parameters 25.9M (trainable 25.9M)\n", "per token"},
		{[]string{"estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-sxm"}, "active per token 3.35B)", ""},
		{[]string{"recommend", "--model", "qwen3-8b", "--pricing", "spot", "--providers", "aws", "--no-savings"}, "spot $/h", ""},
		{[]string{"recommend", "--model", "qwen3-8b", "--providers", "aws", "--no-savings"}, "  $/h", "spot $/h"},
		{[]string{"estimate", "--model", "qwen3-8b", "--task", "finetune", "--gpu", "l40s", "--gpus", "4", "--strategy", "fsdp"},
			"pure bf16 (no fp32 copy", ""},
		{[]string{"estimate", "--model", "qwen3-8b", "--task", "finetune", "--gpu", "l40s", "--gpus", "4", "--strategy", "fsdp"},
			"  pure bf16 has no fp32 master weights: rounding each AdamW update to bf16 can cancel small updates and hurt convergence", ""},
		{[]string{"estimate", "--model", "qwen3-8b", "--task", "finetune", "--gpu", "l40s", "--gpus", "4", "--strategy", "fsdp", "--precision", "bf16"},
			"fit advice", "pure bf16 has no fp32 master weights"},
	} {
		code, out, errs := runCLI(t, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errs)
		}
		if !strings.Contains(out, tt.want) || tt.not != "" && strings.Contains(out, tt.not) {
			t.Errorf("%v: want %q, not %q in\n%s", tt.args, tt.want, tt.not, out)
		}
	}
	code, _, errs := runCLI(t, "recommend", "--model", "qwen3-8b", "--pricing", "preemptible", "--providers", "gcp", "--no-savings")
	if code != 0 || strings.Count(errs, "--pricing preemptible is ranked as spot") != 1 {
		t.Errorf("--pricing preemptible: exit %d, want one note in stderr:\n%s", code, errs)
	}
}
