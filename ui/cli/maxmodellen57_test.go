package cli

import (
	"strings"
	"testing"
)

// TestMaxModelLenFillsSaid (walk57): --max-model-len without a prompt
// length plans every request to fill it (32,512 prompt tokens at 32K),
// which rented 8 × 4 L4 for 32 requests a user meant as headroom; the
// plan stays, and stderr says what request it is for and how to give
// another. A prompt length given, or no ceiling given, says nothing.
func TestMaxModelLenFillsSaid(t *testing.T) {
	const said = "max_model_len 32768 without a prompt length: every request is planned at 32512 prompt + 256 output tokens, the whole context"
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--max-model-len", "32K"}, true},
		{[]string{"--max-model-len", "32K", "--prompt-tokens", "2K"}, false},
		{nil, false},
	} {
		args := append([]string{"estimate", "--model", "llama-3.1-8b", "--task", "inference", "--gpu", "l4"}, tc.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 0 || strings.Contains(errOut, said) != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want the note %v", tc.args, code, errOut, tc.want)
		}
	}
}
