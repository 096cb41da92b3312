package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestSavingsNameTheirOffer: each saving carries the offer it is priced
// on; one that is not the offer the cost now is priced on is marked
// (OtherOffer: "pay spot" where the current provider has no spot price is
// another provider's spot price), and one whose offer is borderline
// carries its chance of running out of memory (a change to a GPU that
// runs the job only within its 90% memory range was shown as a plain
// "run on b200 saves 37%").
func TestSavingsNameTheirOffer(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e7, GPUs: 1}, Model: modeltest.Llama2_7B}
	big := modeltest.Catalog().GPUs[2] // g80
	e, err := model.Compute(w, &big)
	if err != nil {
		t.Fatal(err)
	}
	// tight: g80 with usable memory halfway between the need and the top
	// of its 90% range, so the job runs on it borderline.
	tight := big
	tight.Key, tight.Name = "tight", "Tight"
	tight.MemoryGiB = (e.ResidentNeed() + e.ResidentBand()[1]) / 2 / (1 - model.FitMargin) / model.GiB
	cat := &model.Catalog{
		GPUs: []model.GPU{big, tight},
		Instances: []model.Instance{
			{Provider: "pa", Type: "a.big", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 4}}},
			{Provider: "pb", Type: "b.big", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r2", OnDemandUSD: 6, SpotUSD: 1}}},
			{Provider: "pa", Type: "a.tight", GPU: "tight", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 2}}},
		},
	}
	cat.Index()
	q := model.Query{}
	rec, err := model.Recommend(w, cat, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Offers) != 3 || rec.Offers[0].Instance.Type != "a.big" || rec.Offers[2].Instance.Type != "a.tight" || !rec.Offers[2].Risky() {
		for _, x := range rec.Rejected {
			t.Log(x.Instance.Type, x.ReasonMsg)
		}
		t.Fatalf("offers %d, first %s: want a.big first and a.tight borderline last (the test's premise)", len(rec.Offers), rec.Offers[0].Instance.Type)
	}
	chance := model.RoundChance(rec.Offers[2].OOMChance)
	_, got, err := Savings(cat, w, q, &rec, 6, nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Saving{}
	for _, s := range got {
		by[s.Change] = s
	}
	for _, tt := range []struct {
		change           string
		provider, region string
		gpu, pricing     string
		other            bool
		oom              float64 // 0: fits
	}{
		{"pay spot instead of on-demand", "pb", "r2", "g80", "spot", true, 0},
		{"run on tight", "pa", "r1", "tight", "on-demand", true, chance},
		{"8-bit AdamW states (bitsandbytes)", "pa", "r1", "g80", "on-demand", false, 0},
		{"run on g80", "pa", "r1", "g80", "on-demand", false, 0},
	} {
		s, ok := by[tt.change]
		if !ok {
			t.Errorf("%s: no saving (got %d)", tt.change, len(got))
			continue
		}
		o := s.Offer
		if o == nil || o.Provider != tt.provider || o.Region != tt.region || o.GPU != tt.gpu || o.GPUs != 1 || o.Pricing != tt.pricing || s.OtherOffer != tt.other {
			t.Errorf("%s: offer %+v, other %v; want %s %s %s %s, other %v", tt.change, o, s.OtherOffer, tt.provider, tt.region, tt.gpu, tt.pricing, tt.other)
		}
		switch {
		case tt.oom == 0 && s.OOMChance != nil:
			t.Errorf("%s: OOM chance %v on an offer that fits", tt.change, *s.OOMChance)
		case tt.oom > 0 && (s.OOMChance == nil || *s.OOMChance != tt.oom):
			t.Errorf("%s: OOM chance %v, want %v (borderline)", tt.change, s.OOMChance, tt.oom)
		}
	}
}
