package cli

import (
	"strings"
	"testing"
)

// TestPastPositionsSaid (a new user's walk): --seq-len 1000000 on Qwen3
// 8B (40,960 positions, rotary) was ranked by recommend without a word
// (39,026 GiB per GPU), and estimate said it only in its last lines.
// recommend and export now say it on stderr, with what it means (a
// rotary model runs past its positions but degrades unless its RoPE is
// scaled); a learned position table is still refused (TestLearnedPositionsRefused).
// --strategy zero3 --gpus 1 is told it shards nothing.
func TestPastPositionsSaid(t *testing.T) {
	const said = "gpuplan: warning: seq_len 1000000 exceeds the model's 40960 positions: the model runs past them but attends at positions it never trained on, and degrades unless extended (a rotary model's RoPE scaled: rope_scaling, e.g. YaRN); the figures are for 1000000 tokens\n"
	code, out, errs := runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "finetune", "--seq-len", "1000000", "--providers", "aws")
	if code != 0 || !strings.Contains(errs, said) {
		t.Errorf("recommend: exit %d, stderr %q; want %q\n%s", code, errs, said, out)
	}
	code, out, errs = runCLI(t, "estimate", "--model", "qwen3-8b", "--task", "finetune", "--seq-len", "1000000")
	if code != 0 || !strings.Contains(out, "! seq_len 1000000 exceeds the model's 40960 positions: the model runs past them") {
		t.Errorf("estimate: exit %d, want the warning in the report:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "recommend", "--model", "qwen3-0.6b", "--task", "lora", "--strategy", "zero3", "--gpus", "1", "--providers", "aws")
	if code != 0 || !strings.Contains(errs, "gpuplan: warning: strategy zero3 with one data-parallel GPU shards nothing; use --gpus N\n") {
		t.Errorf("recommend --strategy zero3 --gpus 1: exit %d, stderr %q\n%s", code, errs, out)
	}
	// Within the positions nothing is said.
	if _, _, errs := runCLI(t, "recommend", "--model", "qwen3-8b", "--task", "lora", "--seq-len", "4096", "--providers", "aws"); strings.Contains(errs, "positions") {
		t.Errorf("seq_len 4096: stderr %q", errs)
	}
}
