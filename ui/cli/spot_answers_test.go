package cli

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestSpotAnswersAndFrontExpected: under --pricing spot the Pareto front
// and the --max-job-cost answer weigh each offer at its expected job time
// and cost with interruptions, as the table shows and ranks them (walk45b:
// they used the uninterrupted figures the table no longer shows).
func TestSpotAnswersAndFrontExpected(t *testing.T) {
	code, out, errOut := runWithSpot(t, "recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "100M",
		"--pricing", "spot", "--json", "--pareto", "--max-job-cost", "1000000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j report.RecommendJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	expected := func(i int) (usd, hours float64, ok bool) {
		if i < 0 || i >= len(j.Offers) || j.Offers[i].Spot == nil {
			return 0, 0, false
		}
		return j.Offers[i].Spot.ExpectedUSD, j.Offers[i].Spot.ExpectedHours, true
	}
	checked := 0
	for _, p := range j.Pareto {
		usd, _, ok := expected(p.Index)
		if !ok {
			continue
		}
		checked++
		if math.Abs(p.USD-usd) > 0.01 {
			t.Errorf("front point %d (%s %s): $%.2f, want the expected $%.2f (bare $%.2f)", p.Index, p.Provider, p.InstanceType, p.USD, usd, *j.Offers[p.Index].JobCostUSD)
		}
	}
	if checked == 0 {
		t.Fatal("no front point with a spot estimate: the case tells nothing")
	}
	if len(j.Answers) != 1 || j.Answers[0].Offer == nil {
		t.Fatalf("answers %+v", j.Answers)
	}
	a := j.Answers[0].Offer
	if usd, _, ok := expected(a.Index); !ok || math.Abs(a.USD-usd) > 0.01 {
		t.Errorf("--max-job-cost answer $%.2f, want offer %d's expected $%.2f", a.USD, a.Index, usd)
	}
}
