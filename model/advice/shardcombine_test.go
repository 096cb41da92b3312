package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceNodeShards: Llama 3.1 8B full fine-tune, micro-batch 4 per
// GPU, on one 24 GB L4 (21.37 GiB usable), whose advice was all ✗ (a new
// user's walk). Over a node of 8 (aws g6.48xlarge) sharding with
// checkpointing and pure bf16 fits at micro-batch 1 per GPU, but the
// savers together (shardCombine) fit on 4 GPUs at the global batch of 4,
// which comes first (fewer GPUs); over a node of 4 that line is the
// first too, 8-bit AdamW among its savers so that it fits across its
// band (a ✓ before a ~ with fewer savers), and no line goes past the
// node.
func TestFitAdviceNodeShards(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 4096}, Model: modeltest.Llama31_8B}
	l4 := 21.37 * model.GiB
	for _, c := range []struct {
		name      string
		node      int
		wantGPUs  int
		wantFlags string
		want      model.FitVerdict
	}{
		{"node of 8: ZeRO-3 over 4 at 1 × 1 with the savers together", 8, 4, "--strategy zero3 --gpus 4 --batch-size 1 --grad-accum 1 --loss chunked --checkpointing --optimizer adamw-8bit --precision bf16", model.VerdictFits},
		{"node of 4: ZeRO-3 over 4 at 1 × 1 with a chunked loss, checkpointing, 8-bit AdamW and pure bf16", 4, 4, "--strategy zero3 --gpus 4 --batch-size 1 --grad-accum 1 --loss chunked --checkpointing --optimizer adamw-8bit --precision bf16", model.VerdictFits},
	} {
		adv := FitAdviceNode(w, l4, c.node)
		if len(adv) == 0 || !adv[0].Fits {
			t.Errorf("%s: want a line that fits first, got %+v", c.name, adv)
			continue
		}
		a := adv[0]
		if a.Workload.GPUs != c.wantGPUs || !strings.HasSuffix(a.Change, "("+c.wantFlags+")") || a.Verdict != c.want {
			t.Errorf("%s: first line %q on %d GPUs, %s; want %d GPUs, (%s), %s", c.name, a.Change, a.Workload.GPUs, a.Verdict, c.wantGPUs, c.wantFlags, c.want)
		}
		if e, err := model.Compute(a.Workload, nil); err != nil || e.Memory.Total() != a.Total {
			t.Errorf("%s: %q: Total %.4g B, recomputed %.4g B (%v)", c.name, a.Change, a.Total, e.Memory.Total(), err)
		}
		for _, a := range adv {
			if a.Workload.GPUs > c.node {
				t.Errorf("%s: %q past the node of %d though a line within it fits", c.name, a.Change, c.node)
			}
		}
	}
}
