package cli

import (
	"strings"
	"testing"
)

// TestSlidingKVPerTokenSaid: a model with sliding-window layers gives its
// KV cost per token as a whole request's over its tokens, and says so,
// as Mistral 7B's 24 KiB was read as wrong beside a full-attention
// token's 2 × 32 × 8 × 128 × 2 B = 128 KiB (a new user's walk); a model
// without them keeps the plain figure.
func TestSlidingKVPerTokenSaid(t *testing.T) {
	for _, tc := range []struct {
		model, want string
	}{
		{"mistral-7b", "per token per GPU, a 32768-token request's over its tokens, the window layers holding 4096)"},
		{"llama-3.1-8b", "(128 KiB per token per GPU):"},
	} {
		code, out, errOut := runCLI(t, "estimate", "--task", "inference", "--model", tc.model, "--max-model-len", "32768", "--concurrency", "16", "--gpu", "l40s")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.model, code, errOut)
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: no %q in\n%s", tc.model, tc.want, out)
		}
	}
}
