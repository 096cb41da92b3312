package cli

import (
	"strings"
	"testing"
)

// TestFlagsIgnoredForInference: a training flag given with --task
// inference is said ignored, each in one warning line, as --optimizer
// and --grad-accum were; --checkpointing was taken silently (walk49).
// The estimate still runs (exit 0).
func TestFlagsIgnoredForInference(t *testing.T) {
	for _, tc := range []struct{ flag, want string }{
		{"--checkpointing", "--checkpointing ignored: inference keeps no activations for a backward pass"},
		{"--optimizer=sgd", "--optimizer ignored: inference has no optimizer"},
		{"--grad-accum=4", "--grad-accum ignored: inference has no gradients"},
		{"--lora-rank=8", "--lora-rank ignored: only lora and qlora train adapters"},
	} {
		code, _, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "inference", tc.flag, "--gpu", "h100-sxm")
		if code != 0 || !strings.Contains(errs, "warning: "+tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 0 and %q", tc.flag, code, errs, tc.want)
		}
	}
}

// TestTaskAliasesDocumented: --task takes pretrain, fine-tune and serve
// as aliases, and its help says so rather than accepting them silently.
func TestTaskAliasesDocumented(t *testing.T) {
	code, out, _ := runCLI(t, "estimate", "--help")
	if code != 0 || !strings.Contains(out, "train (also pretrain), finetune (also fine-tune, full), lora, qlora or inference (also serve, infer)") {
		t.Errorf("estimate --help: exit %d; the --task line does not name the aliases:\n%s", code, out)
	}
	for alias, task := range map[string]string{"pretrain": "train", "fine-tune": "finetune", "serve": "inference"} {
		code, out, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", alias, "--json")
		if code != 0 || !strings.Contains(out, `"task": "`+task+`"`) {
			t.Errorf("--task %s: exit %d, want the %s task; stderr %s", alias, code, task, errs)
		}
	}
}
