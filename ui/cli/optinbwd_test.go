package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOptimizerInBackwardFlag: --optimizer-in-backward and the paged
// optimizers reach the estimate from the command line and the TOML key;
// gradient accumulation is refused in one line, exit 2, in both languages;
// the torch allocated figure leaves the paged states out.
func TestOptimizerInBackwardFlag(t *testing.T) {
	args := []string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--precision", "bf16",
		"--optimizer", "paged_adamw_8bit", "--batch-size", "2", "--seq-len", "2048", "--checkpointing", "--json"}
	code, out, errs := runCLI(t, append(args, "--optimizer-in-backward")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Memory struct {
			PerGPU    map[string]int64 `json:"per_gpu_bytes"`
			Allocated int64            `json:"torch_allocated_bytes"`
			Phases    []struct {
				Phase string           `json:"phase"`
				Bytes map[string]int64 `json:"bytes"`
			} `json:"phases"`
		} `json:"memory"`
		Assumptions []string `json:"assumptions"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	states := v.Memory.PerGPU["optimizer_states"]
	if states == 0 || v.Memory.Allocated > v.Memory.PerGPU["total"]-states {
		t.Errorf("allocated %d B should leave out the %d B of paged states (total %d)", v.Memory.Allocated, states, v.Memory.PerGPU["total"])
	}
	for _, p := range v.Memory.Phases {
		if g := p.Bytes["gradients"]; g > 2*128256*4096 {
			t.Errorf("%s phase holds %d B of gradients, more than the one embedding's %d", p.Phase, g, 2*128256*4096)
		}
	}
	if !strings.Contains(strings.Join(v.Assumptions, "\n"), "optimizer in backward") {
		t.Errorf("no optimizer-in-backward assumption: %q", v.Assumptions)
	}

	toml := writeFile(t, "oib.toml", "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"finetune\"\nprecision = \"bf16\"\noptimizer_in_backward = true\nbatch_size = 2\nseq_len = 2048\n")
	if code, out2, errs := runCLI(t, "estimate", "--config", toml, "--json"); code != 0 || !strings.Contains(out2, "optimizer in backward") {
		t.Errorf("TOML optimizer_in_backward: exit %d, %s", code, errs)
	}

	for _, lang := range []string{"en", "zh-CN"} {
		code, _, errs := runCLI(t, "estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--optimizer-in-backward", "--grad-accum", "4", "--lang", lang)
		want := "gradient accumulation"
		if lang == "zh-CN" {
			want = "梯度累积"
		}
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, want) {
			t.Errorf("%s: grad accum 4: exit %d, %q; want exit 2 and one line naming %q", lang, code, errs, want)
		}
	}
}
