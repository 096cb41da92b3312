package model_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestSplitScanSameEmbedded is TestSplitScanSame over the embedded
// catalog, for the rankings issue 32's measures and a few more (QLoRA on
// auto GPUs; a 70B fine-tune on FSDP across nodes with a deadline; a
// fixed 8 GPUs; spot in Europe; reserved; one country; the marketplaces
// named): the split scan's Recommendation is the one scan's, with more
// than sortHalvesMin offers sorted on two goroutines in most.
func TestSplitScanSameEmbedded(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	arch := func(key string) model.Architecture {
		a, err := cat.Model(key)
		if err != nil {
			t.Fatal(err)
		}
		return *a
	}
	qlora := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048}, Model: arch("llama-3.1-8b")}
	qloraJob := qlora
	qloraJob.DatasetTokens = 1e9
	big := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, DatasetTokens: 1e9, Checkpointing: ptrTrue(), Strategy: model.FSDP}, Model: arch("llama-3.1-70b")}
	eight := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 4, SeqLen: 2048, GPUs: 8}, Model: arch("llama-3.1-8b")}
	for _, tt := range []struct {
		name string
		w    model.Workload
		q    model.Query
	}{
		{"qlora 8b", qlora, model.Query{AutoGPUs: true}},
		{"qlora 8b, job", qloraJob, model.Query{AutoGPUs: true}},
		{"70b fsdp multi-node deadline", big, model.Query{AutoGPUs: true, AllowMultiNode: true, DeadlineHours: 48, KeepStrategy: true}},
		{"70b hourly multi-node", big, model.Query{AutoGPUs: true, AllowMultiNode: true, Sort: model.SortPrice}},
		{"8 GPUs", eight, model.Query{AllowMultiNode: true}},
		{"spot in europe", qlora, model.Query{AutoGPUs: true, Pricing: model.Spot, Regions: []string{"europe"}}},
		{"reserved", qlora, model.Query{AutoGPUs: true, Pricing: model.Reserved1y}},
		{"germany", qlora, model.Query{AutoGPUs: true, Countries: []string{"de"}}},
		{"marketplaces", qlora, model.Query{AutoGPUs: true, Providers: []string{"vast", "lambda", "aws", "runpod"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			restore := model.SetSplitScans(false)
			want, wantErr := model.Recommend(tt.w, cat, tt.q)
			restore()
			restore = model.SetSplitScans(true)
			defer restore()
			for run := range 5 {
				got, err := model.Recommend(tt.w, cat, tt.q)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("run %d: split scan error %v, one scan %v", run, err, wantErr)
				}
				for _, f := range []struct {
					name      string
					got, want any
				}{
					{"offers", got.Offers, want.Offers}, {"near misses", got.Rejected, want.Rejected},
					{"reasons", got.Reasons, want.Reasons}, {"considered", got.Considered, want.Considered},
					{"sort", got.Sort, want.Sort}, {"auto GPUs", got.AutoGPUs, want.AutoGPUs},
				} {
					if !reflect.DeepEqual(f.got, f.want) {
						t.Fatalf("run %d: the split scan's %s differ from the one scan's (%d offers against %d)", run, f.name, len(got.Offers), len(want.Offers))
					}
				}
			}
			t.Logf("%d offers, %d near misses", len(want.Offers), len(want.Rejected))
		})
	}
}

func ptrTrue() *bool { t := true; return &t }
