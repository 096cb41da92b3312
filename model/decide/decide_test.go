package decide

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestCheckpointBytesPerInstance(t *testing.T) {
	// States per GPU: 2 GB weights + 12 GB optimizer states (gradients are
	// not saved); 8 GPUs an instance.
	states := model.Memory{Weights: 2e9, Gradients: 2e9, OptimizerStates: 12e9}
	tests := []struct {
		strategy model.Strategy
		want     float64
	}{
		{model.Single, 14e9},    // one copy
		{model.DDP, 14e9},       // rank 0 writes the replicated copy
		{model.ZeRO2, 8 * 14e9}, // each GPU its shard, 8 per instance
		{model.FSDP, 8 * 14e9},
	}
	for _, tt := range tests {
		e := &model.Estimate{States: states}
		e.Workload.Strategy = tt.strategy
		if got := CheckpointBytesPerInstance(e, 8); got != tt.want {
			t.Errorf("%s: %g B, want %g", tt.strategy, got, tt.want)
		}
	}
	// ZeRO-3 with both offloads: nothing of the states on the GPU, 14 GB +
	// a 4 GB fp32 gradient partition in host RAM; the checkpoint still
	// saves them (never 0 B, which the spot estimate refuses).
	off := &model.Estimate{States: model.Memory{Gradients: 2e9, HostOffload: 18e9}}
	off.Workload.Strategy = model.ZeRO3
	if got := CheckpointBytesPerInstance(off, 8); got != 8*18e9 {
		t.Errorf("zero3 with offload: %g B, want %g", got, 8*18e9)
	}
}

// TestCheckpointBytesAdapters: LoRA and QLoRA save the adapter and its
// optimizer states, not the frozen base (PeftModel.save_pretrained). An
// 8B base in 16 GB with 42M fp32 adapter parameters: 0.168 GB of adapter
// weights (what their gradients take) + 0.336 GB of Adam states = 0.504 GB,
// where the base alone would be 16 GB.
func TestCheckpointBytesAdapters(t *testing.T) {
	adapter := model.Memory{Weights: 16e9 + 0.168e9, Gradients: 0.168e9, OptimizerStates: 0.336e9}
	for _, tt := range []struct {
		task model.Task
		want float64
	}{
		{model.TaskLoRA, 0.504e9},
		{model.TaskQLoRA, 0.504e9},
		{model.TaskFinetune, 16e9 + 0.168e9 + 0.336e9}, // every weight is the model's
	} {
		e := &model.Estimate{States: adapter}
		e.Workload.Task, e.Workload.Strategy = tt.task, model.Single
		if got := CheckpointBytesPerInstance(e, 1); math.Abs(got-tt.want) > 1 {
			t.Errorf("%s: %g B, want %g", tt.task, got, tt.want)
		}
	}
}

func TestDecideOffer(t *testing.T) {
	// One GCP instance, 2 per deployment: on demand $4/h, spot $1.60/h,
	// 37%/55% off for 1y/3y (discounts.toml's GCP rates).
	in := &model.Instance{Provider: "gcp", Type: "a2-highgpu-1g", GPUCount: 1,
		Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 4, SpotUSD: 1.6}}}
	cat := &model.Catalog{Discounts: []model.Discount{{Provider: "gcp", Term: model.Reserved1y, Fraction: 0.37}, {Provider: "gcp", Term: model.Reserved3y, Fraction: 0.55}}}
	est := &model.Estimate{States: model.Memory{Weights: 1e9, OptimizerStates: 2.6e9}}
	est.Workload.Task, est.Workload.Strategy = model.TaskFinetune, model.DDP
	o := &model.Offer{Instance: in, Region: "us-central1", Pricing: model.OnDemand, Instances: 2, GPUs: 2, USDPerHour: 8,
		JobHours: 10, JobUSD: 80, HasJob: true, Estimate: est}
	// δ = 3.6e9 B / 1e9 B/s = 3.6 s = 0.001 h; f = 10%/month, 2 nodes:
	// λ = 2 × −ln(0.9)/730 = 2.886663e-4 /h, M = 3464.2 h;
	// Daly τ ≈ √(2 × 0.001 × 3464.2) = 2.632 h (+ small terms) < W = 10 h;
	// 10/2.632 = 3.80, so n = ⌈3.80⌉ − 1 = 3 writes: B = 10 + 3 × 0.001 = 10.003 h.
	a := SpotAssumptions{CheckpointWriteBytesPerSecond: 1e9, RestartHours: 0.25}
	rate := InterruptionRate{PerMonth: 0.10, LowPerMonth: 0.05, HighPerMonth: 0.10, Source: "test"}
	d := ForOffer(cat, o, rate, a, 500)
	if p := d.Prices; !near(p.OnDemand, 8, 1e-12) || !near(p.Spot, 3.2, 1e-12) || !near(p.Reserved1y, 5.04, 1e-12) || !near(p.Reserved3y, 3.6, 1e-12) {
		t.Fatalf("prices = %+v, want 8, 3.2, 5.04, 3.6 (× 2 instances)", p)
	}
	if !near(d.CheckpointWriteHours, 0.001, 1e-12) {
		t.Errorf("δ = %g h, want 0.001", d.CheckpointWriteHours)
	}
	if d.Spot == nil {
		t.Fatalf("no spot estimate: %s", d.SpotErr)
	}
	lambda := 2 * -math.Log(0.9) / 730
	if !near(d.Spot.InterruptionsPerHour, lambda, 1e-12) {
		t.Errorf("λ = %g, want %g", d.Spot.InterruptionsPerHour, lambda)
	}
	tau := DalyInterval(0.001, 1/lambda)
	if d.Spot.CheckpointWrites != 3 {
		t.Errorf("checkpoint writes = %d, want 3", d.Spot.CheckpointWrites)
	}
	base := 10.003
	l := 0.25 + (tau+0.001)/2
	wantHours := base / (1 - lambda*l)
	if !near(d.Spot.ExpectedHours, wantHours, 1e-12) || !near(d.Spot.ExpectedUSD, wantHours*3.2, 1e-12) || !near(d.Spot.OnDemandUSD, 80, 1e-12) {
		t.Errorf("spot = %+v, want %.6f h, $%.4f, on-demand $80", d.Spot, wantHours, wantHours*3.2)
	}
	// Commitments at 500 h/month, spot priced at its expected cost per
	// useful hour: 1y $5.04 × 730 = $3679.2 a month; vs on demand 3679.2/8
	// = 459.9 h; vs spot 3679.2 / (ExpectedUSD/10) > 730 h: never.
	if len(d.Commitment) != 2 {
		t.Fatalf("commitment = %+v, want 1y and 3y", d.Commitment)
	}
	b := d.Commitment[0]
	if !near(b.MonthlyUSD, 3679.2, 1e-12) || !near(b.VsOnDemandHoursPerMonth, 459.9, 1e-12) || b.VsSpotHoursPerMonth != 0 ||
		!b.BeatsOnDemand || b.BeatsSpot || !near(b.SpotMonthlyUSD, d.Spot.ExpectedUSD/10*500, 1e-12) {
		t.Errorf("1y = %+v", b)
	}

	// Inference, or no dataset: no spot estimate; unknown region: nothing.
	serve := *o
	serve.HasJob = false
	if d := ForOffer(cat, &serve, rate, a, 0); d.Spot != nil || len(d.Commitment) != 2 || d.Commitment[0].UsedHoursPerMonth != 730 {
		t.Errorf("no job: %+v, want commitments at 730 h and no spot", d)
	}
	elsewhere := *o
	elsewhere.Region = "mars-1"
	if d := ForOffer(cat, &elsewhere, rate, a, 0); d.Spot != nil || d.Commitment != nil {
		t.Errorf("unlisted region: %+v, want nothing", d)
	}
}
