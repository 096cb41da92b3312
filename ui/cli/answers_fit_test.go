package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestAnswersPreferOffersThatFit: --finish-by and --max-job-cost answer
// with an offer that fits across its memory range when one meets the
// limit, and say "borderline" when only a borderline one does (walk45b:
// --finish-by 16.2h named an 8×B200 offer the same run called 10% likely
// to run out of memory).
func TestAnswersPreferOffersThatFit(t *testing.T) {
	for _, ask := range [][]string{{"--finish-by", "16.2h"}, {"--max-job-cost", "140"}, {"--finish-by", "4h"}} {
		args := append([]string{"recommend", "--model", "llama-3.1-8b", "--task", "finetune", "--dataset-tokens", "2B", "--json"}, ask...)
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", ask, code, errOut)
		}
		var j report.RecommendJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		if len(j.Answers) != 1 {
			t.Fatalf("%v: answers %+v", ask, j.Answers)
		}
		a := j.Answers[0]
		if a.Offer == nil {
			continue // no offer meets it: nothing to prefer
		}
		risky := j.Offers[a.Offer.Index].OOMChance != nil
		if risky != strings.Contains(a.Text, "borderline") {
			t.Errorf("%v: offer %d borderline %v, text %q", ask, a.Offer.Index, risky, a.Text)
		}
		if !risky {
			continue
		}
		for i, o := range j.Offers {
			if o.OOMChance != nil || o.JobHours == nil || o.JobCostUSD == nil {
				continue
			}
			if (ask[0] == "--finish-by" && *o.JobHours <= a.Limit) || (ask[0] == "--max-job-cost" && *o.JobCostUSD <= a.Limit) {
				t.Errorf("%v: answered with borderline offer %d where offer %d fits and meets it: %q", ask, a.Offer.Index, i, a.Text)
				break
			}
		}
	}
}
