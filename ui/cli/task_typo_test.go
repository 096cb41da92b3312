package cli

import (
	"strings"
	"testing"
)

// TestTaskTypoSuggestsSpelling: --task serv is nearest "serve", an
// accepted spelling of inference, not a canonical name; the flag's
// did-you-mean offers it (it listed the names alone).
func TestTaskTypoSuggestsSpelling(t *testing.T) {
	code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "serv")
	const want = `--task "serv": did you mean "serve"? want train, finetune, lora, qlora or inference`
	if code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("--task serv: exit %d, %q; want %q", code, errOut, want)
	}
	if code, _, errOut := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "serve", "--gpu", "a100-80gb"); code != 0 {
		t.Errorf("--task serve: exit %d, %q", code, errOut)
	}
}
