package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestLoRATargetsPEFTNames (a new user's walk): --lora-targets q_proj,v_proj
// and all-linear, the values of PEFT and TRL configs, were "unknown
// target"; they estimate what q,v and the seven projections do, from the
// flag and from a config file, and an unknown name still says what is
// wanted in one line.
func TestLoRATargetsPEFTNames(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "lora", "--gpu", "a100-80gb", "--json", "--lora-targets"}
	for _, tc := range []struct{ peft, ours string }{
		{"q_proj,v_proj", "q,v"},
		{"all-linear", "q,k,v,o,gate,up,down"},
		{"query,value", "q,v"},
	} {
		got, _ := runCLIJSON[report.EstimateJSON](t, base, tc.peft)
		want, _ := runCLIJSON[report.EstimateJSON](t, base, tc.ours)
		if got.Memory.PerGPUBytes.Total != want.Memory.PerGPUBytes.Total || strings.Join(got.Workload.LoRATargets, ",") != tc.ours {
			t.Errorf("--lora-targets %s: %v bytes on %v; want %s's %v bytes", tc.peft, got.Memory.PerGPUBytes.Total, got.Workload.LoRATargets, tc.ours, want.Memory.PerGPUBytes.Total)
		}
	}
	cfg := writeFile(t, "peft.toml", "schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"lora\"\nlora_targets = [\"q_proj\", \"v_proj\"]\n")
	if code, out, errs := runCLI(t, "estimate", "--config", cfg, "--gpu", "a100-80gb"); code != 0 || !strings.Contains(out, "on [q v]") {
		t.Errorf("lora_targets = [q_proj, v_proj] in a config: exit %d, stderr %q", code, errs)
	}
	code, out, errs := runCLI(t, append(base[:len(base)-1], "--lora-targets", "c_attn")...)
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `unknown target "c_attn"`) || !strings.Contains(errs, "all-linear") {
		t.Errorf("--lora-targets c_attn: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
