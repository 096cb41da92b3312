package model_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestShapeSharingSameEmbedded: the shapes instance types share when they
// differ only in what shape does not read of their host (one per GPU and
// GPUs per node on one node, with the most host RAM any of its checks
// asked for, model/match.go shapeKeyOf) give the Recommendation that
// shaping every type with its whole host gives, over the embedded
// catalog: training, LoRA, QLoRA and inference, auto and fixed GPU
// counts (within and beyond one node), GPUs without bf16 (T4, V100) with
// and without the precision fallback, hosts short of RAM (70B), a
// deadline, a vision model; and the savings' searches that start from
// the ranking's shapes.
func TestShapeSharingSameEmbedded(t *testing.T) {
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
	job := func(s model.Settings, key string) model.Workload {
		s.DatasetTokens = 1e9
		return model.Workload{Settings: s, Model: arch(key)}
	}
	qlora := job(model.Settings{Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048}, "llama-3.1-8b")
	lora := job(model.Settings{Task: model.TaskLoRA, MicroBatch: 4, SeqLen: 2048}, "llama-3.1-8b")
	full := job(model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048}, "llama-3.1-8b")
	bf16 := full
	bf16.Precision = model.AMPBF16
	loraBF16 := lora
	loraBF16.Precision = model.AMPBF16
	// ZeRO-Offload keeps the optimizer states in host RAM, per GPU: hosts
	// short of RAM for it on one node.
	offload := job(model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, Strategy: model.ZeRO2, Switches: model.Switches{OffloadOptimizer: true}}, "llama-3.1-8b")
	serve := model.Workload{Settings: model.Settings{Task: model.TaskInference, MicroBatch: 8, SeqLen: 4096}, Model: arch("llama-3.1-8b")}
	two, eight := full, lora
	two.GPUs, eight.GPUs = 2, 8
	offload8 := offload
	offload8.GPUs = 8
	big := job(model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, Checkpointing: ptrTrue()}, "llama-3.1-70b")
	bigQLoRA := job(model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, "llama-3.1-70b")
	vision := model.Workload{Settings: model.Settings{Task: model.TaskTrain, DatasetSamples: 1.28e6}, Model: arch("resnet50")}
	for _, tt := range []struct {
		name string
		w    model.Workload
		q    model.Query
	}{
		{"qlora 8b", qlora, model.Query{AutoGPUs: true}},
		{"qlora 8b, spot, monthly", qlora, model.Query{AutoGPUs: true, Pricing: model.Spot, Sort: model.SortMonthly}},
		{"lora 8b", lora, model.Query{AutoGPUs: true}},
		{"finetune 8b", full, model.Query{AutoGPUs: true}},
		{"finetune 8b, 2 GPUs up", full, model.Query{AutoGPUs: true, MaxGPUs: 2}},
		{"amp-bf16 asked", bf16, model.Query{AutoGPUs: true, PrecisionAsked: true}},
		{"amp-bf16 with fallback", bf16, model.Query{AutoGPUs: true, PrecisionAsked: true, AllowPrecisionFallback: true}},
		{"lora amp-bf16 on T4 and V100", loraBF16, model.Query{AutoGPUs: true, PrecisionAsked: true, AllowPrecisionFallback: true, GPUs: []string{"t4", "v100-16gb"}}},
		{"lora amp-bf16 asked on T4 and V100", loraBF16, model.Query{AutoGPUs: true, PrecisionAsked: true, GPUs: []string{"t4", "v100-16gb"}}},
		{"qlora on T4 and V100", qlora, model.Query{AutoGPUs: true, GPUs: []string{"t4", "v100-16gb"}}},
		{"ZeRO-Offload, host RAM", offload, model.Query{AutoGPUs: true, KeepStrategy: true}},
		{"ZeRO-Offload on 8 GPUs", offload8, model.Query{}},
		{"inference 8b", serve, model.Query{AutoGPUs: true}},
		{"2 GPUs", two, model.Query{}},
		{"8 GPUs, one node", eight, model.Query{}},
		{"8 GPUs across nodes", eight, model.Query{AllowMultiNode: true}},
		{"70b finetune", big, model.Query{AutoGPUs: true}},
		{"70b qlora", bigQLoRA, model.Query{AutoGPUs: true}},
		{"70b deadline", big, model.Query{AutoGPUs: true, DeadlineHours: 48}},
		{"70b across nodes", big, model.Query{AutoGPUs: true, AllowMultiNode: true, DeadlineHours: 48}},
		{"resnet50", vision, model.Query{AutoGPUs: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			restore := model.SetShapeSharing(false)
			want, wantErr := model.Recommend(tt.w, cat, tt.q)
			var wantSavings []*model.Offer
			if wantErr == nil {
				wantSavings = savingsOffers(&want, cat, tt.w, tt.q)
			}
			restore()
			got, err := model.Recommend(tt.w, cat, tt.q)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("shared shapes: error %v, each type's own: %v", err, wantErr)
			}
			for _, f := range []struct {
				name      string
				got, want any
			}{
				{"offers", got.Offers, want.Offers}, {"near misses", got.Rejected, want.Rejected},
				{"reasons", got.Reasons, want.Reasons}, {"considered", got.Considered, want.Considered},
			} {
				if !reflect.DeepEqual(f.got, f.want) {
					t.Fatalf("with shared shapes the %s differ from each type's own (%d offers against %d)", f.name, len(got.Offers), len(want.Offers))
				}
			}
			if err == nil {
				if s := savingsOffers(&got, cat, tt.w, tt.q); !reflect.DeepEqual(s, wantSavings) {
					t.Fatal("with shared shapes the savings' offers differ")
				}
			}
			t.Logf("%d offers, reasons %v", len(want.Offers), want.Reasons)
		})
	}
}

// savingsOffers is what a savings section's searches starting from rec
// find for a few changes of q (pricing, one GPU type, a region), each
// a copy of the offer (nil for none).
func savingsOffers(rec *model.Recommendation, cat *model.Catalog, w model.Workload, q model.Query) []*model.Offer {
	f := rec.CheapestFinder(cat)
	var out []*model.Offer
	spot, reserved, one, europe := q, q, q, q
	spot.Pricing, reserved.Pricing = model.Spot, model.Reserved1y
	one.GPUs = []string{"l4"}
	europe.Regions = []string{"europe"}
	for _, c := range []model.Query{q, spot, reserved, one, europe} {
		var kept *model.Offer
		if o, ok := f.Offer(w, c); ok {
			kept = new(*o)
		}
		out = append(out, kept)
	}
	return out
}
