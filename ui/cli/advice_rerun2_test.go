package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestFitAdviceLinesRerun: every line of fit advice that names flags
// gives, re-run with exactly the job asked and those flags, the figure
// and verdict it printed, and no line advises what the GPU cannot run (a
// new user's walk: "✓ shard with ZeRO-3 or FSDP over 4 GPUs … (--checkpointing
// --precision bf16) → 22.29 GiB" on an A100 40GB was 77.37 GiB run with
// those flags, the sharding's own left out; the same line on a V100, which
// has no bf16). Where a configuration fits, the advice shows it: Llama
// 3.1 8B full fine-tune on one L4 (24 GB) fits on 8 L4, one node the
// catalog rents (aws g6.48xlarge), with sharding and savers together, as
// recommend's hint finds, and 70B on 4 A100 80GB on one node of 8; both
// were all ✗, sharding stopping at the 4 GPUs their global batch of 4
// shares (a new user's walk).
func TestFitAdviceLinesRerun(t *testing.T) {
	type doc struct {
		Memory struct {
			PerGPUBytes struct{ Total int64 } `json:"per_gpu_bytes"`
		}
		GPU struct {
			Verdict string
			Advice  []struct {
				Change      string
				PerGPUBytes int64 `json:"per_gpu_bytes"`
				Verdict     string
			}
		}
	}
	for _, base := range [][]string{
		{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "a100-40gb", "--json"},
		{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "v100-32gb", "--json"},
		{"estimate", "--model", "qwen3-0.6b", "--task", "finetune", "--gpu", "a100-40gb", "--seq-len", "8192", "--json"},
		{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpu", "l4", "--json"},
		{"estimate", "--model", "llama-3.1-70b", "--task", "finetune", "--gpu", "a100-80gb", "--gpus", "4", "--json"},
	} {
		d, _ := runCLIJSON[doc](t, base)
		if len(d.GPU.Advice) == 0 {
			t.Fatalf("%v: no fit advice; the case no longer tests it", base)
		}
		if !slices.ContainsFunc(d.GPU.Advice, func(a struct {
			Change      string
			PerGPUBytes int64 `json:"per_gpu_bytes"`
			Verdict     string
		}) bool {
			return a.Verdict == "fits" || a.Verdict == "borderline"
		}) {
			t.Errorf("%v: every line of fit advice is ✗: %+v", base, d.GPU.Advice)
		}
		checked := 0
		for _, a := range d.GPU.Advice {
			if strings.Contains(base[6], "v100") && strings.Contains(a.Change, "--precision bf16") {
				t.Errorf("%v: %q advises pure bf16 on a GPU without bf16", base[6], a.Change)
			}
			flags := advisedFlags(a.Change)
			if flags == nil || strings.Contains(a.Change, "(--gpus") {
				continue // a kept strategy says its GPUs in its words
			}
			checked++
			again, _ := runCLIJSON[doc](t, base, flags...)
			if again.Memory.PerGPUBytes.Total != a.PerGPUBytes || again.GPU.Verdict != a.Verdict {
				t.Errorf("%v: %q advised %d bytes, %s; re-run with %v: %d bytes, %s",
					base[6], a.Change, a.PerGPUBytes, a.Verdict, flags, again.Memory.PerGPUBytes.Total, again.GPU.Verdict)
			}
		}
		if checked == 0 {
			t.Errorf("%v: no advice line names its flags: %+v", base, d.GPU.Advice)
		}
	}
}
