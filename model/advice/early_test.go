package advice

import (
	"reflect"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestEarlySame: Savings reading the workload changes StartEarly ranked
// beside the Recommend (as recommend does, StartEarly first) gives the
// list Savings ranks itself, offer for offer, for training changes of
// every kind (8-bit AdamW, smaller micro-batches, checkpointing with and
// without the batch, bf16 for fp32, FSDP on a fixed count) and serving's
// int8/int4; an Early made for another workload or query is not read.
// Run it under -race too: the early ranking and the Recommend read one
// catalog at once.
func TestEarlySame(t *testing.T) {
	cat := modeltest.Catalog()
	llama := modeltest.Llama2_7B
	for _, tt := range []struct {
		name  string
		w     model.Workload
		q     model.Query
		kinds []string // kinds StartEarly must rank
	}{
		{"finetune", model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, GradAccum: 4, SeqLen: 512, DatasetTokens: 1e8}, Model: llama},
			model.Query{AutoGPUs: true, AllowMultiNode: true}, []string{"precision", "batch", "checkpointing", "checkpointing+batch"}},
		{"fp32 fixed ddp", model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Precision: model.FP32, MicroBatch: 1, SeqLen: 512, GPUs: 8, Strategy: model.DDP, DatasetTokens: 1e7}, Model: llama},
			model.Query{AllowMultiNode: true}, []string{"precision", "sharding"}},
		{"lora spot", model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e7}, Model: llama},
			model.Query{AutoGPUs: true, Pricing: model.Spot}, []string{"precision"}},
		{"serving", model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.BF16, MicroBatch: 8, SeqLen: 2048}, Model: llama},
			model.Query{AutoGPUs: true}, []string{"precision"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			early := StartEarly(cat, tt.w, tt.q)
			if early == nil {
				t.Fatal("StartEarly ranks nothing: the case has workload changes")
			}
			kinds := map[string]bool{}
			w := tt.w
			w.Defaults()
			for _, c := range ScenarioChanges(Scenario{Workload: w, Query: tt.q}, nil, nil) {
				if early.want[c.Name] {
					kinds[c.Kind] = true
				}
			}
			for _, k := range tt.kinds {
				if !kinds[k] {
					t.Errorf("StartEarly does not rank the %s changes (ranks %v)", k, kinds)
				}
			}
			for _, k := range []string{"pricing", "gpu", "region"} {
				if kinds[k] {
					t.Errorf("StartEarly ranks a %s change, which the Recommendation prices", k)
				}
			}
			rec, err := model.Recommend(tt.w, cat, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			wantBase, want, wantErr := Savings(cat, tt.w, tt.q, &rec, 6, nil)
			gotBase, got, gotErr := Savings(cat, tt.w, tt.q, &rec, 6, early)
			if gotBase != wantBase || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("with Early: base %v, %d changes, %v; ranked by Savings: base %v, %d changes, %v", gotBase, len(got), gotErr, wantBase, len(want), wantErr)
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Logf("%d: %+v %+v\n   vs %+v %+v", i, got[i], got[i].Offer, want[i], want[i].Offer)
					}
				}
			}
			read := 0
			for _, s := range want {
				if early.want[s.Change] {
					read++
				}
			}
			if read == 0 {
				t.Error("no change of the list came from Early: the test compares nothing")
			}
			// Another base: Early is not read (Savings ranks its own).
			other := tt.q
			other.MaxGPUs = 2
			for name := range early.want {
				if _, hit := early.offer(&Scenario{Workload: w, Query: other}, name); hit {
					t.Errorf("Early read for another query (%s)", name)
				}
				if _, hit := early.offer(&Scenario{Workload: w, Query: tt.q}, name); !hit {
					t.Errorf("Early not read for its own base (%s)", name)
				}
			}
		})
	}
	if StartEarly(cat, model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Optimizer: model.AdamW8bit, MicroBatch: 1, SeqLen: 512, Checkpointing: model.Bool(true), Precision: model.AMPBF16}, Model: llama}, model.Query{AutoGPUs: true}) != nil {
		t.Error("StartEarly started a ranking with no workload change to rank")
	}
}
