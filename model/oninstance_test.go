package model

import "testing"

// TestOnInstanceAsRecommend: OnInstance on a type Recommend offers gives
// Recommend's offer of it (instances, GPUs, need, hours and 90% range),
// and on a type it rejects for the job's own reason, that reason; on a
// dearer host Recommend leaves out (mid.1-dear beside mid.1, one G40
// each) it still times the job, as on mid.1 (walk35: plan's job_hours
// check found no offer for aws g5.2xlarge and skipped it).
func TestOnInstanceAsRecommend(t *testing.T) {
	cat := testCatalog()
	cat.Instances = append(cat.Instances, Instance{Provider: "p1", Type: "mid.1-dear", GPU: "g40", GPUCount: 1, VCPUs: 24, MemoryGiB: 170,
		Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 4.5}}})
	cat.Index()
	w := small
	w.DatasetTokens = 1e7
	rec, err := Recommend(w, cat, Query{})
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]*Instance{}
	for i := range cat.Instances {
		byType[cat.Instances[i].Type] = &cat.Instances[i]
	}
	seen := 0
	for _, o := range rec.Offers {
		got, _, why, err := OnInstance(w, cat, o.Instance, o.Region, o.USDPerHour/float64(o.Instances), Query{})
		if err != nil || !why.IsZero() {
			t.Fatalf("%s: %v %v", o.Instance.Type, err, why)
		}
		if got.Instances != o.Instances || got.GPUs != o.GPUs || got.NeedBytes != o.NeedBytes || got.JobHours != o.JobHours ||
			got.Estimate.TimeBand != o.Estimate.TimeBand || got.USDPerHour != o.USDPerHour {
			t.Errorf("%s: OnInstance %d×, %d GPUs, %g B, %g h %v $%g/h; Recommend %d×, %d GPUs, %g B, %g h %v $%g/h", o.Instance.Type,
				got.Instances, got.GPUs, got.NeedBytes, got.JobHours, got.Estimate.TimeBand, got.USDPerHour,
				o.Instances, o.GPUs, o.NeedBytes, o.JobHours, o.Estimate.TimeBand, o.USDPerHour)
		}
		if o.Instance.Type == "mid.1-dear" {
			t.Fatal("the test needs mid.1-dear left out of Recommend's offers")
		}
		if o.Instance.Type == "mid.1" {
			seen++
			dear, _, why, err := OnInstance(w, cat, byType["mid.1-dear"], "us-east-1", 4.5, Query{})
			if err != nil || !why.IsZero() || !dear.HasJob || dear.JobHours != o.JobHours || dear.Estimate.TimeBand != o.Estimate.TimeBand {
				t.Errorf("mid.1-dear: %v %v, %g h %v; mid.1 %g h %v", err, why, dear.JobHours, dear.Estimate.TimeBand, o.JobHours, o.Estimate.TimeBand)
			}
		}
	}
	if seen != 1 {
		t.Fatalf("no mid.1 offer: %s", offerNames(rec))
	}
	// Host RAM: tiny-ram.1 has 4 GiB, a near miss of Recommend's.
	_, kind, why, err := OnInstance(w, cat, byType["tiny-ram.1"], "us-east-1", 0.1, Query{})
	if err != nil || kind != RejectHostRAM || why.IsZero() {
		t.Errorf("tiny-ram.1: %v %q %v", err, kind, why)
	}
	for _, r := range rec.Rejected {
		if r.Instance.Type == "tiny-ram.1" && r.ReasonMsg.String() != why.String() {
			t.Errorf("tiny-ram.1: %q, Recommend %q", why, r.ReasonMsg)
		}
	}
}
