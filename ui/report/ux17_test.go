package report

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOfferGPUs: the GPUs cell says when the job uses fewer GPUs than the
// offer rents (issue 17: "1×h200 $63/h" for one GPU of an 8-GPU host).
func TestOfferGPUs(t *testing.T) {
	h200 := &model.GPU{Key: "h200"}
	for _, tt := range []struct {
		name           string
		perHost, nodes int
		used           int
		want           string
	}{
		{"one of a 1-GPU host", 1, 1, 1, "1×h200"},
		{"one of an 8-GPU host", 8, 1, 1, "1 of 8×h200"},
		{"all of an 8-GPU host", 8, 1, 8, "8×h200"},
		{"two nodes, all used", 8, 2, 16, "16×h200 (2 nodes)"},
		{"12 on two 8-GPU nodes", 8, 2, 12, "12 of 16×h200 (2 nodes)"},
	} {
		o := &model.Offer{Instance: &model.Instance{GPUCount: tt.perHost}, GPU: h200, Instances: tt.nodes, GPUs: tt.used}
		if got := OfferGPUs(o); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if got := OfferRow(o)[3]; got != tt.want {
			t.Errorf("%s: OfferRow's GPUs cell %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCommitmentCells works a reserved-1y offer by hand: $3.48/h
// reserved, $5.67/h on demand, a 1.64 h job. Commitment 8,760 h ×
// $3.48 = $30,484.80; the job's share 1.64 × 3.48 = $5.71; on demand
// 1.64 × 5.67 = $9.30.
func TestCommitmentCells(t *testing.T) {
	o := &model.Offer{Pricing: model.Reserved1y, USDPerHour: 3.48, OnDemandUSDPerHour: 5.67,
		JobHours: 1.64, HasJob: true, CommitmentUSD: 8760 * 3.48}
	if got, want := CommitmentCells(o), []string{"$30,485", "$5.71", "$9.30"}; !slices.Equal(got, want) {
		t.Errorf("CommitmentCells = %q, want %q", got, want)
	}
	o.HasJob, o.OnDemandUSDPerHour = false, 0
	if got, want := CommitmentCells(o), []string{"$30,485", "—", "—"}; !slices.Equal(got, want) {
		t.Errorf("without a job or an on-demand price: %q, want %q", got, want)
	}
	if commitmentTableNote([]model.Offer{*o}) == "" {
		t.Error("no note under a reserved table")
	}
	if commitmentTableNote([]model.Offer{{Pricing: model.OnDemand, USDPerHour: 1}}) != "" {
		t.Error("a commitment note under an on-demand table")
	}
}
