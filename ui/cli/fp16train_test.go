package cli

import (
	"strings"
	"testing"
)

// TestGemmaTrainingNoFP16 (a new user's walk): a Gemma 3 LoRA was ranked
// best on a T4 at ↺amp-fp16 with "gemma3_text models overflow in fp16
// (inf activations, then NaN)" under it, estimate --gpu t4 said "✓ fits"
// and export wrote the script. Now the three treat it as pure bf16 on a
// V100 (model.CannotRun): recommend ranks no fp16-only GPU and lists it
// as a near miss with the reason, estimate says "✗ cannot run", export
// refuses in one line with exit 2.
func TestGemmaTrainingNoFP16(t *testing.T) {
	job := []string{"--model", "gemma-3-1b", "--task", "lora", "--dataset-tokens", "5M", "--loss", "chunked", "--checkpointing"}
	code, out, errs := runCLI(t, append([]string{"recommend", "--providers", "aws", "--sort", "price", "--limit", "0"}, job...)...)
	if code != 0 || strings.Contains(out, "↺amp-fp16") || strings.Contains(out, "1×t4") ||
		!strings.Contains(out, "NVIDIA T4 has no amp-bf16, and gemma3_text models overflow in its fallback amp-fp16 (inf activations, then NaN): precision fp32 trains them there") {
		t.Errorf("recommend: exit %d, want no T4 row and a T4 near miss naming the overflow:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, append([]string{"estimate", "--gpu", "t4"}, job...)...)
	if code != 0 || !strings.Contains(out, "✗ cannot run on NVIDIA T4") || strings.Contains(out, "✓ fits") {
		t.Errorf("estimate --gpu t4: exit %d, want ✗ cannot run:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, append([]string{"export", "--instance", "aws/g4dn.xlarge", "--format", "torchrun", "-o", "-"}, job...)...)
	if lines := strings.Split(strings.TrimSpace(errs), "\n"); code != 2 || out != "" ||
		!strings.Contains(errs, "aws/g4dn.xlarge cannot run the job: NVIDIA T4 has no amp-bf16, and gemma3_text models overflow") {
		t.Errorf("export g4dn.xlarge: exit %d, stdout %q, stderr %q (%d lines); want 2 and the reason", code, out, errs, len(lines))
	}
	// fp32 trains it on the T4.
	code, out, errs = runCLI(t, append([]string{"estimate", "--gpu", "t4", "--precision", "fp32"}, job...)...)
	if code != 0 || strings.Contains(out, "cannot run") {
		t.Errorf("estimate --gpu t4 --precision fp32: exit %d, want it to run:\n%s%s", code, out, errs)
	}
}
