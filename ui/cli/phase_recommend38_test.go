package cli

import (
	"strings"
	"testing"
)

// TestRecommendPhasePricing: recommend --config PLAN --phase NAME, where
// the plan's checks send a phase that does not fit its offer, ranks
// offers priced as the phase is (testdata/phase36.toml's "tune" is spot)
// on every provider, and says so with the flags that keep to the phase's
// own offer; --pricing and --providers still win (walk37: it ranked
// on-demand offers for a spot phase).
func TestRecommendPhasePricing(t *testing.T) {
	type doc struct {
		Offers []struct {
			Provider string `json:"provider"`
			Pricing  string `json:"pricing"`
		} `json:"offers"`
	}
	base := []string{"recommend", "--config", "testdata/phase36.toml", "--phase", "tune", "--json", "--limit", "20", "--no-savings"}
	d, errs := runCLIJSON[doc](t, base)
	if len(d.Offers) == 0 {
		t.Fatal("no offers: the test compares nothing")
	}
	providers := map[string]bool{}
	for _, o := range d.Offers {
		if o.Pricing != "spot" {
			t.Errorf("offer %s priced %s, want the phase's spot", o.Provider, o.Pricing)
		}
		providers[o.Provider] = true
	}
	if len(providers) < 2 {
		t.Errorf("offers of %d provider(s): want every provider the search allows", len(providers))
	}
	if want := `phase "tune": offers ranked as the phase is priced (spot), on every provider the search allows; the phase rents p4d.24xlarge in aws us-east-1 (--providers aws --regions us-east-1 keeps to it)`; !strings.Contains(errs, want) {
		t.Errorf("stderr %q lacks %q", errs, want)
	}
	d, errs = runCLIJSON[doc](t, base, "--pricing", "on-demand", "--providers", "aws")
	for _, o := range d.Offers {
		if o.Pricing != "on-demand" || o.Provider != "aws" {
			t.Errorf("--pricing on-demand --providers aws: offer %s %s", o.Provider, o.Pricing)
		}
	}
	if strings.Contains(errs, "offers ranked as the phase is priced") {
		t.Errorf("--providers given: the note still says every provider: %q", errs)
	}
}

// TestRecommendServePhasePricing: a serving phase's recommend --phase is
// priced as the phase is too (testdata/phase36.toml's "rserve" is
// reserved-1y; walk38: it was ranked on-demand).
func TestRecommendServePhasePricing(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--config", "testdata/phase36.toml", "--phase", "rserve")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, `phase "rserve": offers ranked as the phase is priced (reserved-1y)`) {
		t.Errorf("stderr lacks the phase's search note: %q", errs)
	}
	if !strings.Contains(out, "(reserved-1y)") || strings.Contains(out, "(on-demand)") {
		t.Errorf("offers not priced reserved-1y:\n%s", out)
	}
}
