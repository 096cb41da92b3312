package report

import (
	"time"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// staleDays is market.StaleAfter in days: past it a price is old, as the
// catalog's prices are past it when offers suggests catalog update.
var staleDays = int(market.StaleAfter.Hours() / 24)

// priceOld reports whether o's price is more than market.StaleAfter older
// than the catalog's date asOf (model.Recommendation.AsOf). The catalog's
// date, not the clock: a row months behind the rest of the catalog
// (DigitalOcean's 2026-05-28 beside 2026-12-0x) is behind the market
// whatever the day, and the output is the same on every run.
func priceOld(o *model.Offer, asOf string) bool { return o.PriceAgeDays(asOf) > staleDays }

// OldPriceLine is the warning under "best:" (and under the configurator's
// best offer) when o's price is old (priceOld): "price as of 2026-05-28,
// 192 days older than the catalog (2026-12-06): check it before renting";
// "" when it is not.
func OldPriceLine(p *i18n.Printer, o *model.Offer, asOf string) string {
	if !priceOld(o, asOf) {
		return ""
	}
	return p.Sprintf("price as of %s, %d days older than the catalog (%s): check it before renting",
		o.PriceAsOf(), o.PriceAgeDays(asOf), asOf)
}

// OldPriceLineShort is OldPriceLine without the catalog's date, for the
// configurator, whose header gives it: "price as of 2026-05-28, 192 days
// older than the catalog: check it before renting". A date in the
// middle of a wrapped panel line broke at its hyphen.
func OldPriceLineShort(p *i18n.Printer, o *model.Offer, asOf string) string {
	if !priceOld(o, asOf) {
		return ""
	}
	return p.Sprintf("price as of %s, %d days older than the catalog: check it before renting", o.PriceAsOf(), o.PriceAgeDays(asOf))
}

// OldPriceMark is OldPriceLine in a few words, for the line of the
// configurator's compact panel that counts the offers under the best:
// "! best price 192 days older than the catalog"; "" when o's is not old.
func OldPriceMark(p *i18n.Printer, o *model.Offer, asOf string) string {
	if !priceOld(o, asOf) {
		return ""
	}
	return p.Sprintf("! best price %d days older than the catalog", o.PriceAgeDays(asOf))
}

// oldPricesTableNote is the line under recommend's table when rows
// shown have old prices (priceOld): the row, or how many and the oldest
// (the first of the ranking among equals); "" when none has, or when the
// only one is the first row, the best, whose line says it (OldPriceLine).
func oldPricesTableNote(p *i18n.Printer, rows []model.Offer, asOf string) string {
	n, oldest := 0, -1
	for i := range rows {
		if priceOld(&rows[i], asOf) {
			n++
			if oldest < 0 || rows[i].PriceAgeDays(asOf) > rows[oldest].PriceAgeDays(asOf) {
				oldest = i
			}
		}
	}
	if n == 0 || n == 1 && oldest == 0 {
		return ""
	}
	o := &rows[oldest]
	name, date := o.Instance.Provider+" "+o.Instance.Type, o.PriceAsOf() // names checked at load (safeio.CheckName)
	if n == 1 {
		return p.Sprintf("%s: price as of %s, %d days older than the catalog (%s): check it before renting",
			name, date, o.PriceAgeDays(asOf), asOf)
	}
	return p.Sprintf("%d rows' prices are over %d days older than the catalog (%s), the oldest %s as of %s: check them before renting",
		n, staleDays, asOf, name, date)
}

// RowPriceAgeDays is how many days r's price (its as_of) is older than
// the catalog's date asOf, 0 when not older or a date is missing, as
// model.Offer.PriceAgeDays counts an offer's: offers --json's
// price_age_days.
func RowPriceAgeDays(r *market.Row, asOf string) int {
	ref, err := time.Parse(time.DateOnly, asOf)
	if err != nil {
		return 0
	}
	_, _, priceAsOf := r.Provenance()
	price, err := time.Parse(time.DateOnly, priceAsOf)
	if err != nil || !price.Before(ref) {
		return 0
	}
	return int(ref.Sub(price).Hours() / 24) // UTC dates: whole days
}

// marketOldPricesNote is the line under the offers table when rows shown
// have prices more than market.StaleAfter older than the catalog (asOf),
// worded as recommend's (oldPricesTableNote): the row, or how many and the
// oldest; "" when none has (walk: offers MI300X:8 listed DigitalOcean's
// 2026-05-28 price first and said nothing, where recommend warned).
func marketOldPricesNote(p *i18n.Printer, rows []market.Row, asOf string) string {
	n, oldest, oldestAge := 0, -1, 0
	for i := range rows {
		if age := RowPriceAgeDays(&rows[i], asOf); age > staleDays {
			n++
			if age > oldestAge {
				oldest, oldestAge = i, age
			}
		}
	}
	if n == 0 {
		return ""
	}
	r := &rows[oldest]
	_, _, date := r.Provenance()
	name := r.Instance.Provider + " " + r.Instance.Type // names checked at load (safeio.CheckName)
	if n == 1 {
		return p.Sprintf("%s: price as of %s, %d days older than the catalog (%s): check it before renting",
			name, date, oldestAge, asOf)
	}
	return p.Sprintf("%d rows' prices are over %d days older than the catalog (%s), the oldest %s as of %s: check them before renting",
		n, staleDays, asOf, name, date)
}
