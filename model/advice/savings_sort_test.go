package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestSavingsBaseIsBest (new-user walk): the savings' "now" is the job
// cost of the offer "best:" names under every sort key, not the cheapest
// job whatever the ranking: under --sort price, g40 at $1/h ranks first
// while g80 at $4/h runs the job for less, and the base was g80's job
// (qwen3-0.6b LoRA on aws: $0.09 beside a best: of $0.12).
func TestSavingsBaseIsBest(t *testing.T) {
	full := modeltest.Catalog()
	cat := &model.Catalog{GPUs: full.GPUs,
		Instances: []model.Instance{
			{Provider: "pa", Type: "slow.1", GPU: "g40", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}},
			{Provider: "pa", Type: "fast.1", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 2}}},
		},
	}
	cat.Index()
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e7, GPUs: 1}, Model: modeltest.Llama2_7B}
	for _, sort := range []model.SortKey{"", model.SortPrice, model.SortJob, model.SortTime} {
		q := model.Query{Sort: sort}
		rec, err := model.Recommend(w, cat, q)
		if err != nil || len(rec.Offers) != 2 {
			t.Fatalf("sort %q: %v, %d offers", sort, err, len(rec.Offers))
		}
		if sort == model.SortPrice && (rec.Offers[0].Instance.Type != "slow.1" || rec.Offers[0].JobUSD <= rec.Offers[1].JobUSD) {
			t.Fatalf("sort price: first %s at $%.4g, then $%.4g: want slow.1 first and dearer by the job (the test's premise)",
				rec.Offers[0].Instance.Type, rec.Offers[0].JobUSD, rec.Offers[1].JobUSD)
		}
		base, _, err := Savings(cat, w, q, &rec, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := rec.Offers[0].JobUSD; base != want {
			t.Errorf("sort %q: savings base $%.6g, want best's job $%.6g (%s)", sort, base, want, rec.Offers[0].Instance.Type)
		}
	}
}
