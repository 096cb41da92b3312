package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceLargerTP: a training job already split with tensor
// parallelism that does not fit is told the larger degree over its own
// GPUs that does, with the flag and the accumulation that keeps the
// global batch. Llama 2 7B full fine-tune, 1 × 2048 on 8 GPUs at TP 2 (4
// data-parallel replicas, DDP): each GPU holds half of the 16 bytes of
// model states per parameter, 54 GB, and needs ~81 GiB in all, past 48
// GiB; TP 4 holds a quarter, 27 GB, ~44 GiB in all (TP 8: ~19 GiB), and
// needs accumulation 2 for the same global batch of 4 (1 × 2 × 8/4). A job without TP gets no TP
// advice (its advice is sharding), nor one whose degree cannot grow.
func TestFitAdviceLargerTP(t *testing.T) {
	capBytes := 48.0 * model.GiB
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 1, SeqLen: 2048, GPUs: 8, TP: 2, Strategy: model.DDP}, Model: modeltest.Llama2_7B}
	find := func(adv []Advice) *Advice {
		for i := range adv {
			if strings.HasPrefix(adv[i].Change, "tensor parallelism over") {
				return &adv[i]
			}
		}
		return nil
	}
	base, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if base.Memory.Total() <= capBytes {
		t.Fatalf("TP 2 needs %.1f GiB: the test wants a job past %.0f GiB", base.Memory.Total()/model.GiB, capBytes/model.GiB)
	}
	a := find(FitAdvice(w, capBytes))
	if a == nil {
		t.Fatalf("no tensor-parallel advice for TP 2 at %.1f GiB: %+v", base.Memory.Total()/model.GiB, FitAdvice(w, capBytes))
	}
	want := "tensor parallelism over 4 GPUs (--tp 4) with gradient accumulation 2 (same global batch)"
	if a.Change != want || !a.Fits || a.Workload.TP != 4 || a.Workload.GPUs != 8 || a.Workload.GradAccum != 2 {
		t.Errorf("advice %q (fits %v, TP %d on %d GPUs, accumulation %d), want %q fitting, TP 4 on 8, accumulation 2",
			a.Change, a.Fits, a.Workload.TP, a.Workload.GPUs, a.Workload.GradAccum, want)
	}
	if g, h := w.GlobalBatch(), a.Workload.GlobalBatch(); g != h {
		t.Errorf("global batch %d, advised %d", g, h)
	}
	for _, v := range []model.Workload{
		func() model.Workload { v := w; v.TP = 1; return v }(),                  // no TP: sharding is the advice
		func() model.Workload { v := w; v.TP = 8; v.GradAccum = 1; return v }(), // TP 8 on 8: no larger degree in a node
	} {
		if a := find(FitAdvice(v, capBytes)); a != nil {
			t.Errorf("TP %d on %d GPUs: advice %q, want none", v.TP, v.GPUs, a.Change)
		}
	}
}
