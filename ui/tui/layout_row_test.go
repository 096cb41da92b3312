package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOfferRowNamesShardedLayout: the offers list and the panel's table
// name a sharded layout in the GPUs cell (at its end: the tables cut a
// cell's middle), as recommend's strategy column does; DDP, which the
// count implies, and one GPU add nothing. A new user's best row read
// "4×v100-16gb ↺amp-fp16" for a job run with FSDP over the four.
func TestOfferRowNamesShardedLayout(t *testing.T) {
	v100 := &model.GPU{Key: "v100-16gb", Name: "NVIDIA V100 SXM2 16GB", MemoryGiB: 16}
	in := &model.Instance{Provider: "primeintellect", Type: "datacrunch__4xV100_16GB__20__90", GPU: "v100-16gb", GPUCount: 4}
	for _, tc := range []struct {
		gpus     int
		strategy model.Strategy
		fallback model.Precision
		want     string
	}{
		{4, model.FSDP, model.AMPFP16, "4×v100-16gb ↺amp-fp16 FSDP"},
		{4, model.ZeRO3, "", "4×v100-16gb ZeRO-3"},
		{4, model.DDP, "", "4×v100-16gb"},
		{1, model.Single, "", "1 of 4×v100-16gb"},
	} {
		o := model.Offer{Instance: in, GPU: v100, Region: "FI", Instances: 1, GPUs: tc.gpus, Strategy: tc.strategy, Fallback: tc.fallback}
		if got := offerRow(nil, &o)[3]; got != tc.want {
			t.Errorf("%d GPUs %s: GPUs cell %q, want %q", tc.gpus, tc.strategy, got, tc.want)
		}
	}
}
