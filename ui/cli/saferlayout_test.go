package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
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
// The big host is the 10-GPU one now: the recipe's 16 runs there as the
// nearest 10 GPUs share (1 × 2 × 10 = 20) at the 8-GPU host's job cost,
// and one host per GPU and region is listed (it was refused: "10 GPUs
// cannot share a global batch of 16").
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
			if o.InstanceType == "n3-RTX-A4000x10" {
				eight = true
				if o.Strategy != "fsdp" {
					t.Errorf("%v: the 10-GPU host runs %s, want fsdp", extra, o.Strategy)
				}
			}
		}
		if !eight {
			t.Errorf("%v: no n3-RTX-A4000x10 offer", extra)
		}
	}
}

// TestEstimateSaferLayout (estlayout): estimate --gpu G --gpus N with no
// strategy named takes the layout recommend ranks for that GPU and count
// (model.OpenLayout, shape's rule), with the same VRAM per GPU and
// verdict, and says on stderr why when it is not DDP. Llama 3.1 8B QLoRA
// at 1 × 4096: DDP needs 14.47 GiB per GPU, its 90% band 11.03–18.16;
// a V100 16GB has 14.99 GiB usable (15.78 visible less the 5% margin), an
// RTX A4000 15.20, so DDP fits at the estimate only (borderline, about a
// 10% chance of running out of memory). FSDP over 4 needs 11.29 GiB (band
// top 14.17), over 8 10.60: both fit across their band, so FSDP. Before,
// estimate took FSDP only where DDP did not fit at all and printed the
// borderline DDP beside recommend's FSDP ×4, 11.29 GiB/GPU. Over 2 FSDP
// needs 12.67 GiB, band top 15.90, past 14.99: borderline too, so DDP is
// kept, as recommend keeps it, with no note. A strategy named is kept.
func TestEstimateSaferLayout(t *testing.T) {
	type estimate struct {
		Workload struct{ Strategy string }
		Memory   struct {
			PerGPUBytes struct{ Total int64 } `json:"per_gpu_bytes"`
		}
		GPU *struct{ Verdict string }
	}
	const borderline = "no --strategy: DDP is borderline on NVIDIA V100 SXM2 16GB (its 90% range reaches 18.16 GiB per GPU, past the 14.99 GiB usable; about 10% chance of running out of memory); estimated as FSDP over the same "
	for _, c := range []struct {
		gpu, gpus, tokens string
		provider, offer   string // recommend's offer of the GPU and count
		extra             []string
		strategy          string
		need              string // GiB per GPU
		verdict           string
		note              string // on stderr; "" for none
	}{
		{"v100-16gb", "4", "20M", "primeintellect", "datacrunch__4xV100_16GB__20__90", nil, "fsdp", "11.29", "fits", borderline + "4 GPUs, which fits across its range, as recommend takes it (--strategy ddp keeps DDP)"},
		{"v100-16gb", "8", "20M", "primeintellect", "lambdalabs__8xV100_16GB__92__448", nil, "fsdp", "10.60", "fits", borderline + "8 GPUs"},
		{"rtx-a4000", "8", "200M", "hyperstack", "n3-RTX-A4000x8", nil, "fsdp", "10.60", "fits", "no --strategy: DDP is borderline on NVIDIA RTX A4000 (its 90% range reaches 18.16 GiB per GPU, past the 15.20 GiB usable"},
		{"v100-16gb", "2", "20M", "primeintellect", "datacrunch__2xV100_16GB__10__45", nil, "ddp", "14.47", "borderline", ""},
		{"v100-16gb", "4", "20M", "primeintellect", "datacrunch__4xV100_16GB__20__90", []string{"--strategy", "ddp"}, "ddp", "14.47", "borderline", ""},
	} {
		name := fmt.Sprintf("%s × %s %v", c.gpus, c.gpu, c.extra)
		job := []string{"--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", c.tokens, "--gpu", c.gpu, "--gpus", c.gpus, "--json"}
		e, errs := runCLIJSON[estimate](t, append([]string{"estimate"}, job...), c.extra...)
		need := fmt.Sprintf("%.2f", float64(e.Memory.PerGPUBytes.Total)/model.GiB)
		if e.Workload.Strategy != c.strategy || need != c.need || e.GPU == nil || e.GPU.Verdict != c.verdict {
			t.Errorf("%s: estimate %s at %s GiB, %+v; want %s at %s, %s", name, e.Workload.Strategy, need, e.GPU, c.strategy, c.need, c.verdict)
		}
		if c.note == "" && strings.Contains(errs, "no --strategy") || c.note != "" && !strings.Contains(errs, c.note) {
			t.Errorf("%s: stderr %q, want the note %q", name, errs, c.note)
		}
		r, _ := runCLIJSON[report.RecommendJSON](t, append([]string{"recommend", "--providers", c.provider, "--no-savings"}, job...), c.extra...)
		found := false
		for _, o := range r.Offers {
			if o.InstanceType != c.offer {
				continue
			}
			found = true
			if got := fmt.Sprintf("%.2f", o.VRAMNeedGiB); o.Strategy != e.Workload.Strategy || got != need || o.Verdict != e.GPU.Verdict {
				t.Errorf("%s: recommend's %s runs %s at %s GiB, %s; estimate %s at %s, %s", name, c.offer, o.Strategy, got, o.Verdict, e.Workload.Strategy, need, e.GPU.Verdict)
			}
		}
		if !found {
			t.Errorf("%s: recommend lists no %s", name, c.offer)
		}
	}
}
