package cli

import (
	"strings"
	"testing"
)

// TestPinnedServingAgrees: gpuplan plan, estimate --phase and export
// --phase give a serving phase the same verdict and the same reason
// (plan.PinnedServing; walk36). Each case's reason is the line all three
// print:
//   - Llama 3.1 70B on one g5.8xlarge (one A10G): 114.2 GiB per GPU short
//     (export said "needs 8 GPUs (TP 1 × PP 8) … Ray cluster");
//   - on two g5.12xlarge (4 A10Gs each): TP 4 × PP 2, one replica over
//     both instances, a Ray cluster (estimate --phase said 14.7 GiB short
//     on one instance's 4 GPUs; export "needs 8 GPUs").
func TestPinnedServingAgrees(t *testing.T) {
	tests := []struct {
		name, file, phase string
		verdict, reason   string // plan's words before the reason; the reason
		head              string // estimate's verdict line
	}{
		{"70B on one A10G", "testdata/plan-serve-nofit.toml", "s", "does not fit its pinned offer",
			"TP 1 × PP 1: weights 131.4 GiB + activations 1.2 GiB per GPU leave no KV cache in 19.9 GiB (gpu_memory_utilization 0.9), 114.2 GiB per GPU short of one 4096-token request",
			"✗ does not fit 1 × NVIDIA A10G: TP 1 × PP 1, 1 replica"},
		{"70B on two 4 × A10G", "testdata/plan-serve-ray.toml", "serve", "needs more GPUs than one instance of its pinned offer has",
			"one replica spans 2 instances (TP 4 × PP 2 over 4 GPUs each): pipeline parallel across nodes needs a Ray cluster (allow_multi_node)",
			"✗ needs a Ray cluster: 8 × NVIDIA A10G: TP 4 × PP 2, 1 replica on 2 nodes of 4 GPUs"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, "plan", tt.file, "--no-savings")
		if want := "✗ phase \"" + tt.phase + "\": " + tt.verdict + ": " + tt.reason; code != ExitError || !strings.Contains(out, want) {
			t.Errorf("%s: plan: exit %d, want %d (the phase cannot run) and %q in:\n%s%s", tt.name, code, ExitError, want, out, errOut)
		}
		code, out, errOut = runCLI(t, "estimate", "--config", tt.file, "--phase", tt.phase)
		if code != 0 || !strings.Contains(out, tt.head+"\n") || !strings.Contains(out, "\n  "+tt.reason+"\n") {
			t.Errorf("%s: estimate --phase: exit %d, want %q and %q in:\n%s%s", tt.name, code, tt.head, tt.reason, out, errOut)
		}
		code, _, errOut = runCLI(t, "export", "--config", tt.file, "--phase", tt.phase, "--format", "torchrun", "-o", "-")
		if want := "phase \"" + tt.phase + "\" " + tt.verdict + ": " + tt.reason; code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: export --phase: exit %d, want %q in:\n%s", tt.name, code, want, errOut)
		}
	}
}

// TestServeRefusalChinese: a serving refusal joins the plan's reasons as
// messages, each translated, not their English text (walk36: export
// --lang zh-CN of Llama 3.1 405B on one A10G printed "one replica needs
// more than 8 GPUs … short of one 4096-token request" inside a Chinese
// line); plan --phase's verdicts are Chinese too.
func TestServeRefusalChinese(t *testing.T) {
	for _, args := range [][]string{
		{"export", "--model", "llama-3.1-405b", "--task", "inference", "--instance", "aws/g5.xlarge", "--format", "torchrun", "-o", "-"},
		{"export", "--config", "testdata/plan-serve-ray.toml", "--phase", "serve", "--format", "torchrun", "-o", "-"},
		{"export", "--config", "testdata/plan-serve-nofit.toml", "--phase", "s", "--format", "torchrun", "-o", "-"},
		{"plan", "testdata/plan-serve-ray.toml", "--no-savings"},
		{"estimate", "--config", "testdata/plan-serve-ray.toml", "--phase", "serve"},
	} {
		_, out, errOut := runCLI(t, append([]string{"--lang", "zh-CN"}, args...)...)
		for _, english := range []string{"one replica", "GPUs", "short of", "weights", "pipeline parallel", "does not fit", "needs"} {
			if strings.Contains(out+errOut, english) {
				t.Errorf("%s: English %q in the Chinese output:\n%s%s", strings.Join(args, " "), english, out, errOut)
			}
		}
	}
}
