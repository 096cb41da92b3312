package data

import (
	"cmp"
	"path/filepath"
	"slices"
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

// staleUpdate records what drop left out of catalog update's files, for
// the one warning that says so.
type staleUpdate struct {
	prices []stalePrice // region prices left out: offers (a type in a region)
	marks  []staleMark  // missing_since marks left out: types
}

// stalePrice is a region price drop left out of the update file file.
type stalePrice struct {
	file, provider, typ, region, asOf string
}

// staleMark is a missing_since mark drop left out of file.
type staleMark struct {
	file, asOf string
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
	file := f.name
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
					s.prices = append(s.prices, stalePrice{file, in.Provider, in.Type, rp.Region, asOf})
					continue
				}
				kept = append(kept, rp)
			}
			in.Prices = kept
		}
		if hadMark && e.Retired == "" && in.MissingSince < newest {
			s.marks = append(s.marks, staleMark{file, in.MissingSince})
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

// warning is the one line that says what drop left out, against the
// embedded catalog dated embedded, naming the update files it was in (the
// user refreshes them with catalog update, or deletes them); the zero
// Message when nothing was. A price a hand-written overlay or --catalog
// file sets for the same type and region (overridden) is not counted:
// that file's price is used whatever the update's date, so the update's
// age changes nothing there (a new user's walk: 12 offers were counted,
// a negotiated price among them).
func (s *staleUpdate) warning(embedded string, overridden func(provider, typ, region string) bool) model.Message {
	var files []string
	var oldest, newest string
	note := func(file, asOf string) {
		if !slices.Contains(files, file) {
			files = append(files, file)
		}
		if oldest == "" || asOf < oldest {
			oldest = asOf
		}
		newest = max(newest, asOf)
	}
	prices := 0
	for _, p := range s.prices {
		if overridden == nil || !overridden(p.provider, p.typ, p.region) {
			prices++
			note(p.file, p.asOf)
		}
	}
	for _, m := range s.marks {
		note(m.file, m.asOf)
	}
	var what model.Message
	switch marks := len(s.marks); {
	case prices > 0 && marks > 0:
		what = model.Msg("prices for %v and its \"not in the latest fetch\" marks on %v", countMsg(prices, "offer"), countMsg(marks, "type"))
	case prices > 0:
		what = model.Msg("prices for %v", countMsg(prices, "offer"))
	case marks > 0:
		what = model.Msg("\"not in the latest fetch\" marks on %v", countMsg(marks, "type"))
	default:
		return model.Message{}
	}
	dates := oldest
	if newest != oldest {
		dates += "–" + newest
	}
	slices.Sort(files)
	if len(files) == 1 {
		return model.Msg("catalog update's %v in %s (as of %s) are older than this gpuplan's embedded catalog (%s): the embedded ones are used; run gpuplan catalog update to refresh, or delete the file",
			what, files[0], dates, embedded)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return model.Msg("catalog update's %v in %v of %s (as of %s) are older than this gpuplan's embedded catalog (%s): the embedded ones are used; run gpuplan catalog update to refresh, or delete those files",
		what, model.AndMsg(names), filepath.Dir(files[0]), dates, embedded)
}

// pricedIn reports, for the offers of stale, whether one of files (the
// hand-written overlays and --catalog files, read after catalog update's)
// prices that instance type in that region; nil when stale is empty, so
// a command without an older update walks no file.
func pricedIn(files []catalogFile, stale []stalePrice) func(provider, typ, region string) bool {
	if len(stale) == 0 || len(files) == 0 {
		return nil
	}
	type offer [3]string
	want := make(map[[2]string]bool, len(stale))
	for _, p := range stale {
		want[[2]string{p.provider, p.typ}] = true
	}
	priced := map[offer]bool{}
	add := func(in *model.Instance) {
		if !want[[2]string{in.Provider, in.Type}] {
			return
		}
		for _, rp := range in.Prices {
			priced[offer{in.Provider, in.Type, rp.Region}] = true
		}
	}
	for i := range files {
		for j := range files[i].instances {
			add(&files[i].instances[j].Instance)
		}
		for j := range files[i].full {
			add(&files[i].full[j])
		}
	}
	return func(provider, typ, region string) bool { return priced[offer{provider, typ, region}] }
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
