package cli

import (
	"fmt"
	"testing"
)

// TestFinishByNoDroppedHostBeatsIt: recommend keeps one host per
// provider, region and GPU (and one more that spreads the job over more
// GPUs than it needs, for speed); --finish-by answers from the kept
// hosts, so no host it left out of a kept group may beat the answer on
// both job time and job cost. The left-out hosts are the ones the same
// request shows at a fixed GPU count (--gpus 1, 2, 4, 8). Before, the
// walk's spot QLoRA answered "aws p5en.48xlarge ... 52 min, $5.90" while
// verda 8B200.240V in FIN-03 (left out behind 2B200.60V at $5.27 and
// 1.5 h) ran it in 23 min for $5.28. Both figures are compared with a 1%
// margin (the JSON rounds them); under spot they are the expected
// figures with interruptions, as the answer's.
func TestFinishByNoDroppedHostBeatsIt(t *testing.T) {
	type offer struct {
		Provider     string   `json:"provider"`
		InstanceType string   `json:"instance_type"`
		Region       string   `json:"region"`
		GPU          string   `json:"gpu"`
		GPUCount     int      `json:"gpu_count"`
		OOMChance    *float64 `json:"oom_chance"`
		JobHours     *float64 `json:"job_hours"`
		JobCostUSD   *float64 `json:"job_cost_usd"`
		Spot         *struct {
			ExpectedHours float64 `json:"expected_hours"`
			ExpectedUSD   float64 `json:"expected_usd"`
		} `json:"spot"`
	}
	type answer struct {
		Offer *struct {
			Hours        float64 `json:"hours"`
			USD          float64 `json:"usd"`
			Provider     string  `json:"provider"`
			InstanceType string  `json:"instance_type"`
			Region       string  `json:"region"`
		} `json:"offer"`
		Text string `json:"text"`
	}
	type result struct {
		Offers  []offer  `json:"offers"`
		Answers []answer `json:"answers"`
	}
	figures := func(o *offer) (hours, usd float64, ok bool) {
		if o.Spot != nil {
			return o.Spot.ExpectedHours, o.Spot.ExpectedUSD, true
		}
		if o.JobHours == nil || o.JobCostUSD == nil {
			return 0, 0, false
		}
		return *o.JobHours, *o.JobCostUSD, true
	}
	for _, pricing := range []string{"spot", "on-demand"} {
		t.Run(pricing, func(t *testing.T) {
			base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "200M", "--pricing", pricing, "--json"}
			r, _ := runCLIJSON[result](t, base, "--finish-by", "1h")
			if len(r.Answers) != 1 || r.Answers[0].Offer == nil {
				t.Fatalf("answers %+v: want one, with an offer", r.Answers)
			}
			a := r.Answers[0].Offer
			kept := map[string]bool{} // provider, region, GPU of each kept offer
			for i := range r.Offers {
				o := &r.Offers[i]
				kept[fmt.Sprint(o.Provider, "|", o.Region, "|", o.GPU)] = true
			}
			for _, n := range []string{"1", "2", "4", "8"} {
				f, _ := runCLIJSON[result](t, base, "--gpus", n)
				for i := range f.Offers {
					o := &f.Offers[i]
					h, usd, ok := figures(o)
					if !ok || o.OOMChance != nil || !kept[fmt.Sprint(o.Provider, "|", o.Region, "|", o.GPU)] {
						continue
					}
					if h < a.Hours*0.99 && usd < a.USD*0.99 {
						t.Errorf("--gpus %s: %s %s in %s (%d GPUs) runs the job in %.3f h for $%.2f, left out; the answer %q is %.3f h, $%.2f",
							n, o.Provider, o.InstanceType, o.Region, o.GPUCount, h, usd, r.Answers[0].Text, a.Hours, a.USD)
					}
				}
			}
		})
	}
}
