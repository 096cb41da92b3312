package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitOffer: the change that makes a borderline offer fit across its
// memory range on its own instance type and region is the savings'
// change priced on a query pinned to it; activation checkpointing, which
// keeps the arithmetic, is named before 8-bit AdamW states, which change
// it, though those cost less (no recomputation). New-user walk: a 70B
// fine-tune's 8×MI355X at $1,167, borderline at about 10%, fits with
// activation checkpointing at $1,529 (22.2 h).
func TestFitOffer(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 16384, DatasetTokens: 1e8, GPUs: 1}, Model: modeltest.Llama2_7B}
	w.Defaults()
	big := modeltest.Catalog().GPUs[2] // g80
	e, err := model.Compute(w, &big)
	if err != nil {
		t.Fatal(err)
	}
	// tight: usable memory halfway between the need and the top of its
	// 90% range, so the job runs on it borderline.
	tight := big
	tight.Key, tight.Name = "tight", "Tight"
	tight.MemoryGiB = (e.ResidentNeed() + e.ResidentBand()[1]) / 2 / (1 - model.FitMargin) / model.GiB
	huge := big
	huge.Key, huge.Name = "huge", "Huge"
	huge.MemoryGiB = 4 * tight.MemoryGiB
	cat := &model.Catalog{
		GPUs: []model.GPU{huge, tight},
		Instances: []model.Instance{
			{Provider: "pa", Type: "a.huge", GPU: "huge", GPUCount: 1, VCPUs: 32, MemoryGiB: 512, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 40}}},
			{Provider: "pa", Type: "a.tight", GPU: "tight", GPUCount: 1, VCPUs: 32, MemoryGiB: 512, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 2}, {Region: "r2", OnDemandUSD: 2}}},
		},
	}
	cat.Index()
	q := model.Query{}
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Offers) < 2 || rec.Offers[0].Instance.Type != "a.huge" || !rec.Offers[1].Risky() {
		t.Fatalf("offers %d: want a.huge first and a.tight borderline after it (the test's premise)", len(rec.Offers))
	}
	risky := &rec.Offers[1]
	fit, ok := FitOffer(cat, w, q, &rec, risky, nil)
	if !ok {
		t.Fatal("FitOffer: no change makes a.tight fit")
	}
	o := &fit.Offer
	if fit.Kind != "checkpointing" || o.Instance.Type != "a.tight" || o.Region != risky.Region || o.Risky() || o.GPUs != 1 {
		t.Errorf("FitOffer = %s (%s) on %s %s, risky %v, %d GPUs; want activation checkpointing on a.tight in %s, fitting", fit.Change, fit.Kind, o.Instance.Type, o.Region, o.Risky(), o.GPUs, risky.Region)
	}
	if fit.USD != o.JobUSD || !(o.JobUSD > risky.JobUSD) || !(o.JobUSD < rec.Offers[0].JobUSD) {
		t.Errorf("FitOffer's job $%.2f (offer's $%.2f); want above the borderline $%.2f (recomputation) and below the best's $%.2f", fit.USD, o.JobUSD, risky.JobUSD, rec.Offers[0].JobUSD)
	}
	// 8-bit AdamW states fit too, and cost less: kept for when nothing
	// that keeps the arithmetic does.
	eight := w
	eight.Optimizer = model.AdamW8bit
	pinned := q
	pinned.InstanceType, pinned.Regions = "a.tight", []string{risky.Region}
	if o8, ok := rec.CheapestFinder(cat).Offer(eight, pinned); !ok || o8.Risky() || !(o8.JobUSD < fit.USD) {
		t.Fatalf("8-bit AdamW on a.tight: found %v; want it fitting and cheaper than checkpointing's $%.2f (the test's premise)", ok, fit.USD)
	}
	ck := w
	ck.Checkpointing = model.Bool(true)
	if _, ok := FitOffer(cat, ck, q, &rec, risky, nil); !ok {
		t.Error("with checkpointing already on: no change (8-bit AdamW states) makes a.tight fit")
	}
	if _, ok := FitOffer(cat, w, q, &rec, &rec.Offers[0], nil); ok {
		t.Error("FitOffer on an offer that fits: want none")
	}
}
