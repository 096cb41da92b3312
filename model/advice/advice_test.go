package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

func TestMaxMicroBatch(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	capacity := 24.0 * model.GiB
	b, err := MaxMicroBatch(w, capacity)
	if err != nil || b < 1 {
		t.Fatalf("MaxMicroBatch() = %d, %v", b, err)
	}
	at := func(b int) float64 {
		v := w
		v.MicroBatch = b
		e, _ := model.Compute(v, nil)
		return e.Memory.Total()
	}
	if at(b) > capacity || at(b+1) <= capacity {
		t.Errorf("MaxMicroBatch() = %d: batch %d needs %.4g B, batch %d %.4g B, capacity %.4g B", b, b, at(b), b+1, at(b+1), capacity)
	}
	if b, _ := MaxMicroBatch(model.Workload{Settings: model.Settings{Task: model.TaskFinetune}, Model: modeltest.Llama2_7B}, 24*model.GiB); b != 0 {
		t.Errorf("full fine-tune of 7B on 24 GiB: MaxMicroBatch() = %d, want 0", b)
	}
}

func TestFitAdvice(t *testing.T) {
	// A global batch of 8 (1 × 8): sharding over up to 8 GPUs keeps it.
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 8, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	adv := FitAdvice(w, 80*model.GiB*(1-model.FitMargin))
	if len(adv) == 0 {
		t.Fatal("no advice for a full fine-tune of 7B on one 80 GiB GPU")
	}
	if !adv[0].Fits {
		t.Errorf("first advice %q does not fit", adv[0].Change)
	}
	var sawZeRO bool
	for _, a := range adv {
		e, _ := model.Compute(a.Workload, nil)
		if e.Memory.Total() != a.Total {
			t.Errorf("%q: Total %.4g B, recomputed %.4g B", a.Change, a.Total, e.Memory.Total())
		}
		sawZeRO = sawZeRO || a.Workload.Strategy == model.ZeRO3
		// Advice keeps the job (issue 31): never another task (LoRA for a
		// full fine-tune) or model.
		if a.Workload.Task != model.TaskFinetune || a.Workload.Model.Key != modeltest.Llama2_7B.Key {
			t.Errorf("%q changes the job: task %s, model %s", a.Change, a.Workload.Task, a.Workload.Model.Key)
		}
	}
	if !sawZeRO {
		t.Errorf("advice lacks ZeRO-3: %+v", adv)
	}
	// A global batch of one sample cannot be shared by two GPUs: no
	// sharding is advised rather than one that changes the batch.
	w.GradAccum = 1
	for _, a := range FitAdvice(w, 80*model.GiB*(1-model.FitMargin)) {
		if a.Workload.Strategy == model.ZeRO3 {
			t.Errorf("global batch 1: %q", a.Change)
		}
	}
}

// TestFitAdviceKeepsGlobalBatch: sharding over more GPUs keeps a global
// batch the job states (micro-batch 1 × accumulation 8 = 8): each of n
// GPUs accumulates 8 ÷ n, and a GPU count that cannot share it (none
// here up to 8) is not advised.
func TestFitAdviceKeepsGlobalBatch(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, GradAccum: 8, SeqLen: 2048}, Model: modeltest.Llama2_7B}
	for _, a := range FitAdvice(w, 40*model.GiB*(1-model.FitMargin)) {
		v := a.Workload
		if g := v.GlobalBatch(); g != 8 {
			t.Errorf("%q: global batch %d (micro-batch %d × accumulation %d × %d GPUs), want 8", a.Change, g, v.MicroBatch, v.GradAccum, v.GPUs)
		}
	}
}

func TestSameGlobalBatch(t *testing.T) {
	for _, tt := range []struct{ global, limit, micro, accum int }{
		{256, 160, 128, 2}, {1000, 160, 125, 8}, {768, 160, 128, 6}, {7, 4, 1, 7}, {64, 64, 64, 1},
	} {
		m, a := sameGlobalBatch(tt.global, tt.limit)
		if m != tt.micro || a != tt.accum || m*a != tt.global {
			t.Errorf("sameGlobalBatch(%d, %d) = %d × %d, want %d × %d", tt.global, tt.limit, m, a, tt.micro, tt.accum)
		}
	}
}
