package model

import (
	"strings"
	"testing"
)

// TestBorderlineWarningNamesOnlyAdvice: an offer's borderline warning
// advises a smaller micro-batch only when the micro-batch is above 1 (a
// new user at micro-batch 1 was told to use a smaller one).
func TestBorderlineWarningNamesOnlyAdvice(t *testing.T) {
	g := &GPU{Key: "v100-16gb", Name: "NVIDIA V100 SXM2 16GB", MemoryGiB: 16}
	for _, tc := range []struct {
		microBatch int
		want       string
	}{
		{4, "; leave room or use a smaller micro-batch"},
		{1, "; leave room"},
	} {
		e := &Estimate{MemoryBand: [2]float64{12 * GiB, 17.38 * GiB}}
		e.Workload.MicroBatch = tc.microBatch
		o := Offer{Instance: &Instance{Provider: "p", Type: "t", GPU: "v100-16gb", GPUCount: 1}, Instances: 1, GPUs: 1, GPU: g, Verdict: VerdictBorderline, OOMChance: 0.1, UsableBytes: 15.2 * GiB, Estimate: e}
		ws := o.Warnings()
		if len(ws) == 0 || !strings.HasPrefix(ws[0], "~ borderline: the 90% range reaches 17.38 GiB, past the 15.20 GiB usable") || !strings.HasSuffix(ws[0], tc.want) {
			t.Errorf("micro-batch %d: warnings %q, want the borderline one ending %q", tc.microBatch, ws, tc.want)
		}
	}
}
