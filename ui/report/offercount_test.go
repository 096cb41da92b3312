package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/model"
)

// TestRecommendCountsOffersAndRows: the header counts offers (one per
// region price), as the configurator's panel ("Offers: N fit") and its
// offers view ("All offers: N") do; the table merges the regions at one
// price into a row, so its footer names rows and says how the offers make
// them. A new user read "1132 offers" over "… 445 more offers" as two
// counts of one thing. Three offers, two of them one instance type in two
// regions at one price: 2 rows; --limit 1 shows one, 1 more row.
func TestRecommendCountsOffersAndRows(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Framework: model.PyTorch, Task: model.TaskInference, Precision: model.BF16, GPUs: 1, Strategy: model.Single, MicroBatch: 1, SeqLen: 512},
		Model: model.Architecture{Name: "M"}}
	base := model.Estimate{Workload: w, Memory: model.Memory{Weights: 4 * model.GiB}}
	g := &model.GPU{Key: "l4", Name: "NVIDIA L4", MemoryGiB: 24}
	a := &model.Instance{Provider: "aws", Type: "g6.xlarge", GPU: "l4", GPUCount: 1}
	b := &model.Instance{Provider: "gcp", Type: "g2-standard-4", GPU: "l4", GPUCount: 1}
	offer := func(in *model.Instance, region string, usd float64) model.Offer {
		return model.Offer{Instance: in, GPU: g, Region: region, Instances: 1, GPUs: 1, Strategy: model.Single, NeedBytes: 4 * model.GiB,
			HeadroomPct: 80, Verdict: model.VerdictFits, Pricing: model.OnDemand, USDPerHour: usd, MonthlyUSD: usd * 730, Estimate: &base}
	}
	rec := model.Recommendation{Sort: model.SortPrice, Considered: 3, Offers: []model.Offer{
		offer(a, "us-east-1", 0.80), offer(a, "us-east-2", 0.80), offer(b, "us-central1", 0.90)}}
	var out bytes.Buffer
	if err := WriteRecommend(&out, &Renderer{Profile: colorprofile.NoTTY}, &rec, &base, 1, 0); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"3 offers of 3 priced\n",
		"us-east-1 +1",
		"… 1 more row (--limit 0 shows all); the 3 offers make 2 rows: the same offer in other regions at one price shares a row (+N)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
