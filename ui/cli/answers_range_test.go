package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestFinishByJudgesRange: on the embedded catalog, --finish-by 14h
// names the offer --deadline-hours 14 puts first among those within 14 h
// (fresh-user walk: it named a 13.4 h spot offer whose range ran to
// 35.8 h, while the deadline named a 1.7 h one), with no miss chance, and
// names the cheaper offer it passed over with the chance the deadline
// gives it (deadline_miss_chance); --max-job-cost says its chance when
// the offer it names may go over the budget.
func TestFinishByJudgesRange(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "200M", "--pricing", "spot", "--json"}
	by, _ := runCLIJSON[report.RecommendJSON](t, base, "--finish-by", "14h")
	both, _ := runCLIJSON[report.RecommendJSON](t, base, "--deadline-hours", "14", "--finish-by", "14h")
	if len(by.Answers) != 1 || len(both.Answers) != 1 || by.Answers[0].Offer == nil || both.Answers[0].Offer == nil {
		t.Fatalf("answers %+v; with the deadline %+v", by.Answers, both.Answers)
	}
	a, b := by.Answers[0], both.Answers[0]
	if a.Offer.InstanceType != b.Offer.InstanceType || a.Offer.Region != b.Offer.Region {
		t.Errorf("--finish-by 14h names %s in %s; with --deadline-hours 14, %s in %s", a.Offer.InstanceType, a.Offer.Region, b.Offer.InstanceType, b.Offer.Region)
	}
	if a.MissChance != nil {
		t.Errorf("answer may miss 14 h (%v) where an offer meets it across its range: %q", *a.MissChance, a.Text)
	}
	if a.Riskier == nil || a.RiskierMissChance == nil {
		t.Fatalf("no riskier offer named: %q", a.Text)
	}
	if a.Riskier.USD >= a.Offer.USD || a.Riskier.Hours > 14 || !strings.Contains(a.Text, "cheaper, but may take longer than 14.0 h") ||
		!strings.Contains(a.Text, a.Riskier.InstanceType) {
		t.Errorf("riskier %+v: %q", a.Riskier, a.Text)
	}
	for _, o := range both.Offers {
		if o.InstanceType == a.Riskier.InstanceType && o.Region == a.Riskier.Region && o.Provider == a.Riskier.Provider {
			if o.DeadlineMissChance == nil || *o.DeadlineMissChance != *a.RiskierMissChance {
				t.Errorf("riskier offer's chance %v; --deadline-hours 14 gives it %v", *a.RiskierMissChance, o.DeadlineMissChance)
			}
		}
	}
	cost, _ := runCLIJSON[report.RecommendJSON](t, base, "--max-job-cost", "3.5")
	if len(cost.Answers) != 1 || cost.Answers[0].Offer == nil {
		t.Fatalf("--max-job-cost 3.5: %+v", cost.Answers)
	}
	if c := cost.Answers[0]; (c.MissChance != nil) != strings.Contains(c.Text, "(may cost more than $3.50") {
		t.Errorf("--max-job-cost 3.5: miss_chance %v, text %q", c.MissChance, c.Text)
	}
}
