package model

import (
	"math"
	"testing"
)

// TestSizedSlackRanking works SizedSlack's rule by hand: an offer renting
// more GPUs than the job needs ranks as if it cost 10% more on the cost
// keys, and at its own figures on time.
func TestSizedSlackRanking(t *testing.T) {
	one := &Instance{Provider: "p", Type: "x.1", GPUCount: 1}
	eight := &Instance{Provider: "p", Type: "x.8", GPUCount: 8}
	sized := func(job, hours float64) Offer {
		return Offer{Instance: one, Instances: 1, GPUs: 1, SizedGPUs: 1, USDPerHour: job / hours, JobUSD: job, JobHours: hours, HasJob: true}
	}
	big := func(job, hours float64, used int) Offer {
		return Offer{Instance: eight, Instances: 1, GPUs: used, SizedGPUs: 1, USDPerHour: job / hours, JobUSD: job, JobHours: hours, HasJob: true}
	}
	tests := []struct {
		name      string
		a, b      Offer // a sized to the job, b on the 8-GPU host
		sort      SortKey
		wantFirst string
	}{
		// lambda's b200 hosts in the shipped catalog: 1×b200 $2.34 for the job, 8×b200 $2.24.
		// 2.24 × 1.10 = 2.464 > 2.34: the 1-GPU host first.
		{"near tie on job cost goes to the sized host", sized(2.34, 20.0/60), big(2.24, 3.0/60, 8), SortJob, "x.1"},
		// 2.00 × 1.10 = 2.20 < 2.34: a saving past the slack still wins.
		{"a clear saving wins", sized(2.34, 20.0/60), big(2.00, 3.0/60, 8), SortJob, "x.8"},
		// 2.10 × 1.10 = 2.31 < 2.34: 10% below the sized host's cost is just enough.
		{"just past the slack", sized(2.34, 20.0/60), big(2.10, 3.0/60, 8), SortJob, "x.8"},
		// time ignores the slack: 3 min beats 20 min.
		{"time: the faster host", sized(2.34, 20.0/60), big(2.24, 3.0/60, 8), SortTime, "x.8"},
		// hourly price: $7.02/h vs $44.8/h, no tie to break.
		{"price: the cheaper hour", sized(2.34, 20.0/60), big(2.24, 3.0/60, 8), SortPrice, "x.1"},
		// a fixed one GPU on the 8-GPU host, at $1/h against $1.05/h: 1.05 < 1 × 1.10.
		{"idle GPUs: near tie on price", Offer{Instance: one, Instances: 1, GPUs: 1, SizedGPUs: 1, USDPerHour: 1.05}, Offer{Instance: eight, Instances: 1, GPUs: 1, SizedGPUs: 1, USDPerHour: 1}, SortPrice, "x.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := tt.a, tt.b
			if !b.Oversized() || a.Oversized() {
				t.Fatalf("Oversized: sized %v, 8-GPU host %v; want false, true", a.Oversized(), b.Oversized())
			}
			first := "x.8"
			if compareOffers(&a, &b, tt.sort) < 0 {
				first = "x.1"
			}
			if first != tt.wantFirst {
				t.Errorf("first %s, want %s (sort values %.4g, %.4g)", first, tt.wantFirst, sortValue(&a, tt.sort), sortValue(&b, tt.sort))
			}
			if compareOffers(&a, &b, tt.sort) != -compareOffers(&b, &a, tt.sort) {
				t.Error("compareOffers is not antisymmetric")
			}
		})
	}
}

// TestSizedGPUsAndOnDemand checks the figures Recommend fills for the
// tables: the fewest GPUs that run the job, and the on-demand price
// beside a reserved one (testCatalog: huge.8 at $80/h on demand in
// us-east-1, p2's 1-year discount 25%, so $60/h reserved).
func TestSizedGPUsAndOnDemand(t *testing.T) {
	r := recommend(t, small, Query{Pricing: Reserved1y, Providers: []string{"p2"}, Regions: []string{"us-east-1"}, AutoGPUs: true})
	var o *Offer
	for i := range r.Offers {
		if r.Offers[i].Instance.Type == "huge.8" {
			o = &r.Offers[i]
		}
	}
	if o == nil {
		t.Fatalf("no huge.8 offer: %s", offerNames(r))
	}
	if o.USDPerHour != 60 || o.OnDemandUSDPerHour != 80 {
		t.Errorf("huge.8 reserved $%v/h beside on-demand $%v/h, want $60 and $80", o.USDPerHour, o.OnDemandUSDPerHour)
	}
	if o.GPUs != 8 || o.SizedGPUs != 1 || !o.Oversized() {
		t.Errorf("auto GPUs on huge.8: uses %d, sized %d, oversized %v; want 8, 1 (the small job fits one 80 GiB GPU), true", o.GPUs, o.SizedGPUs, o.Oversized())
	}
	if od, ok := o.OnDemandJobUSD(); o.HasJob && (!ok || math.Abs(od-o.JobHours*80) > 1e-9) {
		t.Errorf("on-demand job $%v, want job hours × $80 = $%v", od, o.JobHours*80)
	}

	fixed := recommend(t, small, Query{Providers: []string{"p1"}, Regions: []string{"us-east-1"}, GPUs: []string{"g16"}})
	for _, o := range fixed.Offers {
		if o.SizedGPUs != 1 || o.OnDemandUSDPerHour != 0 {
			t.Errorf("%s: sized %d, on-demand $%v/h; want the fixed 1 GPU and no second price in on-demand mode", o.Instance.Type, o.SizedGPUs, o.OnDemandUSDPerHour)
		}
	}
}

// Hosts of one provider, region and GPU (testCatalog: p1's small.1 at
// $1/h and big.8 at $8/h, both G16, us-east-1): with a fixed GPU the
// 8-GPU host would idle 7 GPUs and is left out; with auto GPUs it runs the
// job on all 8 (faster) and stays listed, below the host sized to the job.
func TestSizedHostGroups(t *testing.T) {
	w := small
	w.DatasetTokens = 1e8
	q := Query{Providers: []string{"p1"}, Regions: []string{"us-east-1"}, GPUs: []string{"g16"}}
	at := func(r Recommendation, typ string) int {
		for i, o := range r.Offers {
			if o.Instance.Type == typ {
				return i
			}
		}
		return -1
	}
	fixed := recommend(t, w, q)
	if at(fixed, "small.1") < 0 || at(fixed, "big.8") >= 0 {
		t.Errorf("fixed 1 GPU: %s, want small.1 only", offerNames(fixed))
	}
	q.AutoGPUs = true
	auto := recommend(t, w, q)
	one, eight := at(auto, "small.1"), at(auto, "big.8")
	if one < 0 || eight < 0 || eight < one {
		t.Fatalf("auto GPUs: %s, want small.1 then big.8", offerNames(auto))
	}
	if o := auto.Offers[eight]; o.GPUs != 8 || o.SizedGPUs != 1 || !o.Oversized() {
		t.Errorf("big.8: uses %d, sized %d; want 8 and 1", o.GPUs, o.SizedGPUs)
	}
}
