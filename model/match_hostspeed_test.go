package model

import "testing"

// TestLessHostSpreadNearTie: of two hosts that both run the job on more
// GPUs than it needs (the group kept for speed, offerGroup.faster), a
// near tie on job cost (within SizedSlack) goes to the faster host; a
// clear saving still wins, the risky tier still comes first, and the
// group sized to the job, the hourly keys and a host without a job time
// keep the cheaper one. Figures: the walk's verda FIN-03 B200 hosts of an
// 8B QLoRA on spot, 2B200.60V at $5.27 in 1.5 h and 8B200.240V at $5.28
// in 0.38 h (23 min); $5.28 ≤ $5.27 × 1.10 = $5.797 is a near tie,
// $6.00 is not.
func TestLessHostSpreadNearTie(t *testing.T) {
	two := &Instance{Provider: "v", Type: "two", GPUCount: 2}
	eight := &Instance{Provider: "v", Type: "eight", GPUCount: 8}
	host := func(in *Instance, usd, hours float64) Offer {
		return Offer{Instance: in, Region: "r", Instances: 1, GPUs: in.GPUCount, SizedGPUs: 1, HasJob: true,
			JobUSD: usd, JobHours: hours, USDPerHour: usd / hours, MonthlyUSD: usd / hours * HoursPerMonth}
	}
	risky := func(o Offer) Offer { o.Verdict = VerdictBorderline; return o }
	sized := func(o Offer) Offer { o.SizedGPUs = o.GPUs; return o } // the group sized to the job
	noJob := func(o Offer) Offer { o.HasJob = false; return o }
	for _, tt := range []struct {
		name       string
		slow, fast Offer
		sort       SortKey
		wantFast   bool // lessHost(fast, slow): the faster host kept
	}{
		{"near tie: faster kept", host(two, 5.27, 1.5), host(eight, 5.28, 0.38), SortJob, true},
		{"near tie at the slack's edge: faster kept", host(two, 5.00, 1.5), host(eight, 5.50, 0.38), SortJob, true},
		{"faster is the cheaper too", host(two, 5.28, 1.5), host(eight, 5.27, 0.38), SortJob, true},
		{"clear saving: cheaper kept", host(two, 5.27, 1.5), host(eight, 6.00, 0.38), SortJob, false},
		{"risky faster: fitting slower kept", host(two, 5.27, 1.5), risky(host(eight, 5.28, 0.38)), SortJob, false},
		{"risky slower: fitting faster kept", risky(host(two, 5.27, 1.5)), host(eight, 6.00, 0.38), SortJob, true},
		{"group sized to the job: cheaper kept", sized(host(two, 5.27, 1.5)), sized(host(eight, 5.28, 0.38)), SortJob, false},
		{"price key: cheaper per hour kept", host(two, 5.27, 1.5), host(eight, 5.28, 0.38), SortPrice, false},
		{"time key: faster kept", host(two, 5.27, 1.5), host(eight, 6.00, 0.38), SortTime, true},
		{"no job time: cheaper kept", noJob(host(two, 5.27, 1.5)), noJob(host(eight, 5.28, 0.38)), SortJob, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := lessHost(&tt.fast, &tt.slow, tt.sort); got != tt.wantFast {
				t.Errorf("lessHost(fast, slow) = %v, want %v", got, tt.wantFast)
			}
			if got := lessHost(&tt.slow, &tt.fast, tt.sort); got == tt.wantFast {
				t.Errorf("lessHost(slow, fast) = %v, want %v", got, !tt.wantFast)
			}
		})
	}
}

// spreadPair is one provider and region with two hosts of one GPU, both
// bigger than an 8B QLoRA needs (1 GPU): "two" (2 GPUs) at $2/h and
// "eight" (8 GPUs) at eightUSD an hour.
func spreadPair(eightUSD float64) *Catalog {
	c := nebiusLike(1, 0)
	c.Instances = []Instance{
		{Provider: "n", Type: "two", GPU: "h", GPUCount: 2, VCPUs: 32, MemoryGiB: 400, Interconnect: "nvswitch",
			Prices: []RegionPrice{{Region: "r", OnDemandUSD: 2}}},
		{Provider: "n", Type: "eight", GPU: "h", GPUCount: 8, VCPUs: 128, MemoryGiB: 1600, Interconnect: "nvswitch",
			Prices: []RegionPrice{{Region: "r", OnDemandUSD: eightUSD}}},
	}
	c.Index()
	return c
}

// TestSpreadGroupKeepsTheFaster: Recommend keeps the 8-GPU host of a
// spread group at a near tie on job cost (4 × the 2-GPU's price: about
// the same job cost, ~4× sooner), the 2-GPU one when the 8-GPU costs
// clearly more (6 ×), and a savings eval (cheapestOnly) picks the offer
// Recommend ranks first in both.
func TestSpreadGroupKeepsTheFaster(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: 1, SeqLen: 4096, DatasetTokens: 2e8}, Model: llama31_8B}
	for _, tt := range []struct {
		name     string
		eightUSD float64
		want     string
	}{
		{"near tie", 8, "eight"},
		{"clear saving", 12, "two"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{AutoGPUs: true}
			full, err := Recommend(w, spreadPair(tt.eightUSD), q)
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Offers) != 1 || full.Offers[0].Instance.Type != tt.want {
				for _, o := range full.Offers {
					t.Logf("%s: %d of %d GPUs, %.3f h, $%.3f", o.Instance.Type, o.GPUs, o.SizedGPUs, o.JobHours, o.JobUSD)
				}
				t.Fatalf("offers %s, want %s alone", offerNames(full), tt.want)
			}
			short, err := recommendShared(w, spreadPair(tt.eightUSD), q, &sharedEstimates{cheapestOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(short.Offers) != 1 || short.Offers[0].Instance.Type != tt.want {
				t.Errorf("savings eval %s, Recommend %s", offerNames(short), tt.want)
			}
		})
	}
}
