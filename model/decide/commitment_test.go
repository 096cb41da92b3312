package decide

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestCommitPricesFor(t *testing.T) {
	cat := &model.Catalog{
		Instances: []model.Instance{{Provider: "gcp", Type: "a2-highgpu-1g", Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 4, SpotUSD: 1.6}}}},
		Discounts: []model.Discount{{Provider: "gcp", Term: model.Reserved1y, Fraction: 0.37}, {Provider: "gcp", Term: model.Reserved3y, Fraction: 0.55}},
	}
	p, ok := CommitmentPricesFor(cat, &cat.Instances[0], "us-central1")
	od, f1, f3 := 4.0, 0.37, 0.55 // variables: float64 arithmetic as price() does it, not exact constants
	want := CommitmentPrices{OnDemand: od, Spot: 1.6, Reserved1y: od * (1 - f1), Reserved3y: od * (1 - f3)}
	if !ok || p != want {
		t.Errorf("CommitmentPricesFor = %+v, %v; want %+v", p, ok, want)
	}
	if _, ok := CommitmentPricesFor(cat, &cat.Instances[0], "europe-west4"); ok {
		t.Error("CommitmentPricesFor an unlisted region reported ok")
	}
}

func TestCommitmentBreakEven(t *testing.T) {
	// On demand $4/h, spot $1.60/h, 1 year at 37% off ($2.52/h), 3 years
	// at 55% off ($1.80/h): the GCP discounts in discounts.toml.
	p := CommitmentPrices{OnDemand: 4, Spot: 1.6, Reserved1y: 4 * (1 - 0.37), Reserved3y: 4 * (1 - 0.55)}
	tests := []struct {
		name                  string
		used                  float64
		term                  model.Pricing
		monthly, vsOD, vsSpot float64
		beatsOD, beatsSpot    bool
		effective             float64
	}{
		// 1y: 2.52 × 730 = 1839.6 $/month; vs on demand 1839.6/4 = 459.9 h;
		// vs spot 1839.6/1.6 = 1149.75 h > 730: never (0). At 500 h: OD $2000, spot $800.
		{name: "1y at 500 h/month: beats on demand (1839.6 < 2000), not spot", used: 500, term: model.Reserved1y,
			monthly: 1839.6, vsOD: 459.9, vsSpot: 0, beatsOD: true, effective: 1839.6 / 500},
		// 3y: 1.80 × 730 = 1314 $/month; 1314/4 = 328.5 h; 1314/1.6 = 821.25 h: never.
		{name: "3y at 500 h/month: beats on demand (1314 < 2000)", used: 500, term: model.Reserved3y,
			monthly: 1314, vsOD: 328.5, vsSpot: 0, beatsOD: true, effective: 1314.0 / 500},
		{name: "1y at 300 h/month: below 459.9 h, on demand is cheaper (1200 < 1839.6)", used: 300, term: model.Reserved1y,
			monthly: 1839.6, vsOD: 459.9, vsSpot: 0, beatsOD: false, effective: 1839.6 / 300},
		{name: "3y all month: 730 h × 4 = 2920 > 1314", used: 730, term: model.Reserved3y,
			monthly: 1314, vsOD: 328.5, vsSpot: 0, beatsOD: true, effective: 1.8},
	}
	for _, tt := range tests {
		got, err := CommitmentBreakEven(p, tt.used)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(got) != 2 {
			t.Fatalf("%s: %d terms, want 2", tt.name, len(got))
		}
		b := got[0]
		if tt.term == model.Reserved3y {
			b = got[1]
		}
		if b.Term != tt.term || !near(b.MonthlyUSD, tt.monthly, 1e-12) || !near(b.VsOnDemandHoursPerMonth, tt.vsOD, 1e-12) ||
			b.VsSpotHoursPerMonth != tt.vsSpot || b.BeatsOnDemand != tt.beatsOD || b.BeatsSpot != tt.beatsSpot ||
			!near(b.EffectiveUSDPerUsedHour, tt.effective, 1e-12) {
			t.Errorf("%s: got %+v", tt.name, b)
		}
		if want := tt.monthly * float64(model.TermMonths(tt.term)); !near(b.TermUSD, want, 1e-12) {
			t.Errorf("%s: TermUSD = %g, want %g", tt.name, b.TermUSD, want)
		}
	}
	// Spot at $3/h: 1y beats it above 1839.6/3 = 613.2 h.
	got, _ := CommitmentBreakEven(CommitmentPrices{OnDemand: 4, Spot: 3, Reserved1y: 2.52}, 700)
	if len(got) != 1 || !near(got[0].VsSpotHoursPerMonth, 613.2, 1e-12) || !got[0].BeatsSpot {
		t.Errorf("1y vs $3 spot at 700 h: %+v, want break-even 613.2 h and beating spot", got)
	}
	for _, h := range []float64{0, -1, 731} {
		if _, err := CommitmentBreakEven(p, h); !errors.Is(err, ErrInvalidSpot) {
			t.Errorf("CommitmentBreakEven(%g h) error = %v, want ErrInvalidSpot", h, err)
		}
	}
}

func TestCommittedJobUSD(t *testing.T) {
	tests := []struct {
		name                   string
		job, price, used, want float64
	}{
		// 100 h × 2.52 × 730 / 500 = 367.92
		{name: "100 h job, $2.52/h committed, 500 h used a month", job: 100, price: 2.52, used: 500, want: 367.92},
		{name: "fully used: the committed price", job: 100, price: 2.52, used: 730, want: 252},
	}
	for _, tt := range tests {
		if got := CommittedJobUSD(tt.job, tt.price, tt.used); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: CommittedJobUSD = %g, want %g", tt.name, got, tt.want)
		}
	}
}
