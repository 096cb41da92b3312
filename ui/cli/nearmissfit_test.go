package cli

import (
	"strings"
	"testing"
)

// TestRecommendNearMissNamesFit (a new user's walk): a full fine-tune of
// Llama 3.1 8B at its default micro-batch ranks B300s while the near
// misses say only "needs 163.9 GiB per GPU even on 8 GPUs", which read as
// "8×H100 cannot fine-tune an 8B". One line under the near misses names
// the nearest one's fitting change, from the same fit advice estimate
// gives, in English and Chinese.
func TestRecommendNearMissNamesFit(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "100M"}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	at := strings.Index(out, "Near misses")
	if at < 0 {
		t.Fatalf("no near misses:\n%s", out)
	}
	line := ""
	for _, l := range strings.Split(out[at:], "\n") {
		if strings.Contains(l, "would fit with one change") {
			line = l
		}
	}
	if line == "" || !strings.Contains(line, "GiB per GPU: ") || !strings.Contains(line, "→") {
		t.Fatalf("no fitting change named under the near misses:\n%s", out[at:])
	}
	code, zh, errs := runCLI(t, append([]string{"--lang", "zh-CN"}, args...)...)
	if code != 0 || !strings.Contains(zh, "只需一项改动即可放下") {
		t.Errorf("zh-CN: exit %d, %s\n%s", code, errs, zh)
	}
	// Nothing when every offer ranks with no memory near miss.
	_, small, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--gpu", "h100-sxm")
	if strings.Contains(small, "would fit with one change") {
		t.Errorf("a change named where no near miss is short of memory:\n%s", small)
	}
}

// TestNearMissFitOnItsHost (a verification walk): the near miss's line
// names a host, so its one change must run there: not more GPUs than the
// host has, and no --gpus beside --max-gpus, which recommend refuses
// ("jarvislabs 2x_L4 would fit with one change: … --gpus 4" under
// --max-gpus 4). A change that keeps the GPUs is still named.
func TestNearMissFitOnItsHost(t *testing.T) {
	_, out, _ := runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "l4", "--max-gpus", "4",
		"--loss", "chunked", "--batch-size", "2", "--checkpointing", "--optimizer", "adamw-8bit", "--precision", "bf16")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "would fit with one change") && strings.Contains(l, "--gpus") {
			t.Errorf("a change fixing --gpus beside --max-gpus, or past the host: %s", l)
		}
	}
	_, out, _ = runCLI(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune")
	if !strings.Contains(out, "would fit with one change") || !strings.Contains(out, "(--checkpointing)") {
		t.Errorf("the change that keeps the host's GPUs is no longer named:\n%s", out)
	}
}
