package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestLabelsSayWhatWasAsked: a new user's labels that said what was not
// so. recommend without --gpus says its VRAM figure is before the search
// picks GPUs, not "as asked"; a serving row renting several instances
// says how many ("8×h100-sxm (2 nodes)" on 4-GPU instances), as
// training's rows do; a serving estimate on --gpus 4 that does not fit
// reports those 4 GPUs in --json, not 0 on 0 nodes; the no-strategy note
// prints FSDP's need as the fit advice line prints it (two decimals).
func TestLabelsSayWhatWasAsked(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "llama-3.1-70b", "--limit", "3")
	if code != 0 || strings.Contains(out, "as asked") {
		t.Errorf("recommend without --gpus: exit %d, says \"as asked\" though no GPU count was:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "recommend", "--model", "llama-3.1-70b", "--task", "inference", "--concurrency", "64", "--providers", "lambda", "--limit", "0")
	if code != 0 || !strings.Contains(out, "gpu_4x_h100_sxm5") {
		t.Fatalf("serving recommend: exit %d, want a gpu_4x_h100_sxm5 row:\n%s%s", code, out, errs)
	}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 4 && strings.HasPrefix(f[1], "gpu_4x_") && strings.HasPrefix(f[3], "8×") && f[4] != "(2" {
			t.Errorf("row renting 2 instances of 4 GPUs does not say so: %q", l)
		}
	}
	code, out, errs = runCLI(t, "estimate", "--model", "llama-3.1-70b", "--task", "inference", "--gpu", "l4", "--gpus", "4", "--json")
	var d struct {
		Plan struct {
			GPUs  int `json:"gpus"`
			Nodes int `json:"nodes"`
			Fits  bool
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.Plan.Fits || d.Plan.GPUs != 4 || d.Plan.Nodes != 1 {
		t.Errorf("serving estimate --gpus 4 that does not fit: exit %d, plan %+v; want 4 GPUs on 1 node, not fitting (%s)", code, d.Plan, errs)
	}
	code, out, errs = runCLI(t, "estimate", "--model", "llama-3.1-70b", "--task", "finetune", "--gpus", "4", "--gpu", "a100-80gb")
	note := regexp.MustCompile(`FSDP over the same 4 GPUs at this batch needs (\d+\.\d\d) GiB`).FindStringSubmatch(errs)
	if code != 0 || note == nil || !strings.Contains(out, "shard with FSDP over 4 GPUs (--strategy fsdp") || !strings.Contains(out, "→ "+note[1]+" GiB") {
		t.Errorf("no-strategy note %q and the FSDP advice line disagree (exit %d):\n%s", note, code, out)
	}
}
