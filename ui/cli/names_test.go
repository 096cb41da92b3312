package cli

import (
	"strings"
	"testing"
)

// TestNewUserModelNames (the names walk): Hugging Face ids a new user
// types resolve to the catalog entry of their architecture, which the
// estimate's header names. DeepSeek-R1-Distill-Qwen-1.5B answered
// "unknown model" with no suggestion while its 7B–70B siblings resolved;
// so did meta-llama/Meta-Llama-3-8B and -70B, base and Instruct.
func TestNewUserModelNames(t *testing.T) {
	for _, tc := range []struct{ model, header string }{
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "DeepSeek-R1-Distill-Qwen 1.5B · inference"},
		// Llama 3 (not 3.1): 8192 positions, no RoPE scaling; base and Instruct.
		{"meta-llama/Meta-Llama-3-8B", "Llama 3 8B · inference"},
		{"meta-llama/Meta-Llama-3-8B-Instruct", "Llama 3 8B · inference"},
		{"meta-llama/Meta-Llama-3-70B", "Llama 3 70B · inference"},
		{"meta-llama/Meta-Llama-3-70B-Instruct", "Llama 3 70B · inference"},
	} {
		code, out, errs := runCLI(t, "estimate", "--model", tc.model, "--task", "inference")
		if first, _, _ := strings.Cut(out, "\n"); code != 0 || !strings.HasPrefix(first, tc.header) {
			t.Errorf("--model %s: exit %d, first line %q, want it to start %q\n%s", tc.model, code, first, tc.header, errs)
		}
	}
}

// TestLlama3Context: Llama 3 is Llama 3.1's layers trained to 8192 tokens
// (max_position_embeddings 8192, no rope_scaling), so a 16K request is
// refused for it and planned for 3.1, whose config.json reaches 131072.
func TestLlama3Context(t *testing.T) {
	args := []string{"estimate", "--task", "inference", "--gpu", "l4", "--max-model-len", "16384", "--model"}
	code, _, errs := runCLI(t, append(args, "meta-llama/Meta-Llama-3-8B-Instruct")...)
	if code == 0 || !strings.Contains(errs, "above the model's 8192 positions") {
		t.Errorf("Llama 3 8B at 16384 tokens: exit %d, stderr %q; want a refusal naming its 8192 positions", code, errs)
	}
	if code, _, errs := runCLI(t, append(args, "meta-llama/Llama-3.1-8B-Instruct")...); code != 0 {
		t.Errorf("Llama 3.1 8B at 16384 tokens: exit %d: %s", code, errs)
	}
}
