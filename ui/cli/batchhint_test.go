package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestGlobalBatchHint (a new user's walk): a 70B fine-tune at micro-batch
// 1 with --grad-accum 8 (a global batch of 8, which recommend shares over
// the job's GPUs) left 778 offers out for "global batch": every 16-, 32-
// and 64-GPU H100/H200 layout, with near misses saying "64 × V100 … make
// it a multiple of 64 (grad_accum)" and nothing naming the change that
// opens the multi-node offers. Now a line names the smallest
// accumulation that opens one and its cheapest such offer, which the
// ranking with that flag gives, and says what --grad-accum counts (not
// Hugging Face's per-GPU gradient_accumulation_steps); with no offer at
// all the hint is one of "What would make it fit".
func TestGlobalBatchHint(t *testing.T) {
	job := []string{"recommend", "--model", "llama-3.1-70b", "--task", "finetune", "--seq-len", "4096", "--batch-size", "1", "--dataset-tokens", "200M",
		"--allow-multi-node", "--checkpointing", "--providers", "aws,gcp,azure", "--limit", "0"}
	code, out, errs := runCLI(t, append(job, "--grad-accum", "8")...)
	m := regexp.MustCompile(`→ --grad-accum 16 \(a global batch of 16\) opens (\S+) (\S+) 16×(\S+) \(2 nodes\), [\d.]+ h, (\$[\d,]+) for the job: \d+ offers did not pass because their GPUs cannot share the global batch of 8 in whole samples\n    --grad-accum counts the job's micro-batches per optimizer step`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("exit %d, want the --grad-accum 16 line:\n%s%s", code, out, errs)
	}
	// The ranking with --grad-accum 16 has that offer at that cost.
	code, out, errs = runCLI(t, append(job, "--grad-accum", "16")...)
	row := regexp.MustCompile(`(?m)^` + m[1] + ` +` + regexp.QuoteMeta(m[2]) + ` .* 16×` + regexp.QuoteMeta(m[3]) + ` \(2 nodes\) .* ` + regexp.QuoteMeta(m[4]) + ` `)
	if code != 0 || !row.MatchString(out) {
		t.Errorf("--grad-accum 16: exit %d, no row %s %s 16×%s at %s:\n%s%s", code, m[1], m[2], m[3], m[4], out, errs)
	}
	if strings.Contains(out, "→ --grad-accum 16 ") || !strings.Contains(out, "→ --grad-accum 32 (a global batch of 32) opens ") {
		t.Errorf("--grad-accum 16: want the next batch, 32, hinted:\n%s", out)
	}
	// Nothing runs a global batch of 1 on more than one GPU, and one GPU
	// cannot hold the job: the change is a hint of its own.
	code, out, errs = runCLI(t, append(job, "--grad-accum", "1")...)
	if code != 0 || !strings.Contains(out, "No offer runs") ||
		!regexp.MustCompile(`→ --grad-accum 8 \(a global batch of 8, which more GPU counts share\): \d+ offers, best `).MatchString(out) {
		t.Errorf("--grad-accum 1: exit %d, want the hint in What would make it fit:\n%s%s", code, out, errs)
	}
}
