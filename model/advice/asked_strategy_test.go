package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceKeepsStrategyAsked: a Llama 3.1 8B fine-tune already on
// ZeRO-3 (or FSDP) over 8 GPUs at micro-batch 4 × accumulation 2 (a
// global batch of 64) that does not fit 80 GiB is not told to "shard with
// ZeRO-3 (--strategy zero3) over 8 GPUs": the user asked for that (a new
// user's walk); the micro-batch line says the change, with the job's
// global batch of 64, and sharding over more GPUs names --gpus, not the
// strategy asked.
func TestFitAdviceKeepsStrategyAsked(t *testing.T) {
	capBytes := 80 * model.GiB * (1 - model.FitMargin)
	for _, s := range []model.Strategy{model.ZeRO3, model.FSDP} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: s, GPUs: 8, MicroBatch: 4, GradAccum: 2, SeqLen: 4096}, Model: modeltest.Llama31_8B}
		adv := FitAdvice(w, capBytes)
		var micro bool
		for _, a := range adv {
			if strings.Contains(a.Change, "--strategy "+string(s)) || strings.Contains(a.Change, "ZeRO-3 or FSDP") {
				t.Errorf("%s asked: advice %q names the strategy asked", s, a.Change)
			}
			if a.Workload.Strategy == s && a.Workload.GPUs == w.GPUs && strings.HasPrefix(a.Change, "shard") {
				t.Errorf("%s asked: advice %q is the job asked at another micro-batch, which the micro-batch line says", s, a.Change)
			}
			if g := a.Workload.GlobalBatch(); g != 64 {
				t.Errorf("%s asked: advice %q runs a global batch of %d, want 64", s, a.Change, g)
			}
			micro = micro || a.Change == "micro-batch 1 with gradient accumulation 8 (same global batch of 64) (--batch-size 1 --grad-accum 8)"
		}
		if !micro {
			t.Errorf("%s asked: want the micro-batch 1 × 8 line with the global batch of 64, got %v", s, changes(adv))
		}
	}
}

func changes(adv []Advice) []string {
	out := make([]string, len(adv))
	for i := range adv {
		out[i] = adv[i].Change
	}
	return out
}
