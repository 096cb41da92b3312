package market

import (
	"slices"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

// StaleAfter is the age past which prices are called stale and
// `gpuplan catalog update` is suggested. SkyPilot refreshes its hosted
// catalog every 7 hours and gpuhunt hourly (catalog audit §4); a quarter
// is long enough for GPU list prices to move by double-digit percentages.
// recommend calls an offer's price old past the same age behind the
// catalog's date (model.Offer.PriceAgeDays).
const StaleAfter = 90 * 24 * time.Hour

// PriceOrigin is one place prices came from: the embedded catalog, a
// `catalog update` overlay, or a hand-written overlay file.
type PriceOrigin struct {
	Origin  string // "embedded" or the overlay's path
	Updated bool   // written by gpuplan catalog update (in the update directory)
	AsOf    string // newest as_of of its entries, YYYY-MM-DD
	Types   int    // instance types whose entry or a region's price it set
}

// Provenance says where a catalog's prices came from and how old they are.
type Provenance struct {
	Origins []PriceOrigin // embedded first, then updated, then overlays by path
}

// CatalogProvenance collects the origins of c's instance prices: an
// instance's Origin, a region price's Origin when an overlay patched
// it, and an overlay discount's for the types whose reserved price it
// gives. Origins inside updateDir (data.UpdateDir, passed in to keep model
// free of the file system) count as `catalog update` results.
func CatalogProvenance(c *model.Catalog, updateDir string) Provenance {
	at := map[string]int{}
	var p Provenance
	add := func(origin, asOf string, seen map[string]bool) {
		if origin == "" || seen[origin] {
			return
		}
		seen[origin] = true
		i, ok := at[origin]
		if !ok {
			i = len(p.Origins)
			at[origin] = i
			upd := updateDir != "" && origin != "embedded" && strings.HasPrefix(origin, strings.TrimSuffix(updateDir, "/")+"/")
			p.Origins = append(p.Origins, PriceOrigin{Origin: origin, Updated: upd})
		}
		o := &p.Origins[i]
		o.Types++
		if asOf > o.AsOf {
			o.AsOf = asOf
		}
	}
	var disc []*model.Discount // overlays' discounts: the reserved prices they give are theirs
	for i := range c.Discounts {
		if d := &c.Discounts[i]; model.FromOverlay(d.Origin) {
			disc = append(disc, d)
		}
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		seen := map[string]bool{}
		add(in.Origin, in.AsOf, seen)
		for _, d := range disc {
			if c.DiscountFor(in, d.Term) == d {
				add(d.Origin, d.AsOf, seen)
			}
		}
		for j := range in.Prices {
			rp := &in.Prices[j]
			var origin, asOf string
			if rp.Patch != nil { // a price patch's own as_of wins for its regions
				origin, asOf = rp.Patch.Origin, rp.Patch.AsOf
			}
			if asOf == "" {
				asOf = in.AsOf
			}
			add(origin, asOf, seen)
		}
	}
	rank := func(o *PriceOrigin) int {
		switch {
		case o.Origin == "embedded":
			return 0
		case o.Updated:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(p.Origins, func(a, b PriceOrigin) int {
		if d := rank(&a) - rank(&b); d != 0 {
			return d
		}
		return strings.Compare(a.Origin, b.Origin)
	})
	return p
}

// PricesAsOf returns the date of the newest list prices: the embedded
// catalog's or, when `catalog update` ran, its newest result. Hand-written
// overlays do not count: they patch some rows, not the market.
func (p Provenance) PricesAsOf() string {
	newest := ""
	for _, o := range p.Origins {
		if (o.Origin == "embedded" || o.Updated) && o.AsOf > newest {
			newest = o.AsOf
		}
	}
	return newest
}

// Stale reports whether the list prices are older than StaleAfter at now;
// an unreadable date counts as fresh (nothing to suggest).
func (p Provenance) Stale(now time.Time) bool {
	d, err := time.Parse(time.DateOnly, p.PricesAsOf())
	return err == nil && now.Sub(d) > StaleAfter
}

// Line describes the origins in one line for a header or a report:
// "prices: embedded as of 2026-11-30; updated 2026-12-01 by catalog
// update (2 files); overlay ~/x.toml (3 types)".
func (p Provenance) Line() string {
	return "prices: " + strings.Join(model.Strings(p.LineParts()), "; ")
}

// LineParts are Line's parts as messages, for translation: the UI joins
// them after its "prices: ". catalog update's files older than the
// embedded prices are not called "updated": they set only the offers the
// embedded catalog lacks or has older (data.LoadWith leaves out the rest).
func (p Provenance) LineParts() []model.Message {
	var parts []model.Message
	updated, updAsOf, embAsOf := 0, "", ""
	for _, o := range p.Origins {
		switch {
		case o.Origin == "embedded":
			embAsOf = o.AsOf
			parts = append(parts, model.Msg("embedded as of %s", o.AsOf))
		case o.Updated:
			updated++
			updAsOf = max(updAsOf, o.AsOf)
		}
	}
	switch files := model.Msg(model.Plural(updated, "file")); {
	case updated > 0 && updAsOf < embAsOf:
		parts = append(parts, model.Msg("catalog update of %s (%d %s), older: only for offers the embedded catalog lacks or has older", updAsOf, updated, files))
	case updated > 0:
		parts = append(parts, model.Msg("updated %s by catalog update (%d %s)", updAsOf, updated, files))
	}
	for _, o := range p.Origins {
		if o.Origin != "embedded" && !o.Updated {
			parts = append(parts, model.Msg("overlay %s (%s %s)", o.Origin, model.Grouped(o.Types), model.Msg(model.Plural(o.Types, "type"))))
		}
	}
	return parts
}

// StaleNote is the suggestion shown when Stale: how old the prices are and
// the command that refreshes them; the zero Message when fresh.
func (p Provenance) StaleNote(now time.Time) model.Message {
	if !p.Stale(now) {
		return model.Message{}
	}
	d, _ := time.Parse(time.DateOnly, p.PricesAsOf())
	return model.Msg("prices are %d days old (as of %s); refresh them with gpuplan catalog update",
		int(now.Sub(d).Hours()/24), p.PricesAsOf())
}
