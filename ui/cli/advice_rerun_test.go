package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestShardAdviceReproduces: the fit advice names ZeRO-3 and FSDP each
// with its own figure and verdict, and re-running estimate with each
// advised flag set (--strategy, --batch-size, --grad-accum) gives the same
// per-GPU bytes and verdict (a new user's trial: "ZeRO-3 or FSDP … →
// 64.49 GiB" was ZeRO-3's figure; --strategy fsdp gave 71.13 GiB,
// borderline). Llama 3.1 8B full fine-tune on 4 A100 80GB, micro-batch 4:
// both shard over the same 4 GPUs at micro-batch 1 × accumulation 4.
func TestShardAdviceReproduces(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--gpus", "4", "--gpu", "a100-80gb", "--dataset-tokens", "50M", "--json"}
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
	run := func(args ...string) doc {
		t.Helper()
		d, _ := runCLIJSON[doc](t, base, args...)
		return d
	}
	d := run()
	seen := map[string]bool{}
	for _, a := range d.GPU.Advice {
		if strings.Contains(a.Change, "ZeRO-3 or FSDP") {
			t.Errorf("advice %q names both with one figure, though they differ here", a.Change)
		}
		var strategy string
		var gpus, micro, accum int
		if n, _ := fmt.Sscanf(a.Change, "shard with %s (--strategy %s over %d GPUs at micro-batch %d × accumulation %d", new(string), &strategy, &gpus, &micro, &accum); n != 5 {
			continue
		}
		strategy = strings.TrimSuffix(strategy, ")")
		seen[strategy] = true
		again := run("--strategy", strategy, "--batch-size", fmt.Sprint(micro), "--grad-accum", fmt.Sprint(accum))
		if again.Memory.PerGPUBytes.Total != a.PerGPUBytes || again.GPU.Verdict != a.Verdict {
			t.Errorf("%q: advised %d bytes, %s; --strategy %s --batch-size %d --grad-accum %d gives %d bytes, %s",
				a.Change, a.PerGPUBytes, a.Verdict, strategy, micro, accum, again.Memory.PerGPUBytes.Total, again.GPU.Verdict)
		}
	}
	if !seen["zero3"] || !seen["fsdp"] {
		t.Errorf("advice %+v: want a ZeRO-3 and an FSDP line, each with its flags", d.GPU.Advice)
	}
}
