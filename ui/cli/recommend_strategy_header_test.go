package cli

import (
	"strings"
	"testing"
)

// TestRecommendHeaderShowsStrategy: recommend --strategy zero3 keeps
// ZeRO-3 on every offer; its header said "finetune · amp-bf16 · adamw ·
// 1 GPU", the strategy dropped (a new user's walk). It shows it, as
// estimate's "8 GPUs zero3" does.
func TestRecommendHeaderShowsStrategy(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "zero3", "--batch-size", "4", "--grad-accum", "2", "--limit", "3")
	head, _, _ := strings.Cut(out, "\n")
	if code != 0 || !strings.Contains(head, "· 1 GPU zero3 ·") {
		t.Errorf("exit %d; header %q lacks the strategy zero3:\n%s", code, head, errs)
	}
}
