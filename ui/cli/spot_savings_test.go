package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestSpotSavingAgreesWithSpotLine: the command of the report (a 70B
// full fine-tune on 100M tokens) printed "Spot daytona 8x-MI355X in
// earth: expected $129 … in 3.5 h … on-demand $109" and, below it, "pay
// spot instead of on-demand saves $46.18 (42%)" for the same offer (the
// bare spot rate × the uninterrupted 1.7 h). The savings now price spot
// as the Spot line does, so for that offer both say the same dollars,
// and the placeholder region reads "location not stated" in both. (The
// $129 was 1.7 h of work and a 1.8 h checkpoint written at the job's end,
// which saves nothing; a job shorter than the checkpoint interval now
// takes none, so spot is the cheaper there: decide.SpotExpectedCost.)
func TestSpotSavingAgreesWithSpotLine(t *testing.T) {
	args := []string{"recommend", "--model", "llama-3.1-70b", "--task", "finetune", "--dataset-tokens", "100M", "--limit", "3"}
	code, out, errOut := runWithSpot(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j report.RecommendJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Offers) == 0 || j.Offers[0].Spot == nil || j.Savings == nil {
		t.Fatalf("offers %d, savings %v: want a first offer with a spot estimate and savings", len(j.Offers), j.Savings)
	}
	o := j.Offers[0]
	found, saves := false, ""
	for _, c := range j.Savings.Changes {
		if c.Change != "pay spot instead of on-demand" {
			continue
		}
		found = true
		if c.Offer == nil || c.Offer.Provider != o.Provider || c.Offer.InstanceType != o.InstanceType || c.Offer.Region != o.Region {
			t.Fatalf("spot change priced on %+v, want the first offer %s %s %s (the premise)", c.Offer, o.Provider, o.InstanceType, o.Region)
		}
		if c.USD != o.Spot.ExpectedUSD {
			t.Errorf("pay spot costs $%.2f, the Spot line expects $%.2f for the same offer", c.USD, o.Spot.ExpectedUSD)
		}
		if want := report.Round(j.Savings.BaseUSD-o.Spot.ExpectedUSD, 2); c.SavingUSD != want {
			t.Errorf("pay spot saves $%.2f, want on-demand $%.2f − expected spot $%.2f = $%.2f", c.SavingUSD, j.Savings.BaseUSD, o.Spot.ExpectedUSD, want)
		}
		if c.SavingUSD > 0 {
			saves = report.USD(c.SavingUSD)
		}
	}
	if !found {
		t.Error("no \"pay spot\" change in the JSON savings")
	}
	if o.Region != "earth" {
		t.Errorf("JSON region %q, want the row's key \"earth\" (machine value, unchanged)", o.Region)
	}

	code, text, errOut := runWithSpot(t, args...)
	if code != 0 {
		t.Fatalf("text: exit %d: %s", code, errOut)
	}
	if saves == "" || !strings.Contains(text, "saves "+saves) {
		t.Errorf("text's pay-spot saving is not the JSON's %q:\n%s", saves, text)
	}
	if line := "Spot daytona 8x-MI355X (location not stated): expected " + report.USD(o.Spot.ExpectedUSD); !strings.Contains(text, line) {
		t.Errorf("text lacks %q, the Spot line with the region as the docs say it:\n%s", line, text)
	}
	if strings.Contains(text, "earth") {
		t.Errorf("text shows the placeholder region \"earth\":\n%s", text)
	}
}
