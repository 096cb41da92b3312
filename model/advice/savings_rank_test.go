package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestNarrowingSavingsNameTheirRank: a GPU type or region change only
// narrows the search, so its offer is one the ranking already lists
// below the best (here an 8-GPU host 5% cheaper for a 1-GPU job, ranked
// second by the SizedSlack rule): the saving carries that rank, once
// however many changes land on it (walk49: "rent in DE" and "run on
// a100-80gb" both advised row 2 of the same table under --country de).
func TestNarrowingSavingsNameTheirRank(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e7, GPUs: 1}, Model: modeltest.Llama2_7B}
	one := modeltest.Catalog().GPUs[2] // g80
	eight := one
	eight.Key, eight.Name = "g80b", "G80B"
	build := func(usd8 float64) (*model.Catalog, model.Recommendation) {
		cat := &model.Catalog{
			GPUs: []model.GPU{one, eight},
			Instances: []model.Instance{
				{Provider: "pa", Type: "a.one", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 4}}},
				{Provider: "pb", Type: "b.eight", GPU: "g80b", GPUCount: 8, VCPUs: 128, MemoryGiB: 2048, Prices: []model.RegionPrice{{Region: "r2", OnDemandUSD: usd8}}},
			},
		}
		cat.Index()
		rec, err := model.Recommend(w, cat, model.Query{AutoGPUs: true})
		if err != nil {
			t.Fatal(err)
		}
		return cat, rec
	}
	// Price the 8-GPU host so its job costs 95% of the 1-GPU one's: cheaper,
	// but not by the 10% that ranks a bigger host first.
	_, rec := build(32)
	job := map[string]float64{}
	for _, o := range rec.Offers {
		job[o.Instance.Type] = o.JobUSD
	}
	if job["a.one"] == 0 || job["b.eight"] == 0 {
		t.Fatalf("jobs %v: want both hosts priced (the test's premise)", job)
	}
	cat, rec := build(32 * 0.95 * job["a.one"] / job["b.eight"])
	if len(rec.Offers) != 2 || rec.Offers[0].Instance.Type != "a.one" || !rec.Offers[1].Oversized() || rec.Offers[1].JobUSD >= rec.Offers[0].JobUSD {
		t.Fatalf("offers %d: want a.one first and the cheaper, oversized b.eight second (the test's premise)", len(rec.Offers))
	}
	_, got, err := Savings(cat, w, model.Query{AutoGPUs: true}, &rec, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		change string
		rank   int
		listed bool
	}{
		{"rent in r2", 2, true},   // the largest saving on b.eight (ties by name), kept with its rank
		{"run on g80b", 0, false}, // the same offer again: dropped
		{"rent in r1", 0, true},   // the base's own offer: no rank
		{"run on g80", 0, true},   // the base's own offer
	}
	for _, tt := range tests {
		var s *Saving
		for i := range got {
			if got[i].Change == tt.change {
				s = &got[i]
			}
		}
		switch {
		case s == nil && tt.listed:
			t.Errorf("%s: not listed", tt.change)
		case s != nil && !tt.listed:
			t.Errorf("%s: listed (rank %d), want it dropped as the same offer as another saving", tt.change, s.Rank)
		case s != nil && s.Rank != tt.rank:
			t.Errorf("%s: rank %d, want %d", tt.change, s.Rank, tt.rank)
		}
	}
}
