package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestUnstatedRegionInDecisions: Daytona's placeholder region "earth"
// (model.RegionUnstated) is written "location not stated", as the docs
// promise (docs/cli.md, docs/data.md) and the offers table writes it, in
// the sentences and tables beside the offers too: the Spot and
// Commitment lines ("Spot daytona 8x-MI355X in earth: …" in the report),
// a saving's offer, the Pareto table and its answers, the serving name;
// in Chinese as "未说明地点". JSON keeps the name itself.
func TestUnstatedRegionInDecisions(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		name string
		got  string
		want string
	}{
		{"RegionArg alone", model.Msg("in %s", RegionArg("earth")).String(), "in location not stated"},
		{"RegionArg keeps +N", model.Msg("in %s", RegionArg("earth +2")).String(), "in location not stated +2"},
		{"RegionArg of a place", model.Msg("in %s", RegionArg("us-east-1")).String(), "in us-east-1"},
		{"RegionArg in Chinese", zh.Message(model.Msg("%s", RegionArg("earth +2"))), "未说明地点 +2"},
		{"region cell not cut", (&Renderer{}).regionCell(nil, "earth", 18), "location not stated"},
		{"region cell of a place cut", (&Renderer{}).regionCell(nil, "southamerica-east1", 12), Truncate("southamerica-east1", 12)},
		{"region cell in Chinese", (&Renderer{}).regionCell(zh, "earth +1", 18), "未说明地点 +1"},
		{"saving's other offer", SavingsList([]advice.Saving{{Change: "pay spot instead of on-demand", SavingUSD: 8, SavingPct: 40,
			Offer: &advice.SavingOffer{Provider: "daytona", Region: "earth", GPU: "mi355x", GPUs: 8}, OtherOffer: true}}, 6),
			"on daytona 8×mi355x (location not stated)"},
	} {
		if !strings.Contains(tt.got, tt.want) || strings.Contains(tt.got, "earth") {
			t.Errorf("%s: %q, want it to hold %q and not \"earth\"", tt.name, tt.got, tt.want)
		}
	}

	in := &model.Instance{Provider: "daytona", Type: "8x-MI355X", GPU: "mi355x", GPUCount: 8}
	o := serve.Offer{Name: "daytona 8x-MI355X earth on-demand", Instance: in, Region: "earth", Pricing: model.OnDemand}
	if got := ServeOfferName(nil, &o); got != "daytona 8x-MI355X location not stated on-demand" {
		t.Errorf("ServeOfferName = %q", got)
	}
	if got := ServeOfferName(zh, &o); strings.Contains(got, "earth") || !strings.Contains(got, "未说明地点") {
		t.Errorf("ServeOfferName in Chinese = %q", got)
	}

	// The Spot and Commitment lines of an offer in "earth", in English
	// and Chinese.
	rec := &model.Recommendation{Offers: []model.Offer{{Instance: in, Region: "earth", GPUs: 8, USDPerHour: 64, Pricing: model.OnDemand}}}
	d := &Decisions{Offers: []decide.Decision{{Spot: &decide.SpotEstimate{ExpectedUSD: 129, ExpectedHours: 3.5, OnDemandUSD: 109, Rate: decide.InterruptionRate{PerMonth: 0.2}}}},
		Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond}, HoursPerMonth: model.HoursPerMonth}
	for _, p := range []*i18n.Printer{nil, zh} {
		var b strings.Builder
		if err := WriteDecisions(&b, &Renderer{Profile: colorprofile.NoTTY, Lang: p}, rec, d); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "earth") || strings.Count(out, RegionIn(p, "earth")) != 2 {
			t.Errorf("decisions (%v) name the region %q twice, not \"earth\":\n%s", p.Chinese(), RegionIn(p, "earth"), out)
		}
	}
}
