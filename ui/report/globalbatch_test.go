package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestWorkloadJSONGlobalBatch: the workload's JSON gives the global batch
// asked and the one run when they differ (micro-batch 2 × accumulation 3
// asked on 1 GPU, moved to 4 that cannot share 6: 2 × 3 × 4 = 24), and
// neither when they agree (the QLoRA recipe on 4 GPUs: 1 × 4 × 4; on 3,
// the nearest they share, 1 × 5 × 3 = 15, which asked nothing: its batch
// note says it).
func TestWorkloadJSONGlobalBatch(t *testing.T) {
	arch := model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}
	ft := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, GradAccum: 3}, Model: arch}
	ft.Defaults()
	moved, _ := ft.OnGPUs(4)
	j := NewWorkloadJSON(&moved)
	if j.GlobalBatchAsked != 6 || j.GlobalBatch != 24 {
		t.Errorf("6 on 4 GPUs: global_batch_asked %d, global_batch %d; want 6, 24", j.GlobalBatchAsked, j.GlobalBatch)
	}
	for _, tt := range []struct {
		gpus          int
		asked, global int
	}{{3, 0, 0}, {4, 0, 0}} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, GPUs: tt.gpus}, Model: arch}
		w.Defaults()
		j := NewWorkloadJSON(&w)
		if j.GlobalBatchAsked != tt.asked || j.GlobalBatch != tt.global {
			t.Errorf("%d GPUs: global_batch_asked %d, global_batch %d; want %d, %d", tt.gpus, j.GlobalBatchAsked, j.GlobalBatch, tt.asked, tt.global)
		}
	}
}

// TestGlobalBatchNoteInNearest: recommend's batch line does not say "kept
// on every offer" when an offer's GPUs run the QLoRA recipe's nearest
// batch (10 GPUs: 1 × 2 × 10 = 20, not 16); it names that offer.
func TestGlobalBatchNoteInNearest(t *testing.T) {
	arch := model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA}, Model: arch}
	w.Defaults()
	var offers []model.Offer
	for _, n := range []int{8, 10} {
		v, _ := w.OnGPUs(n)
		offers = append(offers, model.Offer{Estimate: &model.Estimate{Workload: v}})
	}
	want := "global batch 16 (micro-batch 1 × gradient accumulation 16) where an offer's GPUs share it; on the others the LoRA/QLoRA recipe's nearest they share, e.g. 10 GPUs at 1 × 2 (a global batch of 20)"
	if got := GlobalBatchNoteIn(i18n.New(language.English), &w, offers); got != want {
		t.Errorf("GlobalBatchNoteIn = %q, want %q", got, want)
	}
	if got := GlobalBatchNoteIn(i18n.New(language.English), &w, offers[:1]); !strings.Contains(got, "kept on every offer") {
		t.Errorf("8 GPUs only: %q, want kept on every offer", got)
	}
}
