package cli

import (
	"strings"
	"testing"
)

// TestFitAdviceCombination (a student's walk): a Gemma 3 4B LoRA on one
// L4 was told checkpointing alone (22.63 GiB, ✗, 21.37 usable), a chunked
// loss alone (31.84 GiB, ✗), ZeRO-3 over 2 GPUs and "✗ shard with FSDP
// over 64 GPUs", never the two together on its one L4; Qwen3 0.6B's full
// fine-tune on an A100 40GB had no ✓ line at all. Now the smallest
// combination of the savers that fits comes first (✓), or a single
// change sized to fit across its band (Qwen3 0.6B: micro-batch 1 × 4 ✓,
// where the 2 × 2 advised before did not fit and took a chunked loss
// beside it), its
// flags reproduce its figure, and no sharding past one node is advised
// beside it.
func TestFitAdviceCombination(t *testing.T) {
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
	for _, tt := range []struct {
		name  string
		base  []string
		combo string // the first line's change
		flags []string
	}{
		{"gemma-3-4b LoRA on an L4", []string{"estimate", "--model", "gemma-3-4b", "--task", "lora", "--dataset-tokens", "10M", "--gpu", "l4", "--json"},
			"combine a chunked linear cross-entropy + activation checkpointing at about 33% more compute (--loss chunked --checkpointing)",
			[]string{"--loss", "chunked", "--checkpointing"}},
		{"qwen3-0.6b fine-tune on an A100 40GB", []string{"estimate", "--model", "qwen3-0.6b", "--task", "finetune", "--gpu", "a100", "--json"},
			"micro-batch 1 with gradient accumulation 4 (same global batch of 4) (--batch-size 1 --grad-accum 4)",
			[]string{"--batch-size", "1", "--grad-accum", "4"}},
	} {
		d, _ := runCLIJSON[doc](t, tt.base)
		if len(d.GPU.Advice) == 0 || d.GPU.Advice[0].Change != tt.combo || d.GPU.Advice[0].Verdict != "fits" {
			t.Errorf("%s: advice %+v; want first %q, fits", tt.name, d.GPU.Advice, tt.combo)
			continue
		}
		for _, a := range d.GPU.Advice {
			if strings.Contains(a.Change, "over 64 GPUs") || strings.Contains(a.Change, "over 32 GPUs") || strings.Contains(a.Change, "over 16 GPUs") {
				t.Errorf("%s: sharding past one node advised beside a change that fits: %q", tt.name, a.Change)
			}
		}
		again, _ := runCLIJSON[doc](t, tt.base, tt.flags...)
		if again.Memory.PerGPUBytes.Total != d.GPU.Advice[0].PerGPUBytes || again.GPU.Verdict != "fits" {
			t.Errorf("%s: advised %d bytes; %q gives %d bytes, %s", tt.name, d.GPU.Advice[0].PerGPUBytes, tt.flags, again.Memory.PerGPUBytes.Total, again.GPU.Verdict)
		}
	}
}
