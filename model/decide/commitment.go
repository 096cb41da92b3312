package decide

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// CommitmentPrices are one deployment's hourly prices, USD, in each pricing
// mode; 0 means not offered. Reserved prices are on-demand less the
// provider's published discount (discounts.toml), as Recommend prices them.
type CommitmentPrices struct {
	OnDemand, Spot, Reserved1y, Reserved3y float64
}

// CommitmentPricesFor returns the prices of one instance in one region, and
// whether the region is listed; multiply by the instance count for a
// multi-node deployment.
func CommitmentPricesFor(c *model.Catalog, in *model.Instance, region string) (CommitmentPrices, bool) {
	for i := range in.Prices {
		rp := &in.Prices[i]
		if rp.Region != region {
			continue
		}
		var p CommitmentPrices
		p.OnDemand, _ = c.Price(in, rp, model.OnDemand, nil)
		p.Spot, _ = c.Price(in, rp, model.Spot, nil)
		p.Reserved1y, _ = c.Price(in, rp, model.Reserved1y, nil)
		p.Reserved3y, _ = c.Price(in, rp, model.Reserved3y, nil)
		return p, true
	}
	return CommitmentPrices{}, false
}

// BreakEven says when a commitment pays: a commitment is billed for every
// hour of the term (HoursPerMonth a month) whether used or not, so against
// a pay-as-you-go price p it wins above c·730/p used hours a month, where c
// is the committed hourly price.
type BreakEven struct {
	Term       model.Pricing `json:"term"`
	USDPerHour float64       `json:"usd_per_hour"` // committed price
	MonthlyUSD float64       `json:"monthly_usd"`  // USDPerHour × 730, paid whatever the use
	TermUSD    float64       `json:"term_usd"`     // MonthlyUSD × TermMonths
	// VsOnDemandHoursPerMonth and VsSpotHoursPerMonth are the used hours a
	// month above which the commitment is cheaper; 0 when it never is
	// (it would take more than 730 h, or there is no such price to beat).
	VsOnDemandHoursPerMonth float64 `json:"break_even_vs_on_demand_hours_per_month"`
	VsSpotHoursPerMonth     float64 `json:"break_even_vs_spot_hours_per_month"`
	// At the user's hours a month: the cost of each mode for that use, and
	// whether the commitment is the cheapest of the three.
	UsedHoursPerMonth  float64 `json:"used_hours_per_month"`
	OnDemandMonthlyUSD float64 `json:"on_demand_monthly_usd"`
	SpotMonthlyUSD     float64 `json:"spot_monthly_usd"`
	BeatsOnDemand      bool    `json:"beats_on_demand"`
	BeatsSpot          bool    `json:"beats_spot"`
	// EffectiveUSDPerUsedHour is MonthlyUSD / used hours: what a used
	// hour really costs on the commitment.
	EffectiveUSDPerUsedHour float64 `json:"effective_usd_per_used_hour"`
}

// CommitmentBreakEven returns the break-even of each commitment term that
// has a price, for usedHoursPerMonth hours of use a month (0 < h ≤ 730).
// spotUSDPerHour may be the spot price or, better, a spot job's expected
// cost per useful hour (SpotEstimate.ExpectedUSD / JobHours), so that
// interruptions are counted.
func CommitmentBreakEven(p CommitmentPrices, usedHoursPerMonth float64) ([]BreakEven, error) {
	if !(usedHoursPerMonth > 0) || usedHoursPerMonth > model.HoursPerMonth {
		return nil, model.Errorf(ErrInvalidSpot, "hours of use per month must be in (0, %d], got %g", model.HoursPerMonth, usedHoursPerMonth)
	}
	// Room for the terms priced, made once: grown by append, two terms
	// made two arrays, and recommend --json breaks even every offer.
	var out []BreakEven
	if n := b2i(p.Reserved1y > 0) + b2i(p.Reserved3y > 0); n > 0 {
		out = make([]BreakEven, 0, n)
	}
	for _, t := range []struct {
		term  model.Pricing
		price float64
	}{{model.Reserved1y, p.Reserved1y}, {model.Reserved3y, p.Reserved3y}} {
		if !(t.price > 0) {
			continue
		}
		b := BreakEven{Term: t.term, USDPerHour: t.price, MonthlyUSD: t.price * model.HoursPerMonth, UsedHoursPerMonth: usedHoursPerMonth}
		b.TermUSD = b.MonthlyUSD * float64(model.TermMonths(t.term))
		b.VsOnDemandHoursPerMonth = breakEvenHours(b.MonthlyUSD, p.OnDemand)
		b.VsSpotHoursPerMonth = breakEvenHours(b.MonthlyUSD, p.Spot)
		b.OnDemandMonthlyUSD = p.OnDemand * usedHoursPerMonth
		b.SpotMonthlyUSD = p.Spot * usedHoursPerMonth
		b.BeatsOnDemand = p.OnDemand > 0 && b.MonthlyUSD < b.OnDemandMonthlyUSD
		b.BeatsSpot = p.Spot <= 0 || b.MonthlyUSD < b.SpotMonthlyUSD
		b.EffectiveUSDPerUsedHour = b.MonthlyUSD / usedHoursPerMonth
		out = append(out, b)
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// breakEvenHours is monthly/price, or 0 (never) when that is above a
// month or there is no price to beat.
func breakEvenHours(monthly, price float64) float64 {
	if h := monthly / price; price > 0 && h <= model.HoursPerMonth {
		return h
	}
	return 0
}

// CommittedJobUSD is a job's share of a commitment used
// usedHoursPerMonth hours a month: jobHours × the effective price of a
// used hour (committed price × 730 / used hours). The whole commitment
// (TermUSD) is owed regardless; this is the fair share when the rest of
// the month's hours are used by other work.
func CommittedJobUSD(jobHours, committedUSDPerHour, usedHoursPerMonth float64) float64 {
	if !(usedHoursPerMonth > 0) {
		return math.Inf(1)
	}
	return jobHours * committedUSDPerHour * model.HoursPerMonth / min(usedHoursPerMonth, model.HoursPerMonth)
}
