package cli

import (
	"strings"
	"testing"
)

// TestEstimatePrecisionAsked (a new user's walk): estimate --precision
// fp8 --gpu a100 planned amp-bf16 without a word while recommend made
// the A100 a near miss needing allow_precision_fallback, and bf16 on a
// V100 was "✗ cannot run". One rule now (model.Refused): a precision
// typed, or fp8, that the GPU runs only by a fallback is "✗ cannot run"
// with recommend's reason and the switch that accepts it; with
// --allow-precision-fallback it is estimated in the fallback; a
// precision left to its default still adapts (amp-bf16 → amp-fp16 on a
// T4).
func TestEstimatePrecisionAsked(t *testing.T) {
	job := []string{"estimate", "--model", "qwen3-0.6b", "--task", "finetune", "--batch-size", "1", "--seq-len", "1024"}
	for _, tt := range []struct {
		name string
		args []string
		want string // in stdout
		not  string
	}{
		{"fp8 on an A100: refused", []string{"--precision", "fp8", "--gpu", "a100"},
			"✗ cannot run on NVIDIA A100 40GB SXM4 (37.61 GiB usable: 40 GiB, 39.59 GiB visible to the driver, less the 5% margin): NVIDIA A100 40GB SXM4 has no fp8; it would run amp-bf16 (allow_precision_fallback)\n  --allow-precision-fallback estimates it in amp-bf16", "✓"},
		{"fp8 on an A100, fallback allowed: estimated in amp-bf16", []string{"--precision", "fp8", "--gpu", "a100", "--allow-precision-fallback"},
			"✓ fits NVIDIA A100 40GB SXM4", "cannot run"},
		{"amp-bf16 typed on a T4: refused", []string{"--precision", "amp-bf16", "--gpu", "t4"},
			"NVIDIA T4 has no amp-bf16; it would run amp-fp16 (allow_precision_fallback)", "✓"},
		{"amp-bf16 by default on a T4: adapts", []string{"--gpu", "t4"}, "borderline NVIDIA T4", "cannot run"},
		{"bf16 on a V100: no fallback at all", []string{"--precision", "bf16", "--gpu", "v100"},
			"NVIDIA V100 SXM2 16GB has no bf16 (needs compute capability 8.0)\n  pure bf16 training has no fp16 fallback", "✓"},
	} {
		code, out, errs := runCLI(t, append(job, tt.args...)...)
		if code != 0 || !strings.Contains(out, tt.want) || strings.Contains(out, tt.not) {
			t.Errorf("%s: exit %d, want %q and no %q:\n%s%s", tt.name, code, tt.want, tt.not, out, errs)
		}
	}
	// recommend says the same of the A100.
	code, out, errs := runCLI(t, "recommend", "--model", "qwen3-0.6b", "--task", "finetune", "--batch-size", "1", "--seq-len", "1024", "--precision", "fp8", "--gpu", "a100", "--providers", "aws,gcp,azure,lambda")
	if code != 0 || !strings.Contains(out, "has no fp8; it would run amp-bf16 (allow_precision_fallback)") {
		t.Errorf("recommend --gpu a100: exit %d:\n%s%s", code, out, errs)
	}
}
