package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestRecommendEstimateAsAsked (new-user walk): a QLoRA of Llama 3.1 8B
// on 50M tokens. The text's header gives the workload as asked, before
// the search picks GPUs: 14.41 GiB per GPU on 1 GPU. --json's estimate is
// the best offer's layout (4 V100s under FSDP, amp-fp16, accumulation
// 4: 11.29 GiB), which a script read as the header's figure; the header's
// was in no member. Now estimate_as_asked is the header's, estimate is
// documented as the first offer's and agrees with offers[0] and its row.
func TestRecommendEstimateAsAsked(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "50M", "--no-savings"}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, js, errs := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	type est struct {
		Workload struct {
			GPUs      int    `json:"gpus"`
			Strategy  string `json:"strategy"`
			Precision string `json:"precision"`
			GradAccum int    `json:"grad_accum"`
		} `json:"workload"`
		Memory struct {
			PerGPU struct {
				Total float64 `json:"total"`
			} `json:"per_gpu_bytes"`
		} `json:"memory"`
	}
	var rec struct {
		Estimate *est `json:"estimate"`
		AsAsked  *est `json:"estimate_as_asked"`
		Offers   []struct {
			GPUCount  int     `json:"gpu_count"`
			Strategy  string  `json:"strategy"`
			NeedGiB   float64 `json:"vram_need_gib"`
			GradAccum int     `json:"grad_accum"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(js), &rec); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	if rec.AsAsked == nil || rec.Estimate == nil || len(rec.Offers) == 0 {
		t.Fatalf("estimate %v, estimate_as_asked %v, %d offers", rec.Estimate, rec.AsAsked, len(rec.Offers))
	}
	gib := func(b float64) string { return fmt.Sprintf("%.2f GiB", b/(1<<30)) }
	// The header: the workload as asked, on 1 GPU.
	header := fmt.Sprintf("VRAM %s per GPU on 1 GPU before the search picks GPUs", gib(rec.AsAsked.Memory.PerGPU.Total))
	if !strings.Contains(out, header) || rec.AsAsked.Workload.GPUs != 1 {
		t.Errorf("estimate_as_asked (%d GPUs, %s) is not the header's %q:\n%s", rec.AsAsked.Workload.GPUs, gib(rec.AsAsked.Memory.PerGPU.Total), header, out)
	}
	// estimate: the first offer's layout, as its row shows it.
	e, o := rec.Estimate, rec.Offers[0]
	if e.Workload.GPUs != o.GPUCount || e.Workload.Strategy != o.Strategy || e.Workload.GradAccum != o.GradAccum ||
		fmt.Sprintf("%.2f", e.Memory.PerGPU.Total/(1<<30)) != fmt.Sprintf("%.2f", o.NeedGiB) {
		t.Errorf("estimate (%d GPUs %s, accumulation %d, %s) is not offers[0]'s (%d %s, %d, %.2f GiB)",
			e.Workload.GPUs, e.Workload.Strategy, e.Workload.GradAccum, gib(e.Memory.PerGPU.Total), o.GPUCount, o.Strategy, o.GradAccum, o.NeedGiB)
	}
	if o.GPUCount > 1 {
		row := fmt.Sprintf("%s ×%d, %s/GPU", strings.ToUpper(o.Strategy), o.GPUCount, gib(e.Memory.PerGPU.Total))
		if !strings.Contains(out, row) {
			t.Errorf("the first row's strategy cell %q is not in\n%s", row, out)
		}
	}
}
