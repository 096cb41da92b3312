package cli

import (
	"strings"
	"testing"
)

// TestRopeScalingKeepsDefaultLength (a new user's walk): --rope-scaling
// yarn:4 without --max-model-len planned Qwen3 8B at 4096 tokens a
// request, saying nothing, where vLLM alone would derive 32768 × 4. The
// default stays (docs/serving.md: gpuplan plans the model's default length,
// not vLLM's whole context), and stderr says so and how to plan for them;
// a length given, in any of its flags, says nothing.
func TestRopeScalingKeepsDefaultLength(t *testing.T) {
	const note = "--rope-scaling yarn:4 without --max-model-len: max_model_len stays 4096, gpuplan's default, which the launch files pass, not the 131072 positions YaRN gives; give --max-model-len 131072"
	base := []string{"--model", "qwen3-8b", "--task", "inference", "--limit", "1"}
	for _, tt := range []struct {
		name string
		args []string
		want bool
	}{
		{"recommend yarn:4 alone", []string{"recommend", "--rope-scaling", "yarn:4"}, true},
		{"estimate yarn:4 alone", []string{"estimate", "--rope-scaling", "yarn:4", "--gpu", "h100"}, true},
		{"yarn:4 with --max-model-len 128K", []string{"recommend", "--rope-scaling", "yarn:4", "--max-model-len", "128K"}, false},
		{"yarn:4 with --context-len 64K", []string{"recommend", "--rope-scaling", "yarn:4", "--context-len", "64K"}, false},
		{"no scaling", []string{"recommend"}, false},
	} {
		args := append(append([]string{}, tt.args[0]), base...)
		if tt.args[0] == "estimate" {
			args = args[:len(args)-2] // estimate has no --limit
		}
		code, _, errs := runCLI(t, append(args, tt.args[1:]...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tt.name, code, errs)
			continue
		}
		if got := strings.Contains(errs, note); got != tt.want {
			t.Errorf("%s: note said %v, want %v; stderr:\n%s", tt.name, got, tt.want, errs)
		}
	}
}
