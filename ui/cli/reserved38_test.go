package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestPlanReservedMonths: a reserved phase of N months is billed N × 730
// h, used or not, as the plan's own cost and as the base of what saves
// the most (walk37: 18 months × 200 h on reserved-1y showed 8,760 h,
// $3,888, "whole term"). Hand-worked from the catalog: gcp g2-standard-4
// us-east4 on-demand $0.70452, GCP's reserved-1y discount 37%
// (data/catalog/discounts.toml): 0.70452 × 0.63 = $0.4438476/h; the plan
// writes $0.4438.
func TestPlanReservedMonths(t *testing.T) {
	const file = "testdata/reserved38.toml"
	var p struct {
		Phases []struct {
			BilledHours float64 `json:"billed_hours"`
			USD         float64 `json:"usd"`
		} `json:"phases"`
		Savings struct {
			BaseUSD float64 `json:"base_usd"`
			Changes []struct {
				Change string  `json:"change"`
				USD    float64 `json:"usd"`
			} `json:"changes"`
		} `json:"savings"`
	}
	code, out, errOut := runCLI(t, "plan", file, "--json")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	const hours = 18 * 730.0                         // 13,140 h
	plan := math.Round(hours*0.4438*100) / 100       // $5,831.53
	base := math.Round(hours*0.70452*0.63*100) / 100 // $5,832.16 at the catalog's reserved price
	onDemand := math.Round(18*200*0.70452*100) / 100 // $2,536.27: on-demand bills the hours run
	if len(p.Phases) != 1 || p.Phases[0].BilledHours != hours || p.Phases[0].USD != plan {
		t.Errorf("plan: %+v, want %g h, $%.2f", p.Phases, hours, plan)
	}
	if p.Savings.BaseUSD != base {
		t.Errorf("savings base $%.2f, want $%.2f", p.Savings.BaseUSD, base)
	}
	found := false
	for _, c := range p.Savings.Changes {
		if c.Change == "pay on-demand instead of reserved-1y" {
			found = true
			if c.USD != onDemand {
				t.Errorf("on-demand: $%.2f, want $%.2f", c.USD, onDemand)
			}
		}
	}
	if !found {
		t.Errorf("no on-demand change in %+v", p.Savings.Changes)
	}
	for _, tt := range []struct{ lang, want string }{
		{"en", "13140  $5,832 (730 h a month committed)"},
		{"zh-CN", "（承诺期内每月按 730 小时计费）"},
	} {
		_, out, _ := runCLI(t, "plan", file, "--no-savings", "--lang", tt.lang)
		if !strings.Contains(out, tt.want) {
			t.Errorf("plan --lang %s: want %q in:\n%s", tt.lang, tt.want, out)
		}
	}
}

// TestRecommendReservedMonth: under a reserved term the month an offer
// costs is the one the commitment bills, every hour of it used or not,
// whatever --hours-per-month says; on demand it is the hours used (a
// tester: reserved-1y at 200 h a month showed gcp g2-standard-4 at
// $88.77 a month and passed --budget-month 100, while its Commitment line
// said $324/month committed). Hand-worked from the catalog as above:
// reserved-1y $0.4438476/h × 730 = $324.01; on demand $0.70452/h × 200 =
// $140.90.
func TestRecommendReservedMonth(t *testing.T) {
	type offers struct {
		Offers []struct {
			Type    string  `json:"instance_type"`
			Region  string  `json:"region"`
			Monthly float64 `json:"monthly_cost_usd"`
		} `json:"offers"`
		Rejected []struct {
			Type   string `json:"instance_type"`
			Region string `json:"region"`
			Reason string `json:"reason"`
		} `json:"rejected"`
	}
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "20M",
		"--providers", "gcp", "--regions", "us-east4", "--hours-per-month", "200", "--no-savings", "--json"}
	monthly := func(d offers) float64 {
		for _, o := range d.Offers {
			if o.Type == "g2-standard-4" && o.Region == "us-east4" {
				return o.Monthly
			}
		}
		return -1
	}
	for _, tt := range []struct {
		name    string
		pricing string
		want    float64
	}{
		{"reserved-1y: $0.4438476 × 730 = $324.01", "reserved-1y", 324.01},
		{"on-demand: $0.70452 × 200 = $140.90", "on-demand", 140.90},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := runCLIJSON[offers](t, base, "--pricing", tt.pricing)
			if got := monthly(d); got != tt.want {
				t.Errorf("g2-standard-4 us-east4 monthly_cost_usd %v, want %v", got, tt.want)
			}
		})
	}
	// $324.01 is over a $100 budget: refused, naming the committed hours;
	// on demand $140.90 fits a $150 one.
	d, _ := runCLIJSON[offers](t, base, "--pricing", "reserved-1y", "--budget-month", "100")
	const why = "$324/month (730 h committed) is above the $100 budget"
	found := false
	for _, x := range d.Rejected {
		found = found || x.Type == "g2-standard-4" && x.Region == "us-east4" && x.Reason == why
	}
	if got := monthly(d); got != -1 || !found {
		t.Errorf("reserved-1y --budget-month 100: g2-standard-4 offered at $%v/month, or not refused with %q: %+v", got, why, d.Rejected)
	}
	if d, _ := runCLIJSON[offers](t, base, "--pricing", "on-demand", "--budget-month", "150"); monthly(d) != 140.90 {
		t.Errorf("on-demand --budget-month 150: g2-standard-4 not offered at $140.90/month: %+v", d.Offers)
	}
	// The text says the same month, and why it is 730 h.
	_, out, _ := runCLI(t, append(base[:len(base)-1:len(base)-1], "--pricing", "reserved-1y")...) // base without --json, copied
	for _, want := range []string{"$0.44 per hour, $324 per month", "reserved-1y: $/month bills 730 h and job cost the 8,760 h term whatever the job uses (a commitment bills every month in full)"} {
		if !strings.Contains(out, want) {
			t.Errorf("recommend --pricing reserved-1y: want %q in:\n%s", want, out)
		}
	}
}
