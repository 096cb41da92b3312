package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFSDPAndActivationOffloadFlags: --offload-params with fsdp (torch
// FSDP CPUOffload) and --offload-activations reach the estimate, survive
// an export to TOML and its reload, and what they refuse is one line,
// exit 2, in both languages: --offload-optimizer with fsdp (FSDP has no
// optimizer-only offload) and activation offload without checkpointing.
func TestFSDPAndActivationOffloadFlags(t *testing.T) {
	base := []string{"--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "fsdp", "--gpus", "8", "--checkpointing"}
	code, out, errs := runCLI(t, append(append([]string{"estimate"}, base...), "--offload-params", "--offload-activations", "--gpu", "l40s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"FSDP CPU offload (CPUOffload(offload_params=True))", "activation offload (Unsloth's offloaded gradient checkpointing)", "over PCIe at 32 GB/s each way"} { // L40S: PCIe Gen4 x16, 64 GB/s both ways
		if !strings.Contains(out, want) {
			t.Errorf("estimate lacks %q:\n%s", want, out)
		}
	}

	path := filepath.Join(t.TempDir(), "run.toml")
	args := append(append([]string{"export"}, base...), "--offload-params", "--offload-activations", "--instance", "aws/p4de.24xlarge", "--format", "toml", "-o", path)
	if code, _, errs := runCLI(t, args...); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"offload_params = true", "offload_activations = true", `"--fsdp", "full_shard auto_wrap offload"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("exported file lacks %q:\n%s", want, b)
		}
	}
	if code, out2, errs := runCLI(t, "estimate", "--config", path); code != 0 || !strings.Contains(out2, "FSDP CPU offload") || !strings.Contains(out2, "activation offload") {
		t.Errorf("reloaded file: exit %d, %s\n%s", code, errs, out2)
	}

	for _, tt := range []struct {
		flags  []string
		en, zh string
	}{
		{[]string{"--offload-optimizer"}, "set offload_params (--offload-params) instead", "请改用 offload_params（--offload-params）"},
		{[]string{"--offload-activations", "--checkpointing=false"}, "turn on checkpointing (--checkpointing)", "请打开检查点（--checkpointing）"},
	} {
		for _, lang := range []string{"en", "zh-CN"} {
			code, _, errs := runCLI(t, append(append(append([]string{"estimate"}, base...), tt.flags...), "--lang", lang)...)
			want := map[string]string{"en": tt.en, "zh-CN": tt.zh}[lang]
			if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, want) {
				t.Errorf("%s %v: exit %d, %q; want exit 2 and one line saying %q", lang, tt.flags, code, errs, want)
			}
		}
	}
}
