package data

import (
	"cmp"
	"sync"

	"github.com/gpuplan/gpuplan/model"
)

// `catalog update` writes dated overlays (UpdateDir) that every command
// merges over the embedded catalog. A newer gpuplan brings a newer
// embedded catalog, and an update fetched before it would still
// override its newer prices: a g5.xlarge read at $0.95 on 2026-10-01
// beat the embedded catalog's $1.006 of 2026-11-30. So, for catalog
// update's files only (a hand-written overlay or a --catalog file
// always wins: it may be a negotiated price), whatever the embedded
// catalog has newer is left out before the merge (staleUpdate.drop).

// staleUpdate counts what drop left out of catalog update's files, for
// the one warning that says so.
type staleUpdate struct {
	prices int // region prices left out: offers (a type in a region)
	marks  int // missing_since marks left out: types
	// oldest and newest are the as_of dates of what was left out.
	oldest, newest string
}

// embeddedAt indexes the embedded catalog's instances by provider and
// type, built once (the update files are read on every command).
var embeddedAt = sync.OnceValue(func() map[[2]string]int {
	base := sharedCatalog()
	at := make(map[[2]string]int, len(base.Instances))
	for i := range base.Instances {
		at[[2]string{base.Instances[i].Provider, base.Instances[i].Type}] = i
	}
	return at
})

// drop removes from f, one of catalog update's files, what base (the
// embedded catalog) has newer, region price by region price: the unit
// catalog update writes (one price per type and region, dated by the
// fetch), and the unit of the embedded catalog's dates (a row's as_of,
// or a price patch's for its regions: model.PriceProvenance).
//
//   - A region price dated before the embedded catalog's for the same
//     type and region is left out: the embedded one is used. A price for
//     a type or region the embedded catalog lacks is kept, whatever its
//     date: nothing newer replaces it.
//   - A complete entry for a type the embedded catalog has (a type the
//     update added, that a later embedded catalog took in) becomes a
//     price patch, as catalog update writes the types the catalog has:
//     the embedded hardware, sourced and corrected, stays; without this
//     the fetch's host figures would redefine the embedded type, which
//     every command refuses without --trust-overlay.
//   - A missing_since mark (the fetch no longer listed the type) dated
//     before the embedded catalog's newest price of a type it still
//     prices and does not retire is left out: a later catalog found the
//     type on sale, so an older fetch does not hide it.
//
// An entry left with no price and no mark is dropped whole, so its
// source and date are not set on a type whose prices it no longer sets.
func (s *staleUpdate) drop(f *catalogFile, base *model.Catalog) {
	at := embeddedAt()
	out := f.instances[:0]
	for _, in := range f.instances {
		i, ok := at[[2]string{in.Provider, in.Type}]
		if !ok {
			out = append(out, in) // a type the embedded catalog lacks
			continue
		}
		e := &base.Instances[i]
		if in.complete {
			in = instanceEntry{Instance: model.Instance{Provider: in.Provider, Type: in.Type, Origin: in.Origin,
				Source: in.Source, AsOf: in.AsOf, Currency: in.Currency, Prices: in.Prices,
				MissingSince: in.MissingSince, MissingSource: in.MissingSource}}
		}
		had, hadMark := len(in.Prices) > 0, in.MissingSince != ""
		newest := newestPriceAsOf(e)
		// The date patchInstance gives the entry's prices.
		if asOf := cmp.Or(in.AsOf, f.date); had && asOf < newest {
			kept := make([]model.RegionPrice, 0, len(in.Prices))
			for _, rp := range in.Prices {
				if emb, ok := embeddedRegionAsOf(e, rp.Region); ok && asOf < emb {
					s.count(&s.prices, asOf)
					continue
				}
				kept = append(kept, rp)
			}
			in.Prices = kept
		}
		if hadMark && e.Retired == "" && in.MissingSince < newest {
			s.count(&s.marks, in.MissingSince)
			in.MissingSince, in.MissingSource = "", ""
		}
		if (had || hadMark) && len(in.Prices) == 0 && in.MissingSince == "" {
			continue
		}
		out = append(out, in)
	}
	clear(f.instances[len(out):]) // no stale copies behind the slice's end
	f.instances = out
}

// count adds one to *n, for something dated asOf.
func (s *staleUpdate) count(n *int, asOf string) {
	*n++
	if s.oldest == "" || asOf < s.oldest {
		s.oldest = asOf
	}
	s.newest = max(s.newest, asOf)
}

// warning is the one line that says what drop left out, against the
// embedded catalog dated embedded; the zero Message when nothing was.
func (s *staleUpdate) warning(embedded string) model.Message {
	var what model.Message
	switch {
	case s.prices > 0 && s.marks > 0:
		what = model.Msg("prices for %v and its \"not in the latest fetch\" marks on %v", countMsg(s.prices, "offer"), countMsg(s.marks, "type"))
	case s.prices > 0:
		what = model.Msg("prices for %v", countMsg(s.prices, "offer"))
	case s.marks > 0:
		what = model.Msg("\"not in the latest fetch\" marks on %v", countMsg(s.marks, "type"))
	default:
		return model.Message{}
	}
	dates := s.oldest
	if s.newest != s.oldest {
		dates += "–" + s.newest
	}
	return model.Msg("catalog update's %v (as of %s) are older than this gpuplan's embedded catalog (%s): the embedded ones are used; run gpuplan catalog update to refresh",
		what, dates, embedded)
}

// newestPriceAsOf is the newest as_of of e's prices ("" when it has
// none): the date a region price or a mark must reach to stand.
func newestPriceAsOf(e *model.Instance) string {
	newest := ""
	for j := range e.Prices {
		_, _, asOf := model.PriceProvenance(e, &e.Prices[j])
		newest = max(newest, asOf)
	}
	return newest
}

// embeddedRegionAsOf is the as_of of e's price in region, and whether e
// has one there.
func embeddedRegionAsOf(e *model.Instance, region string) (string, bool) {
	asOf, ok := "", false
	for j := range e.Prices {
		if e.Prices[j].Region == region {
			_, _, a := model.PriceProvenance(e, &e.Prices[j])
			asOf, ok = max(asOf, a), true
		}
	}
	return asOf, ok
}
