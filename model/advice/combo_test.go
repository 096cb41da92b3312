package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// llama31_70B is Llama 3.1 70B's shape from its config.json
// (meta-llama/Llama-3.1-70B: 80 layers, hidden 8192, 64 heads, 8 KV heads,
// intermediate 28672, vocab 128256).
var llama31_70B = model.Architecture{Key: "llama-3.1-70b", Family: model.FamilyDecoder, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8,
	FFN: 28672, GatedMLP: true, Vocab: 128256, Norm: model.RMSNorm, MaxPositions: 131072}

// TestFitAdviceCombines: when no single change fits, sharding and
// activation checkpointing together are advised (torchtune's 70B full
// fine-tune recipe), over the fewest GPUs that fit; a job one change
// already fits is not told the pair. Where the pair fits only past one
// node, sharding with more savers within it comes first (shardCombine:
// 70B on one H100 was told 32 GPUs, where 8 fit with 8-bit AdamW and
// pure bf16 too).
func TestFitAdviceCombines(t *testing.T) {
	h100 := 80 * model.GiB * (1 - model.FitMargin)
	mi300x := 192 * model.GiB * (1 - model.FitMargin)
	for _, c := range []struct {
		name      string
		w         model.Workload
		capBytes  float64
		wantCombo bool
	}{
		{"70B full fine-tune, micro-batch 1 × 4096 per GPU (no accumulation given): no single change fits",
			model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 1}, Model: llama31_70B}, h100, true},
		{"70B with a global batch of 64 to share",
			model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 64, SeqLen: 4096, GPUs: 1}, Model: llama31_70B}, h100, true},
		// ZeRO-3 alone fits 192 GB GPUs only over 32 of them; with
		// checkpointing over 8 (walk45b, estimate --gpu mi300x).
		{"70B on 192 GB GPUs: sharding alone fits, the pair on fewer GPUs",
			model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 1}, Model: llama31_70B}, mi300x, true},
		{"7B full fine-tune: ZeRO-3 alone fits",
			model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 8, SeqLen: 2048}, Model: modeltest.Llama2_7B}, h100, false},
		{"70B already checkpointing: nothing to combine",
			model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 64, SeqLen: 4096, GPUs: 1, Checkpointing: model.Bool(true)}, Model: llama31_70B}, h100, false},
	} {
		adv := FitAdvice(c.w, c.capBytes)
		var combos []Advice
		for _, a := range adv {
			e, _ := model.Compute(a.Workload, nil)
			if e.Memory.Total() != a.Total {
				t.Errorf("%s: %q: Total %.4g B, recomputed %.4g B", c.name, a.Change, a.Total, e.Memory.Total())
			}
			if strings.Contains(a.Change, ", with activation checkpointing") {
				combos = append(combos, a)
			}
		}
		if !c.wantCombo {
			if len(combos) > 0 {
				t.Errorf("%s: advised %q", c.name, combos[0].Change)
			}
			continue
		}
		if len(combos) == 0 || !adv[0].Fits || adv[0].Change != combos[0].Change {
			t.Fatalf("%s: want a fitting combination first, got %+v", c.name, adv)
		}
		// On fewer GPUs than every single change that fits.
		for _, a := range adv {
			if a.Fits && !strings.Contains(a.Change, ", with activation checkpointing") && a.Workload.GPUs <= combos[0].Workload.GPUs {
				t.Errorf("%s: %q fits on %d GPUs, the pair %q on %d", c.name, a.Change, a.Workload.GPUs, combos[0].Change, combos[0].Workload.GPUs)
			}
		}
		a := combos[0].Workload
		if !a.Ckpt() || (a.Strategy != model.ZeRO3 && a.Strategy != model.FSDP) || a.Task != model.TaskFinetune {
			t.Errorf("%s: %q is not sharding with checkpointing: %+v", c.name, combos[0].Change, a.Settings)
		}
		// The fewest GPUs: half as many, with the same pair, do not fit.
		fewer, ok := a.OnGPUs(a.GPUs / 2)
		if !ok && a.BatchPerGPU {
			fewer, ok = a, true
			fewer.GPUs = a.GPUs / 2
		}
		if ok {
			if e, err := model.Compute(fewer, nil); err == nil && e.Memory.Total() <= c.capBytes {
				t.Errorf("%s: advised %d GPUs, but %d fit (%.2f GiB)", c.name, a.GPUs, fewer.GPUs, e.Memory.Total()/model.GiB)
			}
		}
		if c.w.GradAccum > 0 && a.GlobalBatch() != c.w.GlobalBatch() {
			t.Errorf("%s: global batch %d, want %d kept", c.name, a.GlobalBatch(), c.w.GlobalBatch())
		}
	}
}
