package cli

import (
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestSaferLayout (walk47): a Llama 3.1 8B QLoRA of 200M tokens on
// hyperstack's RTX A4000 hosts (16 GB). Data parallel on 8 of them is
// borderline (its 90% memory band past the usable VRAM, about a 10%
// chance of running out of memory) and FSDP fits across its band, so the
// 8-GPU host runs FSDP without a deadline as with one (model: shape,
// saferLayout), and nothing listed is borderline: the 1-GPU host, whose
// only layout is borderline, gives way to the 4-GPU host under FSDP at
// about the same job cost. Before, the layout depended on the deadline:
// borderline DDP without one (ranked after every offer that fits, so
// --finish-by and --max-job-cost missed the FSDP layout), FSDP with one.
func TestSaferLayout(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "200M", "--no-savings",
		"--providers", "hyperstack", "--gpu", "rtx-a4000", "--json"}
	for _, extra := range [][]string{nil, {"--deadline-hours", "14"}} {
		j, _ := runCLIJSON[report.RecommendJSON](t, base, extra...)
		eight := false
		for _, o := range j.Offers {
			if o.OOMChance != nil {
				t.Errorf("%v: %s on %d GPUs (%s) is borderline (%v) where FSDP fits", extra, o.InstanceType, o.GPUCount, o.Strategy, *o.OOMChance)
			}
			if o.InstanceType == "n3-RTX-A4000x8" {
				eight = true
				if o.Strategy != "fsdp" {
					t.Errorf("%v: the 8-GPU host runs %s, want fsdp", extra, o.Strategy)
				}
			}
		}
		if !eight {
			t.Errorf("%v: no n3-RTX-A4000x8 offer", extra)
		}
	}
}
