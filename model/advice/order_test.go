package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceOnGPUWithoutBF16: on a GPU without bf16 (a V100) the
// combined searches look past pure bf16 for what runs there: Llama 3.1 8B
// full fine-tune, micro-batch 4 per GPU, on one V100 was told only ✗ (the
// smallest sharded sets held pure bf16, which RunnableOn then dropped),
// while ZeRO-3 over the 8 of one node with the other savers fits: at the
// estimate on 16 GB, across its band on 32 GB. No line trains in pure
// bf16.
func TestFitAdviceOnGPUWithoutBF16(t *testing.T) {
	v100, v100x32 := modeltest.V100, modeltest.V100
	v100x32.MemoryGiB = 32
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 4096}, Model: modeltest.Llama31_8B, BatchPerGPU: true}
	for _, c := range []struct {
		name string
		g    *model.GPU
		want model.FitVerdict
	}{
		{"8B full fine-tune, 4 per GPU, V100 16GB", &v100, model.VerdictBorderline},
		{"8B full fine-tune, 4 per GPU, V100 32GB", &v100x32, model.VerdictFits},
	} {
		const node = 8
		adv := FitAdviceOn(w, c.g, model.UsableBytes(c.g), node)
		if len(adv) == 0 || adv[0].Verdict != c.want {
			t.Errorf("%s: want a %s line first, got %v", c.name, c.want, changes(adv))
		}
		for _, a := range adv {
			if a.Workload.Precision == model.BF16 || strings.Contains(a.Change, "--precision bf16") {
				t.Errorf("%s: %q trains in pure bf16 on a GPU without it", c.name, a.Change)
			}
			if a.Workload.GPUs > node {
				t.Errorf("%s: %q past the node of %d though a line within it fits", c.name, a.Change, node)
			}
		}
	}
}

// TestSmallestSetOrder: smallestSet weighs every saver on the layout it
// is combined with and prefers, in order, a set that fits across its band
// (✓), mixed precision kept, fewer savers. Llama 3.1 8B full fine-tune
// sharded with ZeRO-3 over 8 GPUs at 1 per GPU on an L4 (21.37 GiB): a
// set without pure bf16 fits across its band there, so pure bf16 is not
// advised, though with it fewer savers fit.
func TestSmallestSetOrder(t *testing.T) {
	l4 := 21.37 * model.GiB
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 8, Strategy: model.ZeRO3}, Model: modeltest.Llama31_8B, BatchPerGPU: true}
	w.Defaults()
	all := func(*model.Workload) bool { return true }
	c, ok := smallestSet(w, l4, 1, true, true, all)
	if !ok || c.verdict != model.VerdictFits || c.w.Precision == model.BF16 {
		t.Fatalf("smallestSet = %v %s (%s), ok %v; want ✓ in mixed precision", c.flags, c.verdict, c.w.Precision, ok)
	}
	// Every saver it takes is needed: without any one it is not ✓.
	for i, f := range c.flags {
		rest := append(append([]string{}, c.flags[:i]...), c.flags[i+1:]...)
		v := w
		for _, g := range rest {
			switch g {
			case "--loss chunked":
				v.Loss = model.LossChunked
			case "--checkpointing":
				v.Checkpointing = model.Bool(true)
			case "--optimizer adamw-8bit":
				v.Optimizer = model.AdamW8bit
			case "--flash-attention":
				v.FlashAttention = model.Bool(true)
			}
		}
		e, _ := model.Compute(v, nil)
		if model.MemoryVerdict(e.Memory.Total(), e.MemoryBand, l4) == model.VerdictFits {
			t.Errorf("smallestSet = %v: without %s it is ✓ too (%v)", c.flags, f, rest)
		}
	}
}
