package cli

import (
	"strings"
	"testing"
)

// TestBatchEstimateSaysReleasedFormat: estimate for serving without --gpu
// is the batch estimate, sized at --precision (bf16), while the serving
// layout, recommend and the configurator take a quantized release's own
// format; the batch estimate says so (attack r17: 217.61 GiB of bf16
// weights for gpt-oss-120b, beside the configurator's 60.77 GiB of mxfp4).
func TestBatchEstimateSaysReleasedFormat(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // "" when no line is due
	}{
		{[]string{"estimate", "--model", "openai/gpt-oss-120b", "--task", "inference"}, "is released in mxfp4; this batch estimate sizes bf16 weights"},
		{[]string{"estimate", "--model", "deepseek-ai/DeepSeek-R1", "--task", "inference"}, "is released in fp8; this batch estimate sizes bf16 weights"},
		{[]string{"estimate", "--model", "openai/gpt-oss-120b", "--task", "inference", "--precision", "bf16"}, ""},
		{[]string{"estimate", "--model", "llama-3.1-8b", "--task", "inference"}, ""},
	} {
		code, _, stderr := runCLI(t, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr)
		}
		got := strings.Contains(stderr, "is released in")
		if tt.want == "" && got || tt.want != "" && !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: stderr %q, want %q", tt.args, stderr, tt.want)
		}
	}
}
