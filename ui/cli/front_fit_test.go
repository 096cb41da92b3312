package cli

import (
	"encoding/json"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestParetoFrontOfOffersThatFit: the time-against-cost front is drawn
// from the offers that fit across their memory range when any has a job
// time (walk45c: a borderline 8×B200 stood on the front, unmarked).
func TestParetoFrontOfOffersThatFit(t *testing.T) {
	for _, task := range []string{"finetune", "qlora"} {
		code, out, errOut := runWithSpot(t, "recommend", "--model", "llama-3.1-8b", "--task", task, "--dataset-tokens", "200M", "--pricing", "spot", "--pareto", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", task, code, errOut)
		}
		var j report.RecommendJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		risky := 0
		for _, o := range j.Offers {
			if o.OOMChance != nil {
				risky++
			}
		}
		if risky == 0 || risky == len(j.Offers) {
			t.Logf("%s: %d of %d offers borderline: the case tells little", task, risky, len(j.Offers))
		}
		if len(j.Pareto) == 0 {
			t.Fatalf("%s: no front", task)
		}
		for _, p := range j.Pareto {
			if o := j.Offers[p.Index]; o.OOMChance != nil && risky < len(j.Offers) {
				t.Errorf("%s: front point %d (%s %s) is borderline (%.0f%%)", task, p.Index, o.Provider, o.InstanceType, *o.OOMChance*100)
			}
		}
	}
}
