package cli

import (
	"encoding/json"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestPlanSavingsPriceSpotAsRecommend: a spot fine-tune phase is priced
// in gpuplan plan's savings as recommend's savings price the same job on
// the same pins (provider, region, GPU type, spot): at spot's expected
// cost with interruptions counted, not the bare rate (walk45: recommend
// and its spot line were made to agree; plan priced spot bare).
func TestPlanSavingsPriceSpotAsRecommend(t *testing.T) {
	p := writeFile(t, "plan.toml", `schema_version = 1
[[phase]]
name = "fine-tune"
provider = "gcp"
instance = "g2-standard-8"
region = "us-central1"
pricing = "spot"
instances = 1
usd_per_hour = 0.2977
job_hours = 290
[phase.answers]
dataset_tokens = "2B"
model = "llama-3.1-8b"
task = "qlora"
`)
	code, out, errOut := runWithSpot(t, "plan", p, "--json")
	if code != 0 {
		t.Fatalf("plan: exit %d, %s", code, errOut)
	}
	var pj struct {
		Savings report.PlanSavingsJSON `json:"savings"`
	}
	if err := json.Unmarshal([]byte(out), &pj); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runWithSpot(t, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "2B",
		"--providers", "gcp", "--regions", "us-central1", "--gpu", "l4", "--pricing", "spot", "--json", "--limit", "3")
	if code != 0 {
		t.Fatalf("recommend: exit %d, %s", code, errOut)
	}
	var rj report.RecommendJSON
	if err := json.Unmarshal([]byte(out), &rj); err != nil {
		t.Fatal(err)
	}
	if rj.Savings == nil || len(rj.Offers) == 0 || rj.Offers[0].Spot == nil {
		t.Fatalf("recommend has no savings or spot estimate: %s", out)
	}
	spot := rj.Offers[0].Spot.ExpectedUSD
	bare := *rj.Offers[0].JobCostUSD
	if spot < bare+0.05 {
		t.Fatalf("expected spot cost %g not $0.05 above the bare %g: the case tells little", spot, bare)
	}
	if d := pj.Savings.BaseUSD - rj.Savings.BaseUSD; d > 0.005 || d < -0.005 {
		t.Errorf("plan's savings base $%.2f, recommend's $%.2f (its spot line $%.2f, bare $%.2f): want the same job priced alike", pj.Savings.BaseUSD, rj.Savings.BaseUSD, spot, bare)
	}
}
