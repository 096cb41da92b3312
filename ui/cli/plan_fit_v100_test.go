package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanFitAdviceOnTheOffersGPU: a job phase short of memory on its
// offer names the change that fits it there from the advice for the
// offer's GPU (advice.FitAdviceOn), so the searches for savers together
// find what that GPU runs. A Qwen3 1.7B full fine-tune pinned to
// paperspace V100-32Gx4 was told a borderline ZeRO-3 at 26.8 GiB (about
// 5% chance of running out of memory): the sets the GPU-agnostic advice
// found with the savers trained in pure bf16, which no V100 runs, and hid
// ZeRO-3 with a chunked loss, which fits across its band at 20.2 GiB.
func TestPlanFitAdviceOnTheOffersGPU(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plan.toml")
	if err := os.WriteFile(file, []byte(`schema_version = 1
name = "a fine-tune on V100s"

[[phase]]
name = "fine-tune"
provider = "paperspace"
instance = "V100-32Gx4"
region = "East Coast (NY2)"
pricing = "on-demand"
instances = 1
usd_per_hour = 9.2
job_hours = 10
[phase.answers]
model = "qwen3-1.7b"
task = "finetune"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, errs := runCLI(t, "plan", file)
	want := "these changes together fit it there, at 20.2 GiB per GPU: shard with ZeRO-3 over 4 GPUs at micro-batch 1 × accumulation 4 (same global batch), with a chunked linear cross-entropy (--strategy zero3 --batch-size 1 --grad-accum 4 --loss chunked)"
	if !strings.Contains(out, want) || !strings.Contains(errs, want) {
		t.Errorf("want %q in the plan and its warning:\n%s\n%s", want, out, errs)
	}
	if strings.Contains(out+errs, "borderline: about") || strings.Contains(out+errs, "bf16 (") {
		t.Errorf("a borderline or pure-bf16 fix where one fits across its band:\n%s\n%s", out, errs)
	}
}
