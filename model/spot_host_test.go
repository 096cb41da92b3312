package model

import "testing"

// TestGroupKeepsHostBySpotView: under spot pricing with a SpotView (the
// views' expected job figures with interruptions, report.SpotView), the
// host kept of one provider, region and GPU is the one the ranking would
// put first on those figures, not on the uninterrupted ones. Two 1-GPU
// types of one GPU in one region: "a" at $2.00/h spot and "b" at $2.10/h;
// the view prices a's job at 1.5 × its bare cost (interrupted often) and
// leaves b's: bare, a's job costs 2.00·W < 2.10·W and a was kept; seen,
// 3.00·W > 2.10·W and b is. Without a view, or on demand, a stays.
func TestGroupKeepsHostBySpotView(t *testing.T) {
	c := &Catalog{
		GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
			FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
		Instances: []Instance{
			{Provider: "n", Type: "a", GPU: "h", GPUCount: 1, VCPUs: 16, MemoryGiB: 200, Prices: []RegionPrice{{Region: "r", OnDemandUSD: 3, SpotUSD: 2.00}}},
			{Provider: "n", Type: "b", GPU: "h", GPUCount: 1, VCPUs: 16, MemoryGiB: 200, Prices: []RegionPrice{{Region: "r", OnDemandUSD: 3, SpotUSD: 2.10}}},
		},
	}
	c.Index()
	w := nebiusJob(2e7)
	w.GPUs, w.Strategy, w.Task = 1, Single, TaskLoRA
	view := func(o *Offer) (Offer, bool) {
		if o.Instance.Type != "a" || o.Pricing != Spot {
			return *o, false
		}
		v := *o
		v.JobHours, v.JobUSD = 1.5*o.JobHours, 1.5*o.JobUSD
		return v, true
	}
	for _, tt := range []struct {
		name    string
		pricing Pricing
		view    func(*Offer) (Offer, bool)
		sort    SortKey
		want    string
	}{
		{"spot, job sort, view", Spot, view, SortJob, "b"},
		{"spot, time sort, view", Spot, view, SortTime, "b"},
		{"spot, no view", Spot, nil, SortJob, "a"},
		{"spot, price sort: the hourly price is the same seen or not", Spot, view, SortPrice, "a"},
	} {
		r, err := Recommend(w, c, Query{Pricing: tt.pricing, Sort: tt.sort, SpotView: tt.view})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Offers) != 1 || r.Offers[0].Instance.Type != tt.want {
			t.Errorf("%s: offers %s, want %s alone", tt.name, offerNames(r), tt.want)
			continue
		}
		if o := &r.Offers[0]; o.Instance.Type == "b" && o.JobUSD != 2.10*o.JobHours {
			t.Errorf("%s: the kept offer carries the view's figures: $%g for %g h", tt.name, o.JobUSD, o.JobHours)
		}
	}
}
