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
